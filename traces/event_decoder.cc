#include "traces/event_decoder.h"

#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using nlohmann::json;

// The largest inflight accepted: integers up to 2^53 stay exact in the
// score's double arithmetic.
constexpr std::uint64_t kMaxInflight = std::uint64_t{1} << 53;

// A short rendering of an offending value for error messages.
std::string Show(const json& v) {
  std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

[[noreturn]] void Fail(std::string_view field, std::string_view expected,
                       const json* got) {
  if (got)
    throw FieldError(fmt::format("field \"{}\": expected {}, got {}", field,
                                 expected, Show(*got)));
  throw FieldError(fmt::format("field \"{}\": expected {}, but it is missing",
                               field, expected));
}

const json* Member(const json& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool IsFiniteNumber(const json& v) {
  return v.is_number() && std::isfinite(v.get<double>());
}

double NumberAtLeast(const json& v, std::string_view field, double min,
                     bool exclusive, std::string_view expected) {
  if (!IsFiniteNumber(v)) Fail(field, expected, &v);
  double x = v.get<double>();
  if (exclusive ? !(x > min) : !(x >= min)) Fail(field, expected, &v);
  return x;
}

// An Instance id: a non-empty string of at most kMaxIdBytes bytes.
std::string InstanceId(const json* v, std::string_view field) {
  if (!v || !v->is_string() || v->get_ref<const std::string&>().empty())
    Fail(field, "a non-empty string (an Instance id)", v);
  if (v->get_ref<const std::string&>().size() > kMaxIdBytes)
    Fail(field, fmt::format("an Instance id of at most {} bytes (the limit)", kMaxIdBytes), v);
  return v->get<std::string>();
}

double Weight(const json& v) {
  return NumberAtLeast(v, "weight", 0.0, true, "a finite number > 0");
}

// `speed`: an lbsim extension of v1 for the what-if service model.
double Speed(const json& v) {
  return NumberAtLeast(v, "speed", 0.0, true, "a finite number > 0 (service speed)");
}

FieldUpdate<std::int64_t> Inflight(const json* v) {
  FieldUpdate<std::int64_t> u;
  if (!v) return u;
  if (v->is_null()) {
    u.state = FieldUpdate<std::int64_t>::State::kNull;
    return u;
  }
  constexpr std::string_view kExpected = "an integer >= 0 (at most 2^53) or null";
  if (v->is_number_unsigned()) {
    if (v->get<std::uint64_t>() > kMaxInflight) Fail("inflight", kExpected, v);
  } else if (!v->is_number_integer() || v->get<std::int64_t>() < 0) {
    Fail("inflight", kExpected, v);
  }
  u.state = FieldUpdate<std::int64_t>::State::kValue;
  u.value = v->get<std::int64_t>();
  return u;
}

FieldUpdate<double> Qps(const json* v) {
  FieldUpdate<double> u;
  if (!v) return u;
  if (v->is_null()) {
    u.state = FieldUpdate<double>::State::kNull;
    return u;
  }
  u.state = FieldUpdate<double>::State::kValue;
  u.value = NumberAtLeast(*v, "qps_1m", 0.0, false, "a finite number >= 0 or null");
  return u;
}

TraceTime Time(const json* v) {
  constexpr std::string_view kExpected = "a finite number >= 0";
  if (!v) Fail("t", kExpected, nullptr);
  TraceTime t;
  t.value = NumberAtLeast(*v, "t", 0.0, false, kExpected);
  if (v->is_number_unsigned() || v->is_number_integer()) {
    t.integral = true;
    t.integer = v->get<std::uint64_t>();
  }
  return t;
}

// hint.queue_depths.per_instance[<id>][<key>] for every interned id; any
// other shape carries no queue information.
void DecodeHint(const json& hint, const InstanceTable& table, Hint& out) {
  out.queues.clear();
  if (!hint.is_object()) return;
  const json* queues = Member(hint, "queue_depths");
  if (!queues || !queues->is_object()) return;
  const json* per_instance = Member(*queues, "per_instance");
  if (!per_instance || !per_instance->is_object()) return;
  for (const auto& [id, values] : per_instance->items()) {
    if (!values.is_object()) continue;
    std::optional<InstanceIndex> index = table.Find(id);
    if (!index) continue;  // never registered: cannot be a candidate
    Hint::Entry entry{*index, {}};
    for (std::size_t i = 0; i < kQueueFields.size(); ++i) {
      const json* v = Member(values, kQueueFields[i]);
      if (v && v->is_number()) {
        entry.load.value[i] = v->get<double>();
        entry.load.known[i] = true;
      }
    }
    out.queues.push_back(entry);
  }
}

// An arrival's `prefix_blocks`: an array of block ids, integers >= 0.
void DecodePrefixBlocks(const json& blocks, std::vector<std::uint64_t>& out) {
  constexpr std::string_view kExpected = "an array of block ids (integers >= 0)";
  if (!blocks.is_array()) Fail("prefix_blocks", kExpected, &blocks);
  out.reserve(blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const json& id = blocks[i];
    bool ok = id.is_number_unsigned() ||
              (id.is_number_integer() && id.get<std::int64_t>() >= 0);
    if (!ok)
      Fail(fmt::format("prefix_blocks[{}]", i), "a block id (an integer >= 0)", &id);
    out.push_back(id.get<std::uint64_t>());
  }
}

}  // namespace

TraceHeader DecodeHeader(const json& header, bool document) {
  if (!header.is_object())
    throw FieldError(fmt::format("expected the header object, got {}", Show(header)));
  const json* version = Member(header, "lbsim_trace");
  if (!version || !(version->is_number_integer() || version->is_number_unsigned()))
    Fail("lbsim_trace", "the integer 1 (trace format version)", version);
  if (version->get<std::int64_t>() != 1)
    throw FieldError(fmt::format(
        "field \"lbsim_trace\": unsupported trace format version {}; this "
        "lbsim reads version 1",
        Show(*version)));
  if (!document && Member(header, "events"))
    throw FieldError(
        "field \"events\": not allowed in a JSON Lines header (events follow "
        "it one per line)");

  TraceHeader h;
  if (const json* v = Member(header, "name")) {
    if (!v->is_string()) Fail("name", "a string", v);
    h.name = v->get<std::string>();
  }
  if (const json* v = Member(header, "description")) {
    if (!v->is_string()) Fail("description", "a string", v);
    h.description = v->get<std::string>();
  }
  if (const json* v = Member(header, "time_unit")) {
    if (!v->is_string() || (*v != "s" && *v != "ms"))
      Fail("time_unit", "\"s\" or \"ms\"", v);
    h.time_unit = v->get<std::string>();
  }
  if (const json* v = Member(header, "instances")) {
    if (!v->is_array()) Fail("instances", "an array of Instance objects", v);
    if (v->size() > kMaxInstances)
      Fail("instances", fmt::format("at most {} Instances (the limit)", kMaxInstances), v);
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& item = (*v)[i];
      std::string prefix = fmt::format("instances[{}]", i);
      try {
        if (!item.is_object())
          throw FieldError(fmt::format("expected an Instance object, got {}", Show(item)));
        HeaderInstance inst;
        inst.id = InstanceId(Member(item, "id"), "id");
        if (!seen.insert(inst.id).second)
          throw FieldError(fmt::format(
              "field \"id\": expected a unique Instance id, got {} again",
              Show(*Member(item, "id"))));
        if (const json* w = Member(item, "weight")) inst.weight = Weight(*w);
        inst.inflight = Inflight(Member(item, "inflight")).AsOptional();
        inst.qps_1m = Qps(Member(item, "qps_1m")).AsOptional();
        if (const json* s = Member(item, "speed")) inst.speed = Speed(*s);
        if (const json* a = Member(item, "alive")) {
          if (!a->is_boolean()) Fail("alive", "true or false", a);
          inst.alive = a->get<bool>();
        }
        h.instances.push_back(std::move(inst));
      } catch (const FieldError& e) {
        throw FieldError(prefix + ": " + e.what());
      }
    }
  }
  return h;
}

void DecodeEvent(const json& object, InstanceTable& table, TraceEvent& e) {
  if (!object.is_object())
    throw FieldError(fmt::format("expected an event object, got {}", Show(object)));
  e.t = Time(Member(object, "t"));

  const json* type = Member(object, "type");
  constexpr std::string_view kTypes = "one of up, down, remove, load, arrival";
  if (!type || !type->is_string()) Fail("type", kTypes, type);
  const std::string& name = type->get_ref<const std::string&>();
  if (name == "arrival") e.type = EventType::kArrival;
  else if (name == "load") e.type = EventType::kLoad;
  else if (name == "up") e.type = EventType::kUp;
  else if (name == "down") e.type = EventType::kDown;
  else if (name == "remove") e.type = EventType::kRemove;
  else Fail("type", kTypes, type);

  e.instance.clear();
  e.index.reset();
  e.weight.reset();
  e.speed.reset();
  e.inflight = {};
  e.qps_1m = {};
  e.request.reset();
  e.duration.reset();
  e.hint.Clear();

  if (e.type == EventType::kArrival) {
    if (const json* r = Member(object, "request")) {
      if (!r->is_string()) Fail("request", "a string (request id)", r);
      if (r->get_ref<const std::string&>().size() > kMaxIdBytes)
        Fail("request", fmt::format("a request id of at most {} bytes (the limit)", kMaxIdBytes),
             r);
      e.request = r->get<std::string>();
    }
    if (const json* d = Member(object, "duration"))
      e.duration = NumberAtLeast(*d, "duration", 0.0, false, "a finite number >= 0");
    if (const json* h = Member(object, "hint")) DecodeHint(*h, table, e.hint);
    if (const json* b = Member(object, "prefix_blocks"))
      DecodePrefixBlocks(*b, e.hint.prefix_blocks);
    return;
  }

  e.instance = InstanceId(Member(object, "instance"), "instance");
  if (e.type == EventType::kUp) {
    if (const json* w = Member(object, "weight")) e.weight = Weight(*w);
    if (const json* s = Member(object, "speed")) e.speed = Speed(*s);
  }
  if (e.type == EventType::kUp || e.type == EventType::kLoad) {
    e.inflight = Inflight(Member(object, "inflight"));
    e.qps_1m = Qps(Member(object, "qps_1m"));
  }
  // Validate every field before registering anything.
  e.index = table.Find(e.instance);
  if (e.type == EventType::kUp && !e.index) {
    if (table.size() >= kMaxInstances)
      throw FieldError(fmt::format(
          "field \"instance\": expected at most {} distinct Instance ids in a trace (the "
          "limit), got a new one, {}",
          kMaxInstances, Show(*Member(object, "instance"))));
    e.index = table.Intern(e.instance);
  }
}

}  // namespace lbsim
