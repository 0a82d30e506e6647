#include "traces/event_decoder.h"

#include "base/did_you_mean.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include <fmt/format.h>

#include "base/number_text.h"
#include "strategies/python_float.h"
#include "base/json/json_write.h"
#include "base/json/json_line_parser.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// The largest inflight accepted: integers up to 2^53 stay exact in the
// score's double arithmetic.
constexpr std::uint64_t kMaxInflight = std::uint64_t{1} << 53;

// The largest "prefix_block_tokens" a header may give.
constexpr std::uint64_t kMaxPrefixBlockTokens = std::uint64_t{1} << 32;

// A short rendering of an offending value for error messages, in
// nlohmann::json's compact form (only error paths come here).
std::string Show(const JsonView& v) { return ShortJsonText(v.text); }

[[noreturn]] void Fail(std::string_view field, std::string_view expected,
                       const JsonView* got) {
  if (got)
    throw FieldError(fmt::format("field \"{}\": expected {}, got {}", field,
                                 expected, Show(*got)));
  throw FieldError(fmt::format("field \"{}\": expected {}, but it is missing",
                               field, expected));
}

// The member of `object` named `key` (the last, were there several; the
// readers refuse repeated keys).
std::optional<JsonView> Member(const JsonView& object, std::string_view key,
                               std::string& scratch) {
  std::optional<JsonView> found;
  JsonObjectReader members(object);
  for (JsonMember m; members.Next(m);)
    if (ReadString(m.key, scratch) == key) found = m.value;
  return found;
}

const JsonView* Get(const std::optional<JsonView>& v) { return v ? &*v : nullptr; }

// The number `v` when it is a number above `min` (or at it, unless
// `exclusive`); otherwise fails naming `field` and what was `expected`.
// Inline: it reads the duration of every arrival.
inline double NumberAtLeast(const JsonView& v, std::string_view field, double min,
                            bool exclusive, std::string_view expected) {
  if (v.is_number()) {
    const double x = ReadNumber(v.text).AsDouble();
    if (exclusive ? x > min : x >= min) return x;
  }
  Fail(field, expected, &v);
}

// Times are added and ordered as doubles, which hold every integer up to
// 2^53 exactly; Python keeps an integer literal exact at any size.
constexpr std::uint64_t kMaxExactTime = std::uint64_t{1} << 53;

// Whether a number literal is written as an integer (no fraction, no
// exponent), whatever its size.
bool IntegerLiteral(std::string_view text) {
  return text.find_first_of(".eE") == std::string_view::npos;
}

// Refuses an integer `span` (a duration, a ttft) that ends an arrival at the
// integer time `t` past 2^53, where the double sum would no longer equal
// Python's exact one.
void CheckExactEnd(const TraceTime& t, const JsonView* span, double value,
                   std::string_view field) {
  // Below 2^53 as doubles, below it exactly: rounding keeps the order.
  if (!span || t.value + value < static_cast<double>(kMaxExactTime)) return;
  if (!IntegerLiteral(span->text)) return;
  const JsonNumber n = ReadNumber(span->text);
  if (n.type == JsonNumber::Type::kUnsigned && n.unsigned_value <= kMaxExactTime - t.integer)
    return;
  throw FieldError(fmt::format(
      "field \"{}\": expected t + {} of at most 2^53 when both are integers (lbsim adds times "
      "as doubles, exact only that far), got {} + {}",
      field, field, t.integer, std::string_view(span->text)));
}

// An Instance id: a non-empty string of at most kMaxIdBytes bytes.
std::string_view InstanceId(const JsonView* v, std::string_view field, std::string& scratch) {
  if (!v || !v->is_string() || v->text.size() == 2)
    Fail(field, "a non-empty string (an Instance id)", v);
  std::string_view id = ReadString(*v, scratch);
  if (id.size() > kMaxIdBytes)
    Fail(field, fmt::format("an Instance id of at most {} bytes (the limit)", kMaxIdBytes), v);
  return id;
}

double Weight(const JsonView& v) {
  return NumberAtLeast(v, "weight", 0.0, true, "a finite number > 0");
}

// `speed`: an lbsim extension of v1 for the what-if service model.
double Speed(const JsonView& v) {
  return NumberAtLeast(v, "speed", 0.0, true, "a finite number > 0 (service speed)");
}

FieldUpdate<std::int64_t> Inflight(const JsonView* v) {
  FieldUpdate<std::int64_t> u;
  if (!v) return u;
  if (v->is_null()) {
    u.state = FieldUpdate<std::int64_t>::State::kNull;
    return u;
  }
  constexpr std::string_view kExpected = "an integer >= 0 (at most 2^53) or null";
  if (!v->is_number()) Fail("inflight", kExpected, v);
  JsonNumber n = ReadNumber(v->text);
  if (n.type == JsonNumber::Type::kUnsigned) {
    if (n.unsigned_value > kMaxInflight) Fail("inflight", kExpected, v);
    u.value = static_cast<std::int64_t>(n.unsigned_value);
  } else if (n.type == JsonNumber::Type::kSigned && n.signed_value >= 0) {
    u.value = n.signed_value;
  } else {
    Fail("inflight", kExpected, v);
  }
  u.state = FieldUpdate<std::int64_t>::State::kValue;
  return u;
}

FieldUpdate<double> Qps(const JsonView* v) {
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

TraceTime Time(const JsonView* v) {
  constexpr std::string_view kExpected = "a finite number >= 0";
  if (!v || !v->is_number()) Fail("t", kExpected, v);
  JsonNumber n = ReadNumber(v->text);
  TraceTime t;
  t.value = n.AsDouble();
  if (!(t.value >= 0.0)) Fail("t", kExpected, v);
  if (n.type == JsonNumber::Type::kUnsigned
          ? n.unsigned_value > kMaxExactTime
          : t.value > static_cast<double>(kMaxExactTime) && IntegerLiteral(v->text))
    throw FieldError(fmt::format(
        "field \"t\": expected an integer of at most 2^53 (lbsim adds times as doubles, exact "
        "only that far; write a fraction or an exponent to take the nearest double), got {}",
        std::string_view(v->text)));
  if (n.integral()) {
    t.integral = true;
    // Only 0 can be a signed literal here ("-0").
    t.integer = n.type == JsonNumber::Type::kUnsigned ? n.unsigned_value : 0;
  }
  return t;
}

// Whether `text` equals the literal `word` (of the same length, already
// checked): a fixed-size compare the compiler inlines.
template <std::size_t N>
bool Equals(std::string_view text, const char (&word)[N]) {
  return std::memcmp(text.data(), word, N - 1) == 0;
}

// The event type named `name`, or nullopt.
std::optional<EventType> TypeNamed(std::string_view name) {
  switch (name.size()) {
    case 2: if (Equals(name, "up")) return EventType::kUp; break;
    case 4:
      if (Equals(name, "load")) return EventType::kLoad;
      if (Equals(name, "down")) return EventType::kDown;
      break;
    case 6: if (Equals(name, "remove")) return EventType::kRemove; break;
    case 7: if (Equals(name, "arrival")) return EventType::kArrival; break;
    default: break;
  }
  return std::nullopt;
}

// One queue value as a pinned Proxy reads it: Python's float() of what
// json.loads gives. Sets known/value, or overflow for a JSON integer that
// float() cannot convert.
void ReadPythonQueueValue(const JsonView& v, PythonVersion python, QueueLoad& load,
                          std::size_t i, std::string& scratch) {
  switch (v.kind) {
    case JsonKind::kNumber: {
      const double x = ReadNumber(v.text).AsDouble();
      // json.loads keeps an integer literal as an int, which float() refuses
      // past the double range; a literal with a fraction or exponent is
      // already a float there (±inf past the range).
      if (std::isinf(x) && v.text.find_first_of(".eE") == std::string_view::npos) {
        load.overflow[i] = true;
        return;
      }
      load.known[i] = true;
      load.value[i] = x;
      return;
    }
    case JsonKind::kTrue:
    case JsonKind::kFalse:
      load.known[i] = true;
      load.value[i] = v.kind == JsonKind::kTrue ? 1.0 : 0.0;
      return;
    case JsonKind::kString:
      if (std::optional<double> x = PythonFloatOfText(ReadString(v, scratch), python)) {
        load.known[i] = true;
        load.value[i] = *x;
      }
      return;
    default:  // null, arrays and objects: not numbers to float()
      return;
  }
}

// A token count (`input_tokens`, `output_tokens`): an integer from 0 to
// kMaxTokens.
std::uint64_t TokenCount(const JsonView& v, std::string_view field) {
  if (v.is_number()) {
    const JsonNumber n = ReadNumber(v.text);
    if (n.type == JsonNumber::Type::kUnsigned && n.unsigned_value <= kMaxTokens)
      return n.unsigned_value;
    if (n.type == JsonNumber::Type::kSigned && n.signed_value == 0) return 0;  // "-0"
  }
  Fail(field, "an integer >= 0 (a token count, at most 2^53)", &v);
}

// An arrival's `route`: "chat" or "completions".
RequestRoute Route(const JsonView& v) {
  if (v.is_string()) {
    std::string scratch;
    const std::string_view route = ReadString(v, scratch);
    if (route == "chat") return RequestRoute::kChat;
    if (route == "completions") return RequestRoute::kCompletions;
  }
  Fail("route", "\"chat\" or \"completions\" (the Proxy route)", &v);
}

// An arrival's `prefix_blocks`: an array of block ids, integers >= 0.
void DecodePrefixBlocks(const JsonView& blocks, std::vector<std::uint64_t>& out) {
  if (!blocks.is_array())
    Fail("prefix_blocks", "an array of block ids (integers >= 0)", &blocks);
  JsonArrayReader ids(blocks);
  std::size_t i = 0;
  for (JsonView id; ids.Next(id); ++i) {
    JsonNumber n = id.is_number() ? ReadNumber(id.text) : JsonNumber{JsonNumber::Type::kFloat};
    bool ok = n.type == JsonNumber::Type::kUnsigned ||
              (n.type == JsonNumber::Type::kSigned && n.signed_value >= 0);
    if (!ok) Fail(fmt::format("prefix_blocks[{}]", i), "a block id (an integer >= 0)", &id);
    out.push_back(n.type == JsonNumber::Type::kUnsigned
                      ? n.unsigned_value
                      : static_cast<std::uint64_t>(n.signed_value));
  }
}

// Throws FieldError "key "K" appears twice[ WHERE]" when two of `members`
// have the same key (as decoded: "t" and "\u0074" are one key).
void CheckUniqueKeys(std::span<const JsonMember> members, std::string_view where) {
  std::optional<std::string> repeated;
  std::string a, b;
  if (members.size() <= 16) {
    // An event's few keys, compared pairwise by their text unless one
    // holds an escape: no allocation on the path of every event with a
    // hint.
    for (std::size_t i = 1; i < members.size() && !repeated; ++i)
      for (std::size_t j = 0; j < i && !repeated; ++j) {
        const JsonView& x = members[i].key;
        const JsonView& y = members[j].key;
        if (x.escaped || y.escaped ? ReadString(x, a) == ReadString(y, b) : x.text == y.text)
          repeated = std::string(ReadString(x, a));
      }
  } else {
    std::vector<std::string> keys;
    keys.reserve(members.size());
    for (const JsonMember& m : members) keys.emplace_back(ReadString(m.key, a));
    std::sort(keys.begin(), keys.end());
    const auto twice = std::adjacent_find(keys.begin(), keys.end());
    if (twice != keys.end()) repeated = *twice;
  }
  if (!repeated) return;
  std::string quoted;
  AppendJsonString(quoted, *repeated);
  throw FieldError(fmt::format("key {} appears twice{}{}", quoted, where.empty() ? "" : " ", where));
}

// The members of an event object that trace format v1 defines, each at most
// once.
struct EventFields {
  const JsonView* t = nullptr;
  const JsonView* type = nullptr;
  const JsonView* instance = nullptr;
  const JsonView* weight = nullptr;
  const JsonView* speed = nullptr;
  const JsonView* inflight = nullptr;
  const JsonView* qps_1m = nullptr;
  const JsonView* request = nullptr;
  const JsonView* duration = nullptr;
  const JsonView* hint = nullptr;
  const JsonView* prefix_blocks = nullptr;
  const JsonView* input_tokens = nullptr;
  const JsonView* output_tokens = nullptr;
  const JsonView* ttft = nullptr;
  const JsonView* route = nullptr;
  const JsonView* knowledge_tokens = nullptr;
  const JsonView* proxy_choice = nullptr;

  // Sets the fields from `members`. Most traces write an event's keys in
  // one order (t, type, then the type's own), one each: those are matched
  // in turn, each against the one key expected there, which spares a
  // multiway branch on every key; anything else goes through Set, after
  // a check that no key comes twice (the usual orders hold no repeat).
  // Each key passed over is noted in `near_misses` (may be null).
  void Locate(std::span<const JsonMember> members, std::string& scratch,
              KeyNearMisses* near_misses) {
    if (LocateUsual(members)) return;
    CheckUniqueKeys(members, "in the event");
    for (const JsonMember& m : members) {
      const std::string_view key = ReadString(m.key, scratch);
      if (!Set(key, &m.value) && near_misses) near_misses->Note(key);
    }
  }

  // Points the field named `key` at `value`; false when no field has that
  // name (a key the decoder passes over).
  bool Set(std::string_view key, const JsonView* value) {
    const JsonView** field = nullptr;
    switch (key.size()) {
      case 1: if (Equals(key, "t")) field = &t; break;
      case 4:
        if (Equals(key, "type")) field = &type;
        else if (Equals(key, "hint")) field = &hint;
        else if (Equals(key, "ttft")) field = &ttft;
        break;
      case 5:
        if (Equals(key, "speed")) field = &speed;
        else if (Equals(key, "route")) field = &route;
        break;
      case 6:
        if (Equals(key, "weight")) field = &weight;
        else if (Equals(key, "qps_1m")) field = &qps_1m;
        break;
      case 7: if (Equals(key, "request")) field = &request; break;
      case 8:
        if (Equals(key, "instance")) field = &instance;
        else if (Equals(key, "inflight")) field = &inflight;
        else if (Equals(key, "duration")) field = &duration;
        break;
      case 12:
        if (Equals(key, "input_tokens")) field = &input_tokens;
        else if (Equals(key, "proxy_choice")) field = &proxy_choice;
        break;
      case 13:
        if (Equals(key, "prefix_blocks")) field = &prefix_blocks;
        else if (Equals(key, "output_tokens")) field = &output_tokens;
        break;
      case 16: if (Equals(key, "knowledge_tokens")) field = &knowledge_tokens; break;
      default: break;
    }
    if (!field) return false;
    *field = value;
    return true;
  }

 private:
  // Whether member `i` exists and its key is exactly `word`, unescaped.
  template <std::size_t N>
  static bool KeyIs(std::span<const JsonMember> members, std::size_t i, const char (&word)[N]) {
    if (i >= members.size()) return false;
    const JsonView& key = members[i].key;
    return !key.escaped && key.text.size() == N + 1 && Equals(key.text.substr(1), word);
  }

  // The usual orders: t, type, then duration (an arrival), or instance
  // followed by inflight and qps_1m or the first of them (the other
  // types), or nothing more. False, with nothing set, for any other.
  bool LocateUsual(std::span<const JsonMember> m) {
    if (!KeyIs(m, 0, "t") || !KeyIs(m, 1, "type")) return false;
    std::size_t n = 2;
    const JsonView* found_duration = nullptr;
    const JsonView* found_instance = nullptr;
    const JsonView* found_inflight = nullptr;
    const JsonView* found_qps_1m = nullptr;
    if (KeyIs(m, n, "duration")) {
      found_duration = &m[n++].value;
    } else if (KeyIs(m, n, "instance")) {
      found_instance = &m[n++].value;
      if (KeyIs(m, n, "inflight")) found_inflight = &m[n++].value;
      if (KeyIs(m, n, "qps_1m")) found_qps_1m = &m[n++].value;
    }
    if (n != m.size()) return false;
    t = &m[0].value;
    type = &m[1].value;
    duration = found_duration;
    instance = found_instance;
    inflight = found_inflight;
    qps_1m = found_qps_1m;
    return true;
  }
};

// The keys of a header and of its Instance objects. Other keys are
// ignored (forward compatibility), except near misses of these.
const std::vector<std::string>& HeaderKeys() {
  static const std::vector<std::string> keys = {
      "lbsim_trace", "lbsim_gen", "name", "description", "time_unit", "proxy",
      "proxy_strategy", "python", "prefix_block_tokens", "instances", "events"};
  return keys;
}
const std::vector<std::string>& HeaderInstanceKeys() {
  static const std::vector<std::string> keys = {"id", "weight", "inflight", "qps_1m", "speed",
                                                "alive"};
  return keys;
}

// Refuses a key of `members` that is none of `known` but one or two edits
// from one of them (DidYouMean): a misspelt key would be ignored and its
// value silently lost ("instance" for "instances": a run with no Instances).
void CheckNearMisses(std::span<const JsonMember> members, const std::vector<std::string>& known,
                     std::string_view what) {
  std::string text;
  for (const JsonMember& m : members) {
    const std::string_view key = ReadString(m.key, text);
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    if (std::optional<std::string> guess = DidYouMean(key, known))
      throw FieldError(fmt::format(
          "field {}: not {}; did you mean \"{}\"? (unknown keys are ignored, but not one this "
          "close to a known key)",
          Show(m.key), what, *guess));
  }
}

}  // namespace

const std::vector<std::string>& EventKeyNames() {
  static const std::vector<std::string> keys = {
      "t", "type", "hint", "ttft", "speed", "route", "weight", "qps_1m", "request", "instance",
      "inflight", "duration", "input_tokens", "prefix_blocks", "output_tokens",
      "knowledge_tokens", "proxy_choice"};
  return keys;
}

bool IsEventKey(std::string_view key) {
  EventFields fields;
  return fields.Set(key, nullptr);
}

TraceHeader DecodeHeader(const JsonView& header, bool document) {
  std::string scratch, text;
  if (!header.is_object())
    throw FieldError(fmt::format("expected the header object, got {}", Show(header)));
  {
    std::vector<JsonMember> members;
    JsonObjectReader reader(header);
    for (JsonMember m; reader.Next(m);) members.push_back(m);
    CheckUniqueKeys(members, "");
    CheckNearMisses(members, HeaderKeys(), "a header key");
  }
  std::optional<JsonView> version = Member(header, "lbsim_trace", scratch);
  if (!version || !version->is_number() || !ReadNumber(version->text).integral())
    Fail("lbsim_trace", "the integer 1 (trace format version)", Get(version));
  JsonNumber v = ReadNumber(version->text);
  std::int64_t number = v.type == JsonNumber::Type::kUnsigned
                            ? static_cast<std::int64_t>(v.unsigned_value)
                            : v.signed_value;
  if (number != 1)
    throw FieldError(fmt::format(
        "field \"lbsim_trace\": unsupported trace format version {}; this "
        "lbsim reads version 1",
        Show(*version)));
  if (!document && Member(header, "events", scratch))
    throw FieldError(
        "field \"events\": not allowed in a JSON Lines header (events follow "
        "it one per line)");

  TraceHeader h;
  if (std::optional<JsonView> v = Member(header, "name", scratch)) {
    if (!v->is_string()) Fail("name", "a string", &*v);
    h.name = ReadString(*v, text);
  }
  if (std::optional<JsonView> v = Member(header, "description", scratch)) {
    if (!v->is_string()) Fail("description", "a string", &*v);
    h.description = ReadString(*v, text);
  }
  if (std::optional<JsonView> v = Member(header, "time_unit", scratch)) {
    std::string_view unit = v->is_string() ? ReadString(*v, text) : "";
    if (unit != "s" && unit != "ms") Fail("time_unit", "\"s\" or \"ms\"", &*v);
    h.time_unit = unit;
  }
  if (std::optional<JsonView> v = Member(header, "proxy", scratch)) {
    h.proxy = v->is_string() ? FindProxyProfile(ReadString(*v, text)) : nullptr;
    if (!h.proxy)
      Fail("proxy", fmt::format("a Proxy profile: one of {}", ProxyProfileNames()), &*v);
  }
  if (std::optional<JsonView> v = Member(header, "python", scratch)) {
    h.python = v->is_string() ? ParsePythonVersion(ReadString(*v, text)) : std::nullopt;
    if (!h.python) Fail("python", "\"3.11\" or \"3.12\" (the Proxy's interpreter)", &*v);
  }
  if (std::optional<JsonView> v = Member(header, "proxy_strategy", scratch)) {
    if (!v->is_string() || v->text.size() == 2)
      Fail("proxy_strategy", "a non-empty string (the strategy the recorded Proxy ran)", &*v);
    h.proxy_strategy = ReadString(*v, text);
    if (h.proxy_strategy.size() > kMaxIdBytes)
      Fail("proxy_strategy", fmt::format("at most {} bytes", kMaxIdBytes), &*v);
  }
  if (std::optional<JsonView> v = Member(header, "prefix_block_tokens", scratch)) {
    const JsonNumber n = v->is_number() ? ReadNumber(v->text) : JsonNumber{JsonNumber::Type::kFloat};
    if (n.type != JsonNumber::Type::kUnsigned || n.unsigned_value < 1 ||
        n.unsigned_value > kMaxPrefixBlockTokens)
      Fail("prefix_block_tokens",
           "an integer from 1 to 2^32 (prompt tokens per prefix_blocks id)", &*v);
    h.prefix_block_tokens = n.unsigned_value;
  }
  if (std::optional<JsonView> v = Member(header, "instances", scratch)) {
    if (!v->is_array()) Fail("instances", "an array of Instance objects", &*v);
    std::size_t count = 0;
    JsonArrayReader counter(*v);
    for (JsonView item; counter.Next(item);) ++count;
    if (count > kMaxInstances)
      Fail("instances", fmt::format("at most {} Instances (the limit)", kMaxInstances), &*v);
    std::unordered_set<std::string> seen;
    JsonArrayReader items(*v);
    std::size_t i = 0;
    for (JsonView item; items.Next(item); ++i) {
      try {
        if (!item.is_object())
          throw FieldError(fmt::format("expected an Instance object, got {}", Show(item)));
        {
          std::vector<JsonMember> members;
          JsonObjectReader reader(item);
          for (JsonMember m; reader.Next(m);) members.push_back(m);
          CheckNearMisses(members, HeaderInstanceKeys(), "a key of a header Instance");
        }
        HeaderInstance inst;
        std::optional<JsonView> id = Member(item, "id", scratch);
        inst.id = InstanceId(Get(id), "id", text);
        if (!seen.insert(inst.id).second)
          throw FieldError(fmt::format(
              "field \"id\": expected a unique Instance id, got {} again", Show(*id)));
        if (std::optional<JsonView> w = Member(item, "weight", scratch)) inst.weight = Weight(*w);
        inst.inflight = Inflight(Get(Member(item, "inflight", scratch))).AsOptional();
        inst.qps_1m = Qps(Get(Member(item, "qps_1m", scratch))).AsOptional();
        if (std::optional<JsonView> speed = Member(item, "speed", scratch)) inst.speed = Speed(*speed);
        if (std::optional<JsonView> a = Member(item, "alive", scratch)) {
          if (!a->is_bool()) Fail("alive", "true or false", &*a);
          inst.alive = a->kind == JsonKind::kTrue;
        }
        h.instances.push_back(std::move(inst));
      } catch (const FieldError& e) {
        throw FieldError(fmt::format("instances[{}]: {}", i, e.what()));
      }
    }
  }
  return h;
}

namespace {

// The last check of every event: it runs after all field checks, so that an
// event with several problems is reported for the same one as ever.
void CheckTimeOrder(const TraceTime& t, double not_before) {
  if (t.value < not_before)
    throw FieldError(fmt::format(
        "field \"t\": expected a time >= {} (events must be in non-decreasing t), got {}",
        not_before, t.value));
}

}  // namespace

void EventDecoder::DecodeHint(const JsonView& hint, const InstanceTable& table, Hint& out) {
  out.queues.clear();
  out.any_overflow = false;
  ++hints_;
  // One walk over the hint's text: hint.queue_depths.per_instance[<id>]
  // [<key>]; for a repeated key the last one counts, as in Python's dict.
  JsonWalker w(hint.text);
  if (!w.EnterObject()) return;
  for (JsonView key; w.NextKey(key);) {
    if (ReadString(key, key_) != "queue_depths") {
      w.Skip();
      continue;
    }
    out.queues.clear();  // a later "queue_depths" replaces an earlier one
    if (!w.EnterObject()) {
      w.Skip();
      continue;
    }
    for (JsonView inner; w.NextKey(inner);) {
      if (ReadString(inner, key_) != "per_instance") {
        w.Skip();
        continue;
      }
      out.queues.clear();
      ++hints_;  // a fresh map: earlier entries are gone
      if (!w.EnterObject()) {
        w.Skip();
        continue;
      }
      for (JsonView id; w.NextKey(id);) DecodeQueueEntry(id, w, table, out);
    }
  }
  for (const Hint::Entry& e : out.queues)
    for (bool overflow : e.load.overflow) out.any_overflow = out.any_overflow || overflow;
}

void EventDecoder::DecodeQueueEntry(const JsonView& id, JsonWalker& w, const InstanceTable& table,
                                    Hint& out) {
  // Hints name the same Instances in the same order, map after map: the
  // k-th entry is first looked for where the last map had it, which spares
  // hashing its id.
  const std::size_t k = out.queues.size();
  const std::string_view name = ReadString(id, instance_);
  std::optional<InstanceIndex> index;
  if (k < last_ids_.size() && last_ids_[k] < table.size() && table.Id(last_ids_[k]) == name)
    index = last_ids_[k];
  else
    index = table.Find(name);
  if (index) {
    if (last_ids_.size() <= k) last_ids_.resize(k + 1);
    last_ids_[k] = *index;
  }
  if (!index) {  // never registered: cannot be a candidate
    w.Skip();
    return;
  }
  if (entry_hint_.size() <= *index) {
    entry_hint_.resize(*index + 1, 0);
    entry_slot_.resize(*index + 1, 0);
  }
  if (entry_hint_[*index] == hints_) {
    // A later entry for the same id replaces an earlier one.
    out.queues.erase(out.queues.begin() + entry_slot_[*index]);
    entry_hint_[*index] = 0;
    for (std::size_t k = 0; k < out.queues.size(); ++k)
      entry_slot_[out.queues[k].instance] = static_cast<std::uint32_t>(k);
  }
  if (!w.EnterObject()) {
    w.Skip();
    return;
  }
  Hint::Entry entry{*index, {}};
  for (JsonView field; w.NextKey(field);) {
    const std::size_t i = QueueFieldIndex(ReadString(field, key_));
    if (i == kQueueFields.size() || (w.Kind() == JsonKind::kObject || w.Kind() == JsonKind::kArray)) {
      if (i < kQueueFields.size()) {  // not a number, even to float()
        entry.load.known[i] = entry.load.overflow[i] = false;
        entry.load.value[i] = 0.0;
      }
      w.Skip();
      continue;
    }
    const JsonView value = w.TakeValue();
    entry.load.known[i] = entry.load.overflow[i] = false;
    entry.load.value[i] = 0.0;
    if (hint_reading_.python_float) {
      ReadPythonQueueValue(value, hint_reading_.python, entry.load, i, text_);
    } else if (value.is_number()) {
      entry.load.known[i] = true;
      entry.load.value[i] = ReadNumber(value.text).AsDouble();
    }
  }
  entry_hint_[*index] = hints_;
  entry_slot_[*index] = static_cast<std::uint32_t>(out.queues.size());
  out.queues.push_back(entry);
}

void EventDecoder::Decode(const JsonView& value, std::span<const JsonMember> members,
                          InstanceTable& table, TraceEvent& e, bool raw_hint,
                          double not_before) {
  if (!value.is_object())
    throw FieldError(fmt::format("expected an event object, got {}", Show(value)));
  EventFields f;
  f.Locate(members, key_, near_misses_);

  e.t = Time(f.t);

  constexpr std::string_view kTypes = "one of up, down, remove, load, arrival";
  if (!f.type || !f.type->is_string()) Fail("type", kTypes, f.type);
  std::optional<EventType> type = TypeNamed(ReadString(*f.type, text_));
  if (!type) Fail("type", kTypes, f.type);
  e.type = *type;

  e.ClearFields();

  if (e.type == EventType::kArrival) {
    if (f.request) {
      if (!f.request->is_string()) Fail("request", "a string (request id)", f.request);
      e.request = ReadString(*f.request, request_);
      if (e.request->size() > kMaxIdBytes)
        Fail("request", fmt::format("a request id of at most {} bytes (the limit)", kMaxIdBytes),
             f.request);
    }
    if (f.duration)
      e.duration = NumberAtLeast(*f.duration, "duration", 0.0, false, "a finite number >= 0");
    if (f.hint) {
      DecodeHint(*f.hint, table, e.hint);
      if (raw_hint) e.hint.raw_json = CompactJson(f.hint->text);
    }
    if (f.input_tokens) e.input_tokens = TokenCount(*f.input_tokens, "input_tokens");
    if (f.output_tokens) e.output_tokens = TokenCount(*f.output_tokens, "output_tokens");
    if (f.ttft) {
      e.ttft = NumberAtLeast(*f.ttft, "ttft", 0.0, false, "a finite number >= 0");
      if (e.duration && *e.ttft > *e.duration)
        Fail("ttft", fmt::format("at most the arrival's duration, {}", NumberText(*e.duration)),
             f.ttft);
    }
    if (e.t.integral) {
      if (e.duration) CheckExactEnd(e.t, f.duration, *e.duration, "duration");
      if (e.ttft) CheckExactEnd(e.t, f.ttft, *e.ttft, "ttft");
    }
    if (f.route) e.route = Route(*f.route);
    if (f.knowledge_tokens)
      e.knowledge_tokens = TokenCount(*f.knowledge_tokens, "knowledge_tokens");
    if (f.prefix_blocks) DecodePrefixBlocks(*f.prefix_blocks, e.hint.prefix_blocks);
    if (f.proxy_choice) {
      if (f.proxy_choice->is_null()) {
        e.proxy_choice.state = FieldUpdate<std::string_view>::State::kNull;
      } else {
        if (!f.proxy_choice->is_string() || f.proxy_choice->text.size() == 2)
          Fail("proxy_choice", "an Instance id (a non-empty string) or null", f.proxy_choice);
        e.proxy_choice.value = InstanceId(f.proxy_choice, "proxy_choice", proxy_choice_);
        e.proxy_choice.state = FieldUpdate<std::string_view>::State::kValue;
      }
    }
    CheckTimeOrder(e.t, not_before);
    return;
  }

  e.instance = InstanceId(f.instance, "instance", instance_);
  if (e.type == EventType::kUp) {
    if (f.weight) e.weight = Weight(*f.weight);
    if (f.speed) e.speed = Speed(*f.speed);
  }
  if (e.type == EventType::kUp || e.type == EventType::kLoad) {
    e.inflight = Inflight(f.inflight);
    e.qps_1m = Qps(f.qps_1m);
  }
  // Validate every field, then the time order, before registering anything.
  e.index = table.Find(e.instance);
  const bool registers = e.type == EventType::kUp && !e.index;
  if (registers && table.size() >= kMaxInstances)
    throw FieldError(fmt::format(
        "field \"instance\": expected at most {} distinct Instance ids in a trace (the "
        "limit), got a new one, {}",
        kMaxInstances, Show(*f.instance)));
  CheckTimeOrder(e.t, not_before);
  if (registers) e.index = table.Intern(e.instance);
}

}  // namespace lbsim
