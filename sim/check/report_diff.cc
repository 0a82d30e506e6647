// Baseline comparison of two JSON reports: every figure of every paired
// strategy, each judged against its family's tolerance.

#include "sim/check/report_diff.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/json_pointer.h"
#include "sim/io/json_file.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// One figure of a strategy: where it is, its value and what the
// catalogue says of it.
struct Leaf {
  std::string pointer;  // JSON pointer from the strategy object
  std::string figure;   // dotted path
  FigureKind kind;      // kind.family is set
  std::optional<double> value;  // nullopt: null
};

// One strategy of a report, as the diff reads it.
struct StrategyFigures {
  std::string label;
  std::string requested_as;
  std::uint64_t decisions = 0;
  const ojson* object = nullptr;  // the strategy's JSON object
  std::vector<Leaf> leaves;       // its figures, in report order
};

bool In(std::string_view word, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

// Every figure of strategy object `node`, in report order; the first figure
// the catalogue does not know goes to `unknown` (and the walk stops).
void Flatten(const ojson& node, std::vector<std::string>& path, std::string& pointer,
             std::vector<Leaf>& out, std::optional<std::string>& unknown);

// A report file, read and checked.
struct ReportFile {
  std::string path;
  ojson doc;
  std::vector<StrategyFigures> strategies;
  std::unordered_map<std::string, std::size_t> by_label;  // the first of each label

  // Looked up by label, so that pairing costs time in proportion to the
  // strategies, not their square.
  const StrategyFigures* Find(const std::string& label) const {
    auto it = by_label.find(label);
    return it == by_label.end() ? nullptr : &strategies[it->second];
  }
  std::string Labels() const {
    std::string out;
    for (const StrategyFigures& s : strategies) out += (out.empty() ? "" : ", ") + s.label;
    return out;
  }
};

class ReportReader {
 public:
  explicit ReportReader(std::string path) : path_(std::move(path)) {}

  ReportFile Read() {
    ReportFile r;
    r.path = path_;
    r.doc = ReadJsonFile(path_, "report");
    const ojson& doc = r.doc;
    if (!doc.is_object() || !doc.contains("lbsim_report") || doc["lbsim_report"] != 1)
      Fail("lbsim_report", "expected 1 (a JSON report from lbsim --format json)");
    const ojson& trace = Object(doc, "trace", "trace");
    Text(trace, "name", "trace.name");
    Count(trace, "events", "trace.events");
    Count(trace, "arrivals", "trace.arrivals");
    const ojson& ids = Get(trace, "instances", "trace.instances");
    if (!ids.is_array() || !std::all_of(ids.begin(), ids.end(), [](const ojson& id) { return id.is_string(); }))
      Fail("trace.instances", "expected an array of Instance ids");
    const ojson& list = Get(doc, "strategies", "strategies");
    if (!list.is_array()) Fail("strategies", "expected an array");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = fmt::format("strategies[{}]", i);
      const ojson& s = list[i];
      if (!s.is_object()) Fail(where, "expected an object");
      StrategyFigures f;
      f.label = Text(s, "label", where + ".label");
      f.requested_as = Text(s, "requested_as", where + ".requested_as");
      f.decisions = Count(s, "decisions", where + ".decisions");
      for (const char* key : {"share", "fairness", "reasons"}) Object(s, key, where + "." + key);
      f.object = &s;
      std::vector<std::string> path;
      std::string pointer;
      std::optional<std::string> unknown;
      Flatten(s, path, pointer, f.leaves, unknown);
      if (unknown)
        Fail(where + "." + *unknown,
             "not a figure lbsim knows (expected a report from lbsim --format json; "
             "docs/reports.md lists the figures)");
      r.by_label.emplace(f.label, r.strategies.size());
      r.strategies.push_back(std::move(f));
    }
    return r;
  }

 private:
  [[noreturn]] void Fail(std::string_view key, std::string_view what) const {
    throw InputError(fmt::format("{}: {}: {}", path_, key, what));
  }
  const ojson& Get(const ojson& object, std::string_view key, std::string_view where) const {
    auto it = object.find(key);
    if (it == object.end()) Fail(where, "missing (expected a report from lbsim --format json)");
    return *it;
  }
  const ojson& Object(const ojson& object, std::string_view key, std::string_view where) const {
    const ojson& v = Get(object, key, where);
    if (!v.is_object()) Fail(where, "expected an object");
    return v;
  }
  std::uint64_t Count(const ojson& object, std::string_view key, const std::string& where) const {
    const ojson& v = Get(object, key, where);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      Fail(where, "expected an integer >= 0");
    return v.get<std::uint64_t>();
  }
  std::string Text(const ojson& object, std::string_view key, const std::string& where) const {
    const ojson& v = Get(object, key, where);
    if (!v.is_string()) Fail(where, "expected a string");
    return v.get<std::string>();
  }

  std::string path_;
};

// What a report says about the run it was made from, as one compact text
// per aspect; absent parts are "none".
std::string Aspect(const ojson& doc, std::string_view aspect) {
  if (aspect == "trace") {
    const ojson& t = doc["trace"];
    return ojson{{"name", t["name"]}, {"events", t["events"]}, {"arrivals", t["arrivals"]},
                 {"instances", t["instances"]}}
        .dump();
  }
  if (aspect == "proxy") {
    auto it = doc.find("proxy");
    if (it == doc.end() || !it->is_object()) return "none";
    return ojson{{"profile", it->value("profile", ojson())}, {"python", it->value("python", ojson())}}
        .dump();
  }
  // Seeds are not compared: replaying under other seeds is how a diff
  // sees noise.
  auto it = doc.find("simulation");
  if (it == doc.end()) return "none";
  ojson sim = *it;
  if (sim.is_object() && sim.contains("stale_metrics") && sim["stale_metrics"].is_object())
    sim["stale_metrics"].erase("seed");
  return sim.dump();
}

// Refuses two reports of different runs unless allowed; returns the
// allowed differences, one line each.
std::vector<std::string> CheckSameRun(const ReportFile& base, const ReportFile& next,
                                      const DiffAllowances& allow) {
  std::vector<std::string> allowed;
  for (auto [aspect, permitted, what] :
       {std::tuple{"trace", allow.trace, "trace"}, std::tuple{"proxy", allow.proxy, "Proxy profile"},
        std::tuple{"simulation", allow.simulation, "simulation options"}}) {
    const std::string b = Aspect(base.doc, aspect), n = Aspect(next.doc, aspect);
    if (b == n) continue;
    if (!permitted)
      throw NotComparableError(fmt::format(
          "{}: {}: {}, but {} has {}; lbsim diff compares reports made under the same {} "
          "(--allow-different {} compares them anyway)",
          next.path, aspect, n, base.path, b, what, aspect));
    allowed.push_back(fmt::format("{}: {} vs {}", aspect, b, n));
  }
  return allowed;
}

void Flatten(const ojson& node, std::vector<std::string>& path, std::string& pointer,
             std::vector<Leaf>& out, std::optional<std::string>& unknown) {
  if (unknown) return;
  if (node.is_object() || node.is_array()) {
    std::size_t k = 0;
    for (auto it = node.begin(); it != node.end(); ++it, ++k) {
      const std::string key = node.is_object() ? it.key() : std::to_string(k);
      if (path.empty() && In(key, {"strategy", "requested_as", "label", "status", "params",
                                   "replays_proxy", "warnings", "expected_share", "spread"}))
        continue;
      const std::size_t mark = pointer.size();
      pointer += '/';
      pointer += JsonPointerToken(key);
      path.push_back(key);
      Flatten(*it, path, pointer, out, unknown);
      path.pop_back();
      pointer.resize(mark);
    }
    return;
  }
  if (path.empty() || !(node.is_number() || node.is_null())) return;
  std::string figure;
  for (const std::string& p : path) figure += (figure.empty() ? "" : ".") + p;
  const std::optional<FigureKind> kind = FindFigure(path);
  if (!kind) {
    unknown = std::move(figure);
    return;
  }
  if (!kind->family) return;
  out.push_back(Leaf{pointer, std::move(figure), *kind,
                     node.is_null() ? std::nullopt : std::optional<double>(node.get<double>())});
}

// The names of the warnings of a strategy, in order, each once; a warning
// written as a plain string (older reports) counts by its text.
std::vector<std::string> WarningNames(const ojson& strategy) {
  std::vector<std::string> names;
  auto it = strategy.find("warnings");
  if (it == strategy.end() || !it->is_array()) return names;
  for (const ojson& w : *it) {
    std::string name = w.is_object() && w.contains("name") && w["name"].is_string()
                           ? w["name"].get<std::string>()
                       : w.is_string() ? w.get<std::string>()
                                       : w.dump();
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

// [min, max] of the figure at `pointer` from the strategy's "spread".
std::optional<std::pair<double, double>> Spread(const ojson& strategy, const std::string& pointer) {
  auto spread = strategy.find("spread");
  if (spread == strategy.end() || !spread->is_object()) return std::nullopt;
  auto it = spread->find(pointer);
  if (it == spread->end() || !it->is_object() || !(*it)["min"].is_number() ||
      !(*it)["max"].is_number())
    return std::nullopt;
  return std::pair((*it)["min"].get<double>(), (*it)["max"].get<double>());
}

// Whether `row` moved beyond its tolerance (and, with `beyond_spread`,
// beyond the seeds' spread).
bool Flag(const DiffRow& row, std::uint64_t decisions, bool beyond_spread, bool only_worse) {
  if (!row.tolerance) return false;
  const int worse = static_cast<int>(row.worse);
  if (only_worse && worse != 0) {
    std::optional<double> base = row.base, next = row.next;
    if (row.null_is_zero) {
      base = base.value_or(0.0);
      next = next.value_or(0.0);
    }
    if (base && next && (*next - *base) * worse <= 0) return false;
  }
  if (!row.base || !row.next) return row.base.has_value() != row.next.has_value();
  const double change = std::fabs(*row.next - *row.base);
  const bool per_decision = row.family == DiffFamily::kReason || row.family == DiffFamily::kCount ||
                            row.family == DiffFamily::kHerding;
  const double abs = per_decision ? row.tolerance->abs * static_cast<double>(std::max<std::uint64_t>(decisions, 1))
                                  : row.tolerance->abs;
  if (!(change > abs) || !(change > row.tolerance->rel * std::fabs(*row.base))) return false;
  if (beyond_spread) {
    const auto b = row.base_spread.value_or(std::pair(*row.base, *row.base));
    const auto n = row.next_spread.value_or(std::pair(*row.next, *row.next));
    if (b.first <= n.second && n.first <= b.second) return false;  // they overlap
  }
  return true;
}

StrategyDiff Compare(const StrategyFigures* b, const StrategyFigures* n, const DiffOptions& options,
                     std::unordered_set<std::string>& used_overrides) {
  StrategyDiff d;
  if (b) {
    d.base_label = b->label;
    d.base_requested = b->requested_as;
    d.decisions = b->decisions;
  }
  if (n) {
    d.next_label = n->label;
    d.next_requested = n->requested_as;
    if (!b) d.decisions = n->decisions;
  }
  if (!b || !n) return d;

  // Reason words belong to a strategy: compared only between runs of one.
  const bool same_strategy = b->object->value("strategy", ojson()) == n->object->value("strategy", ojson());
  std::vector<Leaf> base = b->leaves;
  std::vector<Leaf> next = n->leaves;
  if (!same_strategy) {
    auto own = [](const Leaf& leaf) { return leaf.kind.strategy_words; };
    base.erase(std::remove_if(base.begin(), base.end(), own), base.end());
    next.erase(std::remove_if(next.begin(), next.end(), own), next.end());
  }
  std::unordered_map<std::string, std::size_t> in_next;
  in_next.reserve(next.size());
  for (std::size_t k = 0; k < next.size(); ++k) in_next.emplace(next[k].pointer, k);
  std::vector<bool> matched(next.size(), false);
  auto add = [&](const Leaf& leaf, std::optional<double> bv, std::optional<double> nv) {
    DiffRow row;
    row.figure = leaf.figure;
    row.family = *leaf.kind.family;
    row.worse = leaf.kind.worse;
    row.null_is_zero = leaf.kind.null_is_zero;
    row.base = bv;
    row.next = nv;
    row.base_spread = Spread(*b->object, leaf.pointer);
    row.next_spread = Spread(*n->object, leaf.pointer);
    for (const auto& o : options.tolerances.overrides) {
      const std::string& p = o.first;
      if (leaf.figure.compare(0, p.size(), p) == 0 &&
          (leaf.figure.size() == p.size() || leaf.figure[p.size()] == '.'))
        used_overrides.insert(p);
    }
    if (const Tolerance* named = options.tolerances.Override(leaf.figure)) row.tolerance = *named;
    else if (!leaf.kind.detail) row.tolerance = options.tolerances.of(*leaf.kind.family);
    row.headline = leaf.kind.headline;
    row.flagged = Flag(row, d.decisions, options.beyond_spread, options.only_worse);
    d.rows.push_back(std::move(row));
  };
  for (const Leaf& leaf : base) {
    auto it = in_next.find(leaf.pointer);
    std::optional<double> nv;
    if (it != in_next.end()) {
      matched[it->second] = true;
      nv = next[it->second].value;
    }
    // A reason one strategy never gives counts 0 there.
    if (it == in_next.end() && leaf.kind.family == DiffFamily::kReason) nv = 0.0;
    add(leaf, leaf.value, nv);
  }
  for (std::size_t k = 0; k < next.size(); ++k) {
    if (matched[k]) continue;
    std::optional<double> bv;
    if (next[k].kind.family == DiffFamily::kReason) bv = 0.0;
    add(next[k], bv, next[k].value);
  }
  // Warnings: each name raised in either report, 1 when raised.
  const std::vector<std::string> bw = WarningNames(*b->object), nw = WarningNames(*n->object);
  std::vector<std::string> names = bw;
  for (const std::string& w : nw)
    if (std::find(names.begin(), names.end(), w) == names.end()) names.push_back(w);
  for (const std::string& w : names) {
    DiffRow row;
    row.figure = "warnings." + w;
    row.family = DiffFamily::kWarning;
    row.worse = Worse::kHigher;
    row.base = std::find(bw.begin(), bw.end(), w) != bw.end() ? 1.0 : 0.0;
    row.next = std::find(nw.begin(), nw.end(), w) != nw.end() ? 1.0 : 0.0;
    row.tolerance = options.tolerances.of(DiffFamily::kWarning);
    row.headline = true;
    row.flagged = options.only_worse ? *row.next > *row.base : *row.base != *row.next;
    d.rows.push_back(std::move(row));
  }
  return d;
}

}  // namespace


std::size_t ReportDiff::flagged() const {
  std::size_t n = 0;
  for (const StrategyDiff& s : strategies) {
    if (s.base_label.empty() || s.next_label.empty()) ++n;
    for (const DiffRow& r : s.rows) n += r.flagged;
  }
  return n;
}

std::size_t ReportDiff::rows() const {
  std::size_t n = 0;
  for (const StrategyDiff& s : strategies)
    n += s.base_label.empty() || s.next_label.empty() ? 1 : s.rows.size();
  return n;
}

ReportDiff DiffReports(const std::string& base_path, const std::string& next_path,
                       const DiffOptions& options) {
  const ReportFile base = ReportReader(base_path).Read();
  const ReportFile next = ReportReader(next_path).Read();

  ReportDiff diff;
  diff.allowed = CheckSameRun(base, next, options.allow);
  if (options.beyond_spread && !base.doc.contains("seeds") && !next.doc.contains("seeds"))
    throw UsageError(
        "--beyond-spread: neither report was made with --seeds, so no figure has a spread");
  diff.base_path = base_path;
  diff.next_path = next_path;
  diff.trace_name = base.doc["trace"]["name"].get<std::string>();
  diff.arrivals = base.doc["trace"]["arrivals"].get<std::uint64_t>();
  diff.instances = base.doc["trace"]["instances"].size();
  diff.options = options;

  std::unordered_set<std::string> used;
  if (!options.pairs.empty()) {
    for (const auto& [b, n] : options.pairs) {
      const StrategyFigures* bs = base.Find(b);
      const StrategyFigures* ns = next.Find(n);
      if (!bs)
        throw UsageError(fmt::format("--pair {}={}: {} has no strategy labelled {} (labels: {})",
                                     b, n, base_path, b, base.Labels()));
      if (!ns)
        throw UsageError(fmt::format("--pair {}={}: {} has no strategy labelled {} (labels: {})",
                                     b, n, next_path, n, next.Labels()));
      diff.strategies.push_back(Compare(bs, ns, options, used));
    }
  } else if (base.strategies.size() == 1 && next.strategies.size() == 1) {
    diff.strategies.push_back(Compare(&base.strategies[0], &next.strategies[0], options, used));
  } else {
    for (const StrategyFigures& b : base.strategies)
      diff.strategies.push_back(Compare(&b, next.Find(b.label), options, used));
    for (const StrategyFigures& n : next.strategies)
      if (!base.Find(n.label)) diff.strategies.push_back(Compare(nullptr, &n, options, used));
  }
  for (const auto& o : options.tolerances.overrides)
    if (!used.count(o.first))
      throw UsageError(fmt::format(
          "--tol {}: neither report has a figure at {} (a family name or a dotted figure path, "
          "e.g. what_if.service.latency.p99)",
          o.first, o.first));
  return diff;
}

}  // namespace lbsim
