// A recording of the CacheRoute Proxy (lbsim's recorder, recorder/) as a v1
// trace. The recording is JSON Lines: a header, then one event a line in
// the order things happened in the Proxy (docs/record-proxy.md).

#include "traces/importers/cacheroute_record.h"
#include "traces/importers/import_format.h"
#include "traces/importers/json_fields.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/input/input_file.h"
#include "base/json/json_line_parser.h"
#include "traces/gen/trace_line_writer.h"
#include "traces/line_source.h"

namespace lbsim {
namespace {

using nlohmann::json;

// Event times are multiples of 1/1024 ms (about a microsecond): exact in a
// double, and so is the sum of one and a duration (a difference of two).
constexpr std::uint64_t kTicksPerMs = 1024;

std::uint64_t Unsigned(const json& object, std::string_view key, std::string_view expected) {
  const json* v = Member(object, key);
  if (!v || !IsCount(*v)) BadField(key, expected, v);
  return v->get<std::uint64_t>();
}

// An Instance id: a non-empty string of at most kMaxIdBytes bytes.
std::string Id(const json& object, std::string_view key) {
  const json* v = Member(object, key);
  if (!v || !v->is_string() || v->get_ref<const std::string&>().empty() ||
      v->get_ref<const std::string&>().size() > kMaxIdBytes)
    BadField(key, fmt::format("an Instance id (a string of 1 to {} bytes)", kMaxIdBytes), v);
  return v->get<std::string>();
}

bool Ok(const json& object) {
  const json* v = Member(object, "ok");
  if (!v || !v->is_boolean()) BadField("ok", "true or false", v);
  return v->get<bool>();
}

// A recorded number that may be unknown: null, a JSON number, or the
// recorder's "nan", "inf", "-inf" for a float JSON cannot hold.
std::optional<double> OptionalNumber(const json& object, std::string_view key) {
  const json* v = Member(object, key);
  if (!v || v->is_null()) return std::nullopt;
  if (v->is_number()) return v->get<double>();
  if (v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  BadField(key, "a number, null, or \"nan\", \"inf\", \"-inf\"", v);
}

std::optional<std::int64_t> OptionalInteger(const json& object, std::string_view key) {
  const json* v = Member(object, key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_number_integer() || (v->is_number_unsigned() &&
                                  v->get<std::uint64_t>() > std::uint64_t{1} << 62))
    BadField(key, "an integer or null", v);
  return v->get<std::int64_t>();
}

// The request id a recorder wrote: a string, or null (none known).
std::optional<std::string> RequestId(const json& object) {
  const json* v = Member(object, "request");
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_string() || v->get_ref<const std::string&>().size() > kMaxIdBytes)
    BadField("request", fmt::format("a request id (a string of at most {} bytes) or null", kMaxIdBytes),
        v);
  return v->get<std::string>();
}

// One candidate of a decision, as the strategy saw it.
struct SeenInstance {
  std::string id;
  double weight = 1.0;
  std::optional<std::int64_t> inflight;
  std::optional<double> qps_1m;
};

std::vector<SeenInstance> Candidates(const json& event) {
  const json* list = Member(event, "candidates");
  if (!list || !list->is_array()) BadField("candidates", "an array of Instance objects", list);
  std::vector<SeenInstance> out;
  std::unordered_set<std::string> ids;
  for (const json& c : *list) {
    if (!c.is_object()) BadField("candidates", "an array of Instance objects", &c);
    SeenInstance& seen = out.emplace_back();
    seen.id = Id(c, "id");
    if (!ids.insert(seen.id).second)
      throw FieldError(fmt::format("field \"candidates\": Instance \"{}\" appears twice", seen.id));
    if (std::optional<double> w = OptionalNumber(c, "weight")) seen.weight = *w;
    seen.inflight = OptionalInteger(c, "inflight");
    seen.qps_1m = OptionalNumber(c, "qps_1m");
  }
  return out;
}

// The recording's header line.
struct RecordHeader {
  std::string commit;
  std::string python;
  std::string recorder;
};

// The lbsim strategy a Proxy strategy class is, or the class name.
std::string StrategyName(const std::string& proxy_class) {
  if (proxy_class == "RoundRobinStrategy") return "round_robin";
  if (proxy_class == "LeastLoadStrategy") return "least_load";
  return proxy_class;
}

// The interpreter whose arithmetic a recorded Python version ("3.12.3")
// has: 3.12's from 3.12 on, 3.11's before; none when not recorded or not
// read.
std::optional<PythonVersion> SummationPython(std::string_view version) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(std::string(version).c_str(), "%u.%u", &major, &minor) != 2 || major != 3)
    return std::nullopt;
  return minor >= 12 ? PythonVersion::k312 : PythonVersion::k311;
}

// The pinned profile a recorded commit is (either may be abbreviated), or null.
const ProxyProfile* ProfileOfCommit(std::string_view commit) {
  if (commit.size() < 7) return nullptr;
  for (const ProxyProfile& p : ProxyProfiles()) {
    if (!p.pinned()) continue;
    std::string_view hash = p.name.substr(p.name.find('@') + 1);
    std::size_t n = std::min(hash.size(), commit.size());
    if (hash.substr(0, n) == commit.substr(0, n)) return &p;
  }
  return nullptr;
}

// Reads a recording line by line: the header, then events as parsed JSON
// objects with their `ev`, and each event's tick (Tick).
class RecordLines {
 public:
  RecordLines(std::FILE* file, const std::string& display_path, const InputFile* input)
      : lines_(file, display_path, input), path_(display_path) {}

  RecordHeader ReadHeader() {
    std::string_view line;
    if (!NextLine(line))
      throw InputError(fmt::format("{}: an empty recording; expected a header line "
                                   "{{\"lbsim_record\": 1, ...}}",
                                   path_));
    return Guard([&] {
      const json& h = Parse(line);
      const json* version = Member(h, "lbsim_record");
      if (!version || !version->is_number_integer() || version->get<std::int64_t>() != 1)
        BadField("lbsim_record", "1 (a recording of lbsim's recorder, version 1)", version);
      RecordHeader header;
      if (const json* c = Member(h, "proxy_commit"); c && !c->is_null()) {
        if (!c->is_string()) BadField("proxy_commit", "a commit hash or null", c);
        header.commit = c->get<std::string>();
      }
      if (const json* p = Member(h, "python"); p && !p->is_null()) {
        if (!p->is_string()) BadField("python", "a Python version such as \"3.12.3\"", p);
        header.python = p->get<std::string>();
      }
      if (const json* r = Member(h, "recorder"); r && r->is_string())
        header.recorder = r->get<std::string>();
      return header;
    });
  }

  // The next event, or null at the end; `type` is its `ev`, `tick` its time.
  const json* Next(std::string& type, std::uint64_t& tick) {
    std::string_view line;
    if (!NextLine(line)) return nullptr;
    return Guard([&] {
      const json& e = Parse(line);
      const json* ev = Member(e, "ev");
      if (!ev || !ev->is_string()) BadField("ev", "an event name", ev);
      type = ev->get<std::string>();
      tick = Tick(Unsigned(e, "ns", "an integer >= 0 (monotonic nanoseconds)"));
      return &e;
    });
  }

  // Runs `read` and turns a FieldError into an InputError naming the line.
  template <typename Read>
  auto Guard(Read read) -> decltype(read()) {
    try {
      return read();
    } catch (const FieldError& e) {
      throw InputError(Where(e.what()));
    }
  }

  std::string Where(std::string_view what) const {
    return fmt::format("{}:{}: {}", path_, lines_.number(), what);
  }

 private:
  bool NextLine(std::string_view& line) {
    do {
      if (!lines_.Next(line)) return false;
    } while (IsBlank(line));
    return true;
  }

  const json& Parse(std::string_view line) {
    if (!parser_.Parse(line)) throw FieldError(parser_.error());
    if (!parser_.value().is_object()) throw FieldError("expected a JSON object");
    return parser_.value();
  }

  // Each event's own tick, in recorded order: its time since the first
  // event, in 1/1024 ms, but at least one after the event before (the file
  // order is the order things happened; a clock that stepped back moves
  // nothing earlier).
  std::uint64_t Tick(std::uint64_t ns) {
    if (!started_) {
      started_ = true;
      first_ns_ = ns;
      last_tick_ = 0;
      return 0;
    }
    const unsigned __int128 since = ns > first_ns_ ? ns - first_ns_ : 0;
    std::uint64_t tick = static_cast<std::uint64_t>(since * kTicksPerMs / 1'000'000);
    tick = std::max(tick, last_tick_ + 1);
    if (tick >= (std::uint64_t{1} << 53))
      throw FieldError("field \"ns\": more than 2^53 / 1024 ms after the first event");
    last_tick_ = tick;
    return tick;
  }

  LineSource lines_;
  std::string path_;
  JsonLineParser parser_;
  bool started_ = false;
  std::uint64_t first_ns_ = 0;
  std::uint64_t last_tick_ = 0;
};

double Ms(std::uint64_t tick) { return static_cast<double>(tick) / kTicksPerMs; }

// A recorded value in a message: the number, or "unknown".
template <typename T>
std::string Shown(const std::optional<T>& v) {
  return v ? fmt::format("{}", *v) : std::string("unknown");
}

// Values a trace holds: a weight finite and > 0 (1 is the default, not
// written), a qps_1m finite and >= 0, an inflight >= 0. The Proxy takes any
// float(); the Proxy's strategies read no weight. What a trace cannot hold
// is left out, and the import counts it as a gap.
bool Replayable(double weight) { return std::isfinite(weight) && weight > 0; }
bool Replayable(const std::optional<double>& qps) {
  return !qps || (std::isfinite(*qps) && *qps >= 0);
}
bool Replayable(const std::optional<std::int64_t>& inflight) { return !inflight || *inflight >= 0; }

// What the first pass learns: each arrival's end, the Instances registered
// before the recording started, the strategy, and the counts.
struct FirstPass {
  std::vector<std::int64_t> end_tick;          // by arrival; -1: no end recorded
  std::vector<SeenInstance> header_instances;  // in the order first seen
  std::string strategy_class;
  std::uint64_t lost = 0;
  std::uint64_t begins = 0;  // begin events (none from a Proxy that counts no requests)
  std::uint64_t gaps = 0;
  std::string first_gap;

  void Gap(const RecordLines& lines, std::string_view what) { Gap(lines.Where(what)); }
  void Gap(std::string where_and_what) {
    if (gaps++ == 0) first_gap = std::move(where_and_what);
  }
};

FirstPass ReadEnds(RecordLines& lines) {
  FirstPass pass;
  std::unordered_set<std::string> seen;  // ids registered or in the header
  // The header's Instances were in the pool before the recording began, in
  // an order only decisions show: by first place in a decision's
  // candidates, then those no decision offered, by first sighting.
  std::unordered_map<std::string, std::uint64_t> offered_rank;
  std::uint64_t next_rank = 0;
  // A decision's request waits for its begin_request, then is in flight
  // until an end_request of its Instance: the one with its request id, else
  // the oldest. Memory holds these requests only, and 8 bytes an arrival.
  struct Request {
    std::uint64_t arrival;
    std::optional<std::string> id;
  };
  std::unordered_map<std::string, std::deque<Request>> awaiting_begin;
  std::unordered_map<std::string, std::deque<Request>> in_flight;
  std::uint64_t& begins = pass.begins;
  auto first_sight = [&](const std::string& id, const SeenInstance& state) {
    if (seen.insert(id).second) pass.header_instances.push_back(state);
  };

  std::string type;
  std::uint64_t tick = 0;
  while (const json* e = lines.Next(type, tick)) {
    lines.Guard([&] {
      if (type == "decision" || type == "no_instances") {
        const Request request{pass.end_tick.size(), RequestId(*e)};
        pass.end_tick.push_back(-1);
        if (type == "no_instances") return;
        const json* s = Member(*e, "strategy");
        if (!s || !s->is_string()) BadField("strategy", "the strategy's class name", s);
        if (pass.strategy_class.empty()) pass.strategy_class = s->get<std::string>();
        else if (pass.strategy_class != s->get_ref<const std::string&>())
          pass.Gap(lines, fmt::format("a decision by {} after decisions by {}",
                                      s->get<std::string>(), pass.strategy_class));
        for (const SeenInstance& c : Candidates(*e)) {
          first_sight(c.id, c);
          offered_rank.try_emplace(c.id, next_rank++);
        }
        const json* chosen = Member(*e, "chosen");
        const json* error = Member(*e, "error");
        if (chosen && error) throw FieldError("a decision has both \"chosen\" and \"error\"");
        if (error) {
          if (!error->is_string()) BadField("error", "the exception's text", error);
          return;
        }
        awaiting_begin[Id(*e, "chosen")].push_back(request);
        return;
      }
      if (type == "register") {
        seen.insert(Id(*e, "instance"));
        return;
      }
      if (type == "heartbeat" || type == "refresh" || type == "remove") {
        const std::string id = Id(*e, "instance");
        if (Ok(*e) && type != "remove") {
          SeenInstance state{id, 1.0, OptionalInteger(*e, "inflight"), OptionalNumber(*e, "qps_1m")};
          first_sight(id, state);
        }
        return;
      }
      if (type == "begin") {
        ++begins;
        const std::string id = Id(*e, "instance");
        const bool ok = Ok(*e);
        std::deque<Request>& waiting = awaiting_begin[id];
        if (waiting.empty()) {
          if (ok) pass.Gap(lines, fmt::format("a request begun on {} that no decision chose", id));
          return;
        }
        Request begun = std::move(waiting.front());
        waiting.pop_front();
        if (!ok) {
          pass.Gap(lines, fmt::format("begin_request refused {}: it left the pool after the "
                                      "decision (the Proxy answered 503; a replay counts it)",
                                      id));
          return;
        }
        in_flight[id].push_back(std::move(begun));
        return;
      }
      if (type == "end") {
        const std::string id = Id(*e, "instance");
        std::optional<std::string> request = RequestId(*e);
        // An end the pool refused (the Instance was removed) still ends
        // its request: a replay's completion then finds no Instance either.
        const bool ok = Ok(*e);
        std::deque<Request>& open = in_flight[id];
        if (open.empty()) {
          if (ok) pass.Gap(lines, fmt::format("a request ended on {} with none in flight there", id));
          return;
        }
        auto match = open.begin();
        if (request)
          match = std::find_if(open.begin(), open.end(),
                               [&](const Request& f) { return f.id == request; });
        if (match == open.end()) match = open.begin();
        pass.end_tick[match->arrival] = static_cast<std::int64_t>(tick);
        open.erase(match);
        return;
      }
      if (type == "lost") {
        pass.lost += Unsigned(*e, "events", "an integer >= 0 (events dropped)");
        return;
      }
      if (type == "pool" || type == "stop") return;
      BadField("ev", "one of pool, register, heartbeat, refresh, remove, decision, no_instances, "
                "begin, end, lost, stop",
          Member(*e, "ev"));
    });
  }
  auto rank = [&](const SeenInstance& s) {
    auto it = offered_rank.find(s.id);
    return it == offered_rank.end() ? next_rank : it->second;
  };
  std::stable_sort(pass.header_instances.begin(), pass.header_instances.end(),
                   [&](const SeenInstance& a, const SeenInstance& b) { return rank(a) < rank(b); });
  // A pool without begin_request (cacheroute@df8382d counts no requests)
  // records none at all.
  if (begins > 0)
    for (auto& [id, waiting] : awaiting_begin)
      for (std::size_t k = 0; k < waiting.size(); ++k)
        pass.Gap(lines, fmt::format("a decision chose {} but its request was never begun", id));
  return pass;
}

// The pool as the trace written so far leaves it in a replay.
struct ModelInstance {
  bool registered = false;
  bool alive = false;
  // What the trace holds: the replay's pool.
  std::optional<double> qps_1m;
  std::optional<std::int64_t> inflight;  // as heartbeats set it (cacheroute@df8382d)
  // What the recording said last, which a trace may not hold (a negative
  // qps_1m): a decision that repeats it is explained, not a new gap.
  std::optional<double> recorded_qps_1m;
  std::optional<std::int64_t> recorded_inflight;
};

class TraceWriterPass {
 public:
  TraceWriterPass(RecordLines& lines, FirstPass& first, TraceLineWriter& writer,
                  RecordImportStats& stats, bool heartbeats_set_inflight)
      : lines_(lines), first_(first), writer_(writer), stats_(stats),
        heartbeats_set_inflight_(heartbeats_set_inflight) {
    for (const SeenInstance& s : first.header_instances) {
      ModelInstance& m = pool_[s.id];
      m.registered = m.alive = true;
      m.qps_1m = m.recorded_qps_1m = s.qps_1m;
      m.inflight = m.recorded_inflight = s.inflight;
      order_.push_back(s.id);
    }
  }

  void Run() {
    std::string type;
    while (const json* e = lines_.Next(type, tick_)) lines_.Guard([&] { Event(type, *e); });
  }

 private:
  void Event(const std::string& type, const json& e) {
    const double t = Ms(tick_);
    if (type == "register") {
      const std::string id = Id(e, "instance");
      ModelInstance& m = pool_[id];
      if (!m.registered) order_.push_back(id);
      m.registered = m.alive = true;
      Up(t, id, OptionalNumber(e, "weight").value_or(1.0));
    } else if (type == "heartbeat" || type == "refresh") {
      const std::string id = Id(e, "instance");
      if (!Ok(e)) return;
      auto it = pool_.find(id);
      if (it == pool_.end() || !it->second.registered) return;  // the pool knew nothing of it
      std::optional<double> qps;
      std::optional<std::int64_t> inflight;
      if (type == "heartbeat") {
        qps = OptionalNumber(e, "qps_1m");
        if (heartbeats_set_inflight_) inflight = OptionalInteger(e, "inflight");
      }
      Refresh(t, id, it->second, qps, inflight);
    } else if (type == "remove") {
      const std::string id = Id(e, "instance");
      auto it = pool_.find(id);
      if (!Ok(e) || it == pool_.end() || !it->second.registered) return;
      it->second = ModelInstance{};
      order_.erase(std::find(order_.begin(), order_.end(), id));
      Change(t, InstanceEventKind::kRemove, id);
    } else if (type == "decision") {
      const std::vector<SeenInstance> candidates = Candidates(e);
      Reconcile(t, candidates);
      const json* error = Member(e, "error");
      std::string chosen;
      if (!error) chosen = Id(e, "chosen");
      std::string hint;
      if (const json* q = Member(e, "queue_depths")) {
        hint = "{\"queue_depths\":" + q->dump() + "}";
        if (hint.size() > kMaxLineBytes / 2)
          throw FieldError(fmt::format("field \"queue_depths\": {} bytes, more than a trace line "
                                       "holds",
                                       hint.size()));
      }
      Arrival(t, e, hint, error ? nullptr : &chosen);
      if (error) ++stats_.refused;
    } else if (type == "no_instances") {
      Reconcile(t, {});
      Arrival(t, e, "", nullptr);
      ++stats_.no_instances;
    }
  }

  void Arrival(double t, const json& e, const std::string& hint, const std::string* chosen) {
    const std::int64_t end = first_.end_tick[arrival_++];
    std::optional<double> duration;
    if (end >= 0) duration = Ms(static_cast<std::uint64_t>(end) - tick_);
    else if (chosen && first_.begins > 0) ++stats_.in_flight;
    std::optional<std::string> request = RequestId(e);
    writer_.RecordedArrival(t, request ? std::optional<std::string_view>(*request) : std::nullopt,
                            duration, hint, chosen);
  }

  // Makes the replay's pool offer what the strategy was offered: Instances
  // the decision left out expired (TTL) and go down; anything else that
  // differs is a gap in the recording, mended where a trace event can.
  void Reconcile(double t, const std::vector<SeenInstance>& candidates) {
    std::unordered_set<std::string_view> offered;
    for (const SeenInstance& c : candidates) offered.insert(c.id);
    for (const SeenInstance& c : candidates) {
      ModelInstance& m = pool_[c.id];
      if (m.registered) continue;
      first_.Gap(lines_, fmt::format("{} was offered to the strategy but never registered", c.id));
      m.registered = m.alive = true;
      order_.push_back(c.id);
      Up(t, c.id, c.weight);
    }
    for (const std::string& id : order_) {
      ModelInstance& m = pool_[id];
      if (!m.alive || offered.count(id)) continue;
      m.alive = false;
      ++stats_.expired;
      Change(t, InstanceEventKind::kDown, id);
    }
    std::vector<std::string_view> alive_order;
    for (const std::string& id : order_)
      if (pool_[id].alive) alive_order.push_back(id);
    for (const SeenInstance& c : candidates) {
      ModelInstance& m = pool_[c.id];
      if (!m.alive)
        first_.Gap(lines_, fmt::format("{} was offered again with no heartbeat since it expired",
                                       c.id));
      if (c.qps_1m != m.recorded_qps_1m) {
        first_.Gap(lines_, fmt::format("the qps_1m of {} was {} at the decision; the recorded "
                                       "heartbeats say {}",
                                       c.id, Shown(c.qps_1m), Shown(m.recorded_qps_1m)));
      }
      std::optional<std::int64_t> inflight;
      if (heartbeats_set_inflight_ && c.inflight != m.recorded_inflight) {
        first_.Gap(lines_, fmt::format("the inflight of {} was {} at the decision; the recorded "
                                       "heartbeats say {}",
                                       c.id, Shown(c.inflight), Shown(m.recorded_inflight)));
        inflight = c.inflight;
      }
      Refresh(t, c.id, m, c.qps_1m, inflight);
    }
    if (alive_order.size() == candidates.size() &&
        !std::equal(alive_order.begin(), alive_order.end(), candidates.begin(),
                    [](std::string_view a, const SeenInstance& b) { return a == b.id; }))
      first_.Gap(lines_, "the candidates came in another order than the pool's registrations");
  }

  // A heartbeat (or a liveness refresh): written as a `load` event when it
  // changes what the replay's pool holds, or brings the Instance back.
  void Refresh(double t, const std::string& id, ModelInstance& m, std::optional<double> qps,
               std::optional<std::int64_t> inflight) {
    // A value the trace cannot hold is a gap once, where the recording
    // first says it; the same value again (a decision's candidate) is not.
    const bool new_qps = qps && qps != m.recorded_qps_1m;
    const bool new_inflight = inflight && inflight != m.recorded_inflight;
    if ((new_qps && !Replayable(qps)) || (new_inflight && !Replayable(inflight)))
      first_.Gap(lines_, fmt::format("{} reports qps_1m {} and inflight {}, which a trace cannot "
                                     "hold: left out",
                                     id, Shown(qps), Shown(inflight)));
    if (qps) m.recorded_qps_1m = qps;
    if (inflight) m.recorded_inflight = inflight;
    if (!Replayable(qps)) qps.reset();
    if (!Replayable(inflight)) inflight.reset();
    std::optional<double> set_qps;
    if (qps && qps != m.qps_1m) set_qps = qps;
    std::optional<std::int64_t> set_inflight;
    if (inflight && inflight != m.inflight) set_inflight = inflight;
    if (!set_qps && !set_inflight && m.alive) return;
    if (set_qps) m.qps_1m = set_qps;
    if (set_inflight) m.inflight = set_inflight;
    m.alive = true;
    writer_.Load(t, id, set_inflight, set_qps);
  }

  // A registration with its weight when a trace holds it (1, the default,
  // is not written).
  void Up(double t, const std::string& id, double weight) {
    std::optional<double> written;
    if (!Replayable(weight))
      first_.Gap(lines_, fmt::format("{} has weight {}, which a trace cannot hold: left at 1",
                                     id, weight));
    else if (weight != 1.0)
      written = weight;
    Change(t, InstanceEventKind::kUp, id, written);
  }

  void Change(double t, InstanceEventKind kind, const std::string& id,
              std::optional<double> weight = std::nullopt) {
    InstanceChange change;
    change.at = t;
    change.kind = kind;
    change.instance = id;
    change.weight = weight;
    writer_.Change(change);
  }

  RecordLines& lines_;
  FirstPass& first_;
  TraceLineWriter& writer_;
  RecordImportStats& stats_;
  const bool heartbeats_set_inflight_;
  std::unordered_map<std::string, ModelInstance> pool_;
  std::vector<std::string> order_;  // registered ids in pool order
  std::uint64_t tick_ = 0;
  std::uint64_t arrival_ = 0;
};

std::string Description(const RecordHeader& h, const std::string& display_path,
                        const FirstPass& first) {
  std::string text = fmt::format(
      "Recorded at a running CacheRoute Proxy by {} (commit {}, Python {}, strategy {}); "
      "imported by lbsim from {}",
      h.recorder.empty() ? "lbsim's recorder" : h.recorder,
      h.commit.empty() ? "not recorded" : h.commit, h.python.empty() ? "not recorded" : h.python,
      first.strategy_class.empty() ? "none" : first.strategy_class, display_path);
  if (first.lost) text += fmt::format("; the recorder lost {} events", first.lost);
  return text;
}

}  // namespace

ImportFormat CacheRouteRecordFormat() {
  return {
      .name = "cacheroute-record",
      .description = "a recording of the CacheRoute Proxy by lbsim's recorder (recorder/)",
      .time_field = "ns",
      .proxy_recording = true,
  };
}

RecordImportStats ImportCacheRouteRecord(InputFile& in, const std::string& display_path,
                                         const std::string& name, std::FILE* out,
                                         TraceEncoding encoding) {
  in.MakeSeekable();
  RecordImportStats stats;
  RecordHeader header;
  FirstPass first;
  {
    RecordLines lines(in.get(), display_path, &in);
    header = lines.ReadHeader();
    first = ReadEnds(lines);
  }
  if (fseeko(in.get(), 0, SEEK_SET) != 0)
    throw InputError(fmt::format("{}: cannot read the recording a second time", display_path));
  stats.commit = header.commit;
  stats.profile = ProfileOfCommit(header.commit);
  stats.python = header.python;
  stats.strategy = first.strategy_class.empty() ? "" : StrategyName(first.strategy_class);
  stats.lost = first.lost;
  stats.requests_counted = first.begins > 0;

  TraceLineWriter writer(out, encoding);
  std::vector<GeneratedInstance> instances;
  for (SeenInstance& s : first.header_instances) {
    if (!Replayable(s.weight) || !Replayable(s.qps_1m) || !Replayable(s.inflight)) {
      first.Gap(fmt::format("{}: {} was in the pool before the recording with weight {}, qps_1m "
                            "{}, inflight {}; what a trace cannot hold is left out",
                            display_path, s.id, s.weight, Shown(s.qps_1m), Shown(s.inflight)));
      if (!Replayable(s.weight)) s.weight = 1.0;
      if (!Replayable(s.qps_1m)) s.qps_1m.reset();
      if (!Replayable(s.inflight)) s.inflight.reset();
    }
    instances.push_back(GeneratedInstance{
        s.id, s.weight != 1.0 ? std::optional(s.weight) : std::nullopt, std::nullopt,
        s.inflight, s.qps_1m});
  }
  writer.Header(name, Description(header, display_path, first), "ms", std::nullopt,
                stats.profile, instances, std::nullopt, stats.strategy,
                SummationPython(header.python));

  RecordLines lines(in.get(), display_path, &in);
  lines.ReadHeader();
  const bool heartbeats_set_inflight =
      stats.profile && stats.profile->inflight == InflightSource::kHeartbeats;
  TraceWriterPass pass(lines, first, writer, stats, heartbeats_set_inflight);
  pass.Run();
  writer.Finish();
  stats.arrivals = writer.arrivals();
  stats.gaps = first.gaps;
  stats.first_gap = first.first_gap;
  return stats;
}

}  // namespace lbsim
