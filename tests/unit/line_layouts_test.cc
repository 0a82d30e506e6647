// LineLayouts is a shortcut past the JSON scan and EventDecoder: whenever it
// reads a line, the general path must accept the same line and decode the
// same event; it must refuse every line the general path rejects; and it
// must read the common event lines, or it saves nothing. Checked on
// hand-picked lines and on many random lines in learned layouts.

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "event_line_decoding.h"
#include "traces/event_decoder.h"
#include "base/json/json_scanner.h"
#include "traces/layout_text.h"
#include "traces/line_layouts.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// Decodes `text` the general way into `event`, reading hints by `reading`;
// false when it is rejected.
bool DecodeGenerally(const std::string& text, InstanceTable& table, double not_before,
                     TraceEvent& event, HintReading reading = {}) {
  return DecodeEventLine(std::string_view(text.c_str(), text.size()), table, not_before, event,
                         reading);
}


// Learns the layout of `text`, a valid event line, as JsonScanner shows it.
void LearnFrom(LineLayouts& layouts, const std::string& text, InstanceTable& table) {
  const std::string_view line(text.c_str(), text.size());
  TraceEvent event;
  REQUIRE(DecodeGenerally(text, table, 0.0, event));
  JsonScanner scanner;
  JsonView value;
  REQUIRE(scanner.ScanText(line, value) == JsonScanner::Status::kOk);
  layouts.Learn(line, scanner.members());
}

// Learns the two usual layouts: a spaced arrival with a duration and a
// spaced load with inflight and qps_1m.
void LearnUsualLayouts(LineLayouts& layouts, InstanceTable& table) {
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 44})", table);
  LearnFrom(layouts, R"({"t": 7, "type": "load", "instance": "inst-1", "inflight": 2, "qps_1m": 9})",
            table);
}

// Reads `text` as a line in a reader's buffer, into an event Read did not
// last set: its '\n' and the next line follow it. A line read must end at
// that '\n'. The buffer lives until the next call: the event's instance is
// a view into it.
bool Read(LineLayouts& layouts, const std::string& text, const InstanceTable& table,
          TraceEvent& event, double not_before = 0.0) {
  layouts.Forget();
  static std::string buffered;
  buffered = text + "\n{\"t\": 1, \"type\": \"arrival\", \"duration\": 4}\n";
  std::size_t size = ~std::size_t{0};
  const bool read = layouts.Read(buffered, table, not_before, event, size);
  if (read) CHECK(size == text.size());
  return read;
}

void CheckSameEvent(const TraceEvent& a, const TraceEvent& b) {
  CHECK(a.type == b.type);
  CHECK(std::bit_cast<std::uint64_t>(a.t.value) == std::bit_cast<std::uint64_t>(b.t.value));
  CHECK(a.t.integral == b.t.integral);
  CHECK(a.t.integer == b.t.integer);
  CHECK(a.instance == b.instance);
  CHECK(a.index == b.index);
  CHECK(a.weight == b.weight);
  CHECK(a.speed == b.speed);
  CHECK(a.inflight.state == b.inflight.state);
  CHECK(a.inflight.value == b.inflight.value);
  CHECK(a.qps_1m.state == b.qps_1m.state);
  CHECK(std::bit_cast<std::uint64_t>(a.qps_1m.value) ==
        std::bit_cast<std::uint64_t>(b.qps_1m.value));
  CHECK(a.request == b.request);
  CHECK(a.duration.has_value() == b.duration.has_value());
  if (a.duration && b.duration)
    CHECK(std::bit_cast<std::uint64_t>(*a.duration) == std::bit_cast<std::uint64_t>(*b.duration));
  CHECK(a.input_tokens == b.input_tokens);
  CHECK(a.output_tokens == b.output_tokens);
  REQUIRE(a.hint.queues.size() == b.hint.queues.size());
  for (std::size_t k = 0; k < a.hint.queues.size(); ++k) {
    const Hint::Entry &x = a.hint.queues[k], &y = b.hint.queues[k];
    CHECK(x.instance == y.instance);
    CHECK(x.load.known == y.load.known);
    CHECK(x.load.overflow == y.load.overflow);
    for (std::size_t i = 0; i < kQueueFields.size(); ++i)
      CHECK(std::bit_cast<std::uint64_t>(x.load.value[i]) ==
            std::bit_cast<std::uint64_t>(y.load.value[i]));
  }
  CHECK(a.hint.any_overflow == b.hint.any_overflow);
  CHECK(a.hint.prefix_blocks == b.hint.prefix_blocks);
  CHECK(a.hint.raw_json.empty());
}

// Reads `text` both ways and checks that the layouts read it exactly when
// the decoder accepts it and it is `plain` (one the layouts must read),
// and then as the decoder does. Whether the layouts read it.
bool ReadsAsDecoder(LineLayouts& layouts, const std::string& text, InstanceTable& table,
                    bool plain) {
  INFO(text);
  TraceEvent expected, got;
  const bool accepted = DecodeGenerally(text, table, 0.0, expected);
  const bool fast = Read(layouts, text, table, got);
  CHECK(fast == (accepted && plain));
  if (fast && accepted) {
    CheckSameEvent(got, expected);
    REQUIRE(DecodeGenerally(text, table, 0.0, expected, kPythonFloatReading));
    CheckSameEvent(got, expected);
  }
  return fast;
}

// Reads `text`, which the decoder accepts, both ways: the layouts must read
// it, as the decoder does. The event read.
TraceEvent CheckReadAsDecoder(LineLayouts& layouts, const std::string& text,
                              InstanceTable& table) {
  INFO(text);
  TraceEvent expected, got;
  REQUIRE(DecodeGenerally(text, table, 0.0, expected));
  REQUIRE(Read(layouts, text, table, got));
  CheckSameEvent(got, expected);
  REQUIRE(DecodeGenerally(text, table, 0.0, expected, kPythonFloatReading));
  CheckSameEvent(got, expected);
  return got;
}

// Checks that the decoder refuses `text` and that the layouts do too.
void CheckRefusedBothWays(LineLayouts& layouts, const std::string& text, InstanceTable& table) {
  INFO(text);
  TraceEvent event;
  CHECK_FALSE(DecodeGenerally(text, table, 0.0, event));
  CHECK_FALSE(Read(layouts, text, table, event));
}

InstanceTable TwoInstances() {
  InstanceTable table;
  table.Intern("inst-1");
  table.Intern("b");
  return table;
}

// An object of `n` keys "k0", "k1", ..., each holding its number.
std::string Keys(std::size_t n) {
  std::string text = "{";
  for (std::size_t i = 0; i < n; ++i)
    text += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
  return text + "}";
}

// `depth` levels of `open` ... `close` (objects each under a key "a").
std::string Nested(std::size_t depth, const std::string& open, const std::string& close) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += open == "{" && i + 1 < depth ? "{\"a\": " : open;
  for (std::size_t i = 0; i < depth; ++i) text += close;
  return text;
}

TEST_CASE("LineLayouts reads lines laid out like a learned one, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  TraceEvent event;
  CHECK_FALSE(Read(layouts, R"({"t": 1, "type": "arrival", "duration": 4})", table, event));

  LearnUsualLayouts(layouts, table);
  LearnFrom(layouts, R"({"type":"arrival","t":3})", table);
  LearnFrom(layouts, R"({"qps_1m": 1.5, "instance": "b", "t": 2, "type": "load"})", table);
  CHECK(layouts.size() == 4);
  // The same layout again adds nothing.
  LearnFrom(layouts, R"({"t": 5, "type": "arrival", "duration": 1})", table);
  CHECK(layouts.size() == 4);

  for (const std::string& text : std::vector<std::string>{
           R"({"t": 12, "type": "arrival", "duration": 0.25})",
           R"({"t": 12.5, "type": "arrival", "duration": 0})",
           R"({"t": 0.001, "type": "arrival", "duration": 123456789012345})",
           R"({"t": 99, "type": "load", "instance": "b", "inflight": 0, "qps_1m": 0.0})",
           R"({"t": 99, "type": "load", "instance": "never-up", "inflight": 3, "qps_1m": 7})",
           R"({"type":"arrival","t":4.75})",
           R"({"qps_1m": 0.1, "instance": "inst-1", "t": 20, "type": "load"})",
       }) {
    INFO(text);
    TraceEvent expected, got;
    REQUIRE(DecodeGenerally(text, table, 0.0, expected));
    got.hint.prefix_blocks = {1, 2};  // left from an earlier event: cleared
    got.request = "stale";
    REQUIRE(Read(layouts, text, table, got));
    CheckSameEvent(got, expected);
  }
}

TEST_CASE("LineLayouts leaves every other line to the general path, or reads it by its punctuation") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnUsualLayouts(layouts, table);
  TraceEvent event;
  event.t.value = -1.0;
  for (const std::string& text : std::vector<std::string>{
           // Laid out otherwise, and punctuated otherwise too; another type.
           R"({"t": 1, "type": "arrival", "duration":44})",
           R"({"t": 1, "type": "arrival", "duration": 44} )",
           R"({"t": 1,"type": "arrival", "duration": 44})",
           R"({"t": 1, "type": "up", "duration": 44})",
           // Values a slot does not take, valid or not.
           R"({"t": 1e3, "type": "arrival", "duration": 44})",
           R"({"t": 1E3, "type": "arrival", "duration": 44})",
           R"({"t": -0, "type": "arrival", "duration": 44})",
           R"({"t": -1, "type": "arrival", "duration": 44})",
           R"({"t": 01, "type": "arrival", "duration": 44})",
           R"({"t": 1., "type": "arrival", "duration": 44})",
           R"({"t": .5, "type": "arrival", "duration": 44})",
           R"({"t": 1.5.5, "type": "arrival", "duration": 44})",
           R"({"t": 1234567890123456, "type": "arrival", "duration": 44})",
           R"({"t": null, "type": "arrival", "duration": 44})",
           R"({"t": "1", "type": "arrival", "duration": 44})",
           R"({"t": 1, "type": "arrival", "duration": null})",
           R"({"t": 1, "type": "arrival", "duration": })",
           R"({"t": 7, "type": "load", "instance": "", "inflight": 2, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "a\"b", "inflight": 2, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "a\u0041", "inflight": 2, "qps_1m": 9})",
           "{\"t\": 7, \"type\": \"load\", \"instance\": \"caf\xC3\xA9\", \"inflight\": 2, \"qps_1m\": 9}",
           "{\"t\": 7, \"type\": \"load\", \"instance\": \"a\tb\", \"inflight\": 2, \"qps_1m\": 9}",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": 2.5, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": 2.0, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": nul, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": nulll, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": Null, "qps_1m": 9})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": 2, "qps_1m": nul})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": 2, "qps_1m": null )",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": 2, "qps_1m": nan})",
           R"({"t": 7, "type": "load", "instance": "b", "inflight": 2, "qps_1m": -9})",
           R"({"t": 7, "type": "load", "instance": "b)",
           R"({"t": 1, "type": "arrival", "duration": 4)",
           R"({"t": 1, "type": "arrival", "duration": 44}})",
           "",
       }) {
    INFO(text);
    CHECK_FALSE(Read(layouts, text, table, event));
  }
  CHECK(event.t.value == -1.0);  // left alone
  // Laid out otherwise but punctuated as the last layout learned: key
  // order, a key more or less. Read by their punctuation, as the decoder
  // reads them (and learned).
  for (const std::string& text : std::vector<std::string>{
           R"({"type": "arrival", "t": 1, "duration": 44})",
           R"({"t": 1, "type": "arrival"})",
           R"({"t": 1, "type": "arrival", "duration": 44, "request": "r"})",
           R"({"t": 1, "type": "load", "instance": "b", "inflight": 2})",
       }) {
    CheckReadAsDecoder(layouts, text, table);
  }
  // A time before the last event's is the general path's to report.
  CHECK_FALSE(Read(layouts, R"({"t": 4, "type": "arrival", "duration": 44})", table, event, 5.0));
  CHECK(Read(layouts, R"({"t": 5, "type": "arrival", "duration": 44})", table, event, 5.0));
}

TEST_CASE("LineLayouts reads a line only up to a '\\n' it was given") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnUsualLayouts(layouts, table);
  LearnFrom(layouts, "{\"type\":\"arrival\",\"t\":3}\r", table);
  TraceEvent event;
  std::size_t size = 0;
  const std::string arrival = R"({"t": 1, "type": "arrival", "duration": 4})";
  // Its '\n' not (yet) in the buffer: the line may go on.
  CHECK_FALSE(layouts.Read(arrival, table, 0.0, event, size));
  CHECK_FALSE(layouts.Read(arrival.substr(0, arrival.size() - 1), table, 0.0, event, size));
  // Whatever follows the '\n' is not read.
  REQUIRE(layouts.Read(arrival + "\n}\n", table, 0.0, event, size));
  CHECK(size == arrival.size());
  CHECK(*event.duration == 4.0);
  // The line ends at its first '\n', which no slot takes.
  CHECK_FALSE(layouts.Read(R"({"t": 1, "type": "arrival", "duration": 4)" "\n}\n", table, 0.0,
                           event, size));
  CHECK_FALSE(layouts.Read(R"({"t": 7, "type": "load", "instance": "a)" "\n" R"(b", )"
                           R"("inflight": 2, "qps_1m": 9})" "\n",
                           table, 0.0, event, size));
  // A '\r' before the '\n' is part of the line, as the general path sees it.
  CHECK_FALSE(layouts.Read(arrival + "\r\n", table, 0.0, event, size));
  const std::string carriage = "{\"type\":\"arrival\",\"t\":8}\r";
  REQUIRE(layouts.Read(carriage + "\n", table, 0.0, event, size));
  CHECK(size == carriage.size());
  CHECK(event.t.value == 8.0);
}

// A Proxy's load snapshot may give inflight or qps_1m as null (unknown):
// the same layout, its slot holding null.
TEST_CASE("LineLayouts reads a load's null inflight and qps_1m, as the decoder does") {
  InstanceTable table = TwoInstances();
  for (const bool learned_null : {false, true}) {
    CAPTURE(learned_null);
    LineLayouts layouts;
    LearnFrom(layouts,
              learned_null
                  ? R"({"t": 7, "type": "load", "instance": "b", "inflight": null, "qps_1m": null})"
                  : R"({"t": 7, "type": "load", "instance": "b", "inflight": 2, "qps_1m": 9})",
              table);
    REQUIRE(layouts.size() == 1);
    for (const std::string& text : std::vector<std::string>{
             R"({"t": 8, "type": "load", "instance": "inst-1", "inflight": null, "qps_1m": 9.5})",
             R"({"t": 8, "type": "load", "instance": "b", "inflight": 3, "qps_1m": null})",
             R"({"t": 8, "type": "load", "instance": "b", "inflight": null, "qps_1m": null})",
             R"({"t": 8, "type": "load", "instance": "b", "inflight": 0, "qps_1m": 0})",
         }) {
      CHECK(ReadsAsDecoder(layouts, text, table, true));
    }
    TraceEvent event;
    REQUIRE(Read(layouts, R"({"t": 8, "type": "load", "instance": "b", "inflight": null, "qps_1m": null})",
                 table, event));
    CHECK(event.inflight.state == FieldUpdate<std::int64_t>::State::kNull);
    CHECK(event.qps_1m.state == FieldUpdate<double>::State::kNull);
    // null is a load's to give: an arrival's duration or a time takes none.
    CHECK_FALSE(Read(layouts, R"({"t": null, "type": "load", "instance": "b", "inflight": 1, "qps_1m": 1})",
                     table, event));
  }
}

TEST_CASE("LineLayouts reads line after line into one event as into fresh ones") {
  // A reader reuses one event: an arrival read after an arrival only
  // changes what differs, and every other mix clears what the last left.
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnUsualLayouts(layouts, table);
  LearnFrom(layouts, R"({"t": 0, "type": "arrival"})", table);
  const std::vector<std::string> lines = {
      R"({"t": 1, "type": "arrival", "duration": 44})",
      R"({"t": 2, "type": "arrival", "duration": 0.5})",
      R"({"t": 3, "type": "arrival"})",
      R"({"t": 4, "type": "arrival", "duration": 7})",
      R"({"t": 5, "type": "load", "instance": "b", "inflight": 2, "qps_1m": 9})",
      R"({"t": 6, "type": "arrival"})",
      R"({"t": 7, "type": "arrival", "duration": 1})",
      R"({"t": 8, "type": "load", "instance": "inst-1", "inflight": 0, "qps_1m": 1})",
      R"({"t": 9, "type": "load", "instance": "b", "inflight": 5, "qps_1m": 2})",
      R"({"t": 10, "type": "arrival", "duration": 3})",
  };
  TraceEvent reused;
  // Reads `in_turn` one after another from one buffer into `reused`.
  auto read_in_turn = [&](const std::vector<std::string>& in_turn) {
    std::string buffered;
    for (const std::string& line : in_turn) buffered += line + "\n";
    std::size_t at = 0;
    for (const std::string& line : in_turn) {
      INFO(line);
      std::size_t size = 0;
      REQUIRE(layouts.Read(std::string_view(buffered).substr(at), table, 0.0, reused, size));
      at += size + 1;
      TraceEvent expected;
      REQUIRE(DecodeGenerally(line, table, 0.0, expected));
      CheckSameEvent(reused, expected);
    }
  };
  read_in_turn(lines);
  // A hinted arrival, then arrivals without: the queues go with the hint.
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 1, "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 1}}}}})", table);
  const std::vector<std::string> hinted = {
      R"({"t": 11, "type": "arrival", "duration": 2, "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 4}}}}})",
      R"({"t": 12, "type": "arrival", "duration": 3})",
      R"({"t": 13, "type": "arrival", "duration": 2, "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 0.5}}}}})",
      R"({"t": 14, "type": "load", "instance": "b", "inflight": 2, "qps_1m": 9})",
      R"({"t": 15, "type": "arrival", "duration": 2, "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 7}}}}})",
      R"({"t": 16, "type": "arrival", "duration": 2, "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 8}}}}})",
      R"({"t": 17, "type": "arrival", "duration": 5})",
  };
  read_in_turn(hinted);
  // Changed by another hand (the general path): Forget, and all is cleared.
  reused.request = "r";
  reused.hint.prefix_blocks = {1};
  layouts.Forget();
  std::size_t size = 0;
  const std::string next = R"({"t": 11, "type": "arrival", "duration": 4})";
  REQUIRE(layouts.Read(next + "\n", table, 0.0, reused, size));
  TraceEvent expected;
  REQUIRE(DecodeGenerally(next, table, 0.0, expected));
  CheckSameEvent(reused, expected);
}

TEST_CASE("LineLayouts leaves a line longer than kMaxBytes to the general path") {
  // Learned from a line of exactly kMaxBytes (mostly spaces); the same
  // layout with a longer id is one byte over, and the general path's.
  // So is a document's element.
  InstanceTable table = TwoInstances();
  LineLayouts layouts, elements(true, false);
  const std::string head = R"({"t": 7, "type": "load", "instance": ")";
  const std::string tail = R"(", "inflight": 2})";
  std::string line = head + "b" + tail;
  line.insert(1, LineLayouts::kMaxBytes - line.size(), ' ');
  REQUIRE(line.size() == LineLayouts::kMaxBytes);
  LearnFrom(layouts, line, table);
  LearnFrom(elements, line, table);
  REQUIRE(layouts.size() == 1);
  TraceEvent event;
  std::size_t size = 0;
  CHECK(layouts.Read(line + "\n", table, 0.0, event, size));
  CHECK(size == LineLayouts::kMaxBytes);
  CHECK(elements.Validate(line + ",") == LineLayouts::kMaxBytes);
  line.replace(line.size() - tail.size() - 1, 1, "bb");
  CHECK_FALSE(layouts.Read(line + "\n", table, 0.0, event, size));
  CHECK(elements.Validate(line + ",") == 0);
  CHECK(DecodeGenerally(line, table, 0.0, event));
}

TEST_CASE("LineLayouts leaves a line of more values than the scanner takes to the general path") {
  // An arrival of 4 values and an array of n more: one past the scanner's
  // limit is refused by the general path, and so never read by layout.
  // So is such an element of a document.
  InstanceTable table = TwoInstances();
  LineLayouts layouts, elements(true, false);
  const auto arrival = [](std::size_t n) {
    std::string ones;
    for (std::size_t i = 0; i < n; ++i) ones += i == 0 ? "1" : ",1";
    return R"({"t": 1, "type": "arrival", "x": [)" + ones + "]}";
  };
  LearnFrom(layouts, arrival(2), table);
  LearnFrom(elements, arrival(2), table);
  REQUIRE(layouts.size() == 1);
  TraceEvent event;
  std::size_t size = 0;
  const std::string most = arrival(kMaxEventValues - 4), over = arrival(kMaxEventValues - 3);
  CHECK(DecodeGenerally(most, table, 0.0, event));
  CHECK_FALSE(DecodeGenerally(over, table, 0.0, event));
  CHECK_FALSE(layouts.Read(over + "\n", table, 0.0, event, size));
  CHECK(elements.Validate(over + ",") == 0);
  // Below kMaxBytes, as many values as fit are read by layout.
  const std::string fits = arrival((LineLayouts::kMaxBytes - arrival(0).size() + 1) / 2);
  REQUIRE(fits.size() <= LineLayouts::kMaxBytes);
  CHECK(ReadsAsDecoder(layouts, fits, table, true));
  CHECK(elements.Validate(fits + ",") == fits.size());
}

TEST_CASE("LineLayouts reads arrivals with request ids, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 0.5, "type": "arrival", "request": "r-1", "duration": 0.25})", table);
  LearnFrom(layouts, R"({"t": 1, "type": "arrival", "request": "x"})", table);
  CHECK(layouts.size() == 2);
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 2.000125, "type": "arrival", "request": "3f1e2c8a-0b4d-4a8e-9c1f-7d2b6e5a4c3b", "duration": 0.5})",
           R"x({"t": 3, "type": "arrival", "request": "~!@#$%^&*()"})x",
       }) {
    INFO(text);
    TraceEvent expected, got;
    REQUIRE(DecodeGenerally(text, table, 0.0, expected));
    got.request = "stale";
    REQUIRE(Read(layouts, text, table, got));
    CheckSameEvent(got, expected);
  }
  // An empty id, a non-string, an id over the limit: the general path's.
  TraceEvent event;
  CHECK_FALSE(Read(layouts, R"({"t": 4, "type": "arrival", "request": ""})", table, event));
  CHECK_FALSE(Read(layouts, R"({"t": 4, "type": "arrival", "request": 5})", table, event));
  const std::string longest(kMaxIdBytes, 'q');
  CHECK(ReadsAsDecoder(layouts, R"({"t": 4, "type": "arrival", "request": ")" + longest + "\"}",
                       table, true));
  CHECK_FALSE(ReadsAsDecoder(
      layouts, R"({"t": 4, "type": "arrival", "request": ")" + longest + "q\"}", table, false));
  // One the decoder takes, at the limit decoded but not as it stands.
  std::string slashes;
  for (std::size_t i = 0; i < kMaxIdBytes; ++i) slashes += "\\/";
  CHECK_FALSE(ReadsAsDecoder(
      layouts, R"({"t": 4, "type": "arrival", "request": ")" + slashes + "\"}", table, false));
  CHECK_FALSE(ReadsAsDecoder(
      layouts, R"({"t": 4, "type": "arrival", "request": "a)" + slashes + "\"}", table, false));
  // Invalid strings stay the general path's to report.
  for (const char* bad : {R"(\x)", R"(\ud800)", R"(\udc00\u0041)", "\x01", "\xC3\x28",
                          "\xED\xA0\x80"})
    CHECK_FALSE(ReadsAsDecoder(
        layouts, R"({"t": 4, "type": "arrival", "request": "a)" + std::string(bad) + "\"}",
        table, false));
  // One arrival read after another: the request of the first does not stay.
  layouts.Forget();
  std::string two = "{\"t\": 5, \"type\": \"arrival\", \"request\": \"first\", \"duration\": 1}\n"
                    "{\"t\": 6, \"type\": \"arrival\", \"duration\": 1}\n";
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 44})", table);
  std::size_t size = 0;
  REQUIRE(layouts.Read(two, table, 0.0, event, size));
  CHECK(event.request == "first");
  REQUIRE(layouts.Read(std::string_view(two).substr(size + 1), table, 0.0, event, size));
  CHECK_FALSE(event.request.has_value());
}

TEST_CASE("LineLayouts reads request ids with escapes and UTF-8, as the decoder does") {
  // As JSON writers write ids that are not plain ASCII: Python escapes
  // quotes, backslashes and (ensure_ascii) every non-ASCII character, PHP
  // and some Java writers escape '/', others leave UTF-8 as it is.
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  // Learned from a line whose id holds escapes, so that a trace whose every
  // id does is read by layout too.
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r\/0", "duration": 0.5})",
            table);
  CHECK(layouts.size() == 1);
  for (const std::string id : {
           R"(r\/1)", R"(\"quoted\" and \\ back)", R"(caf\u00e9)", R"(\u00E9t\u00e9)",
           R"(\ud83d\ude00 smile)", R"(\b\f\n\r\t)", R"(\u0000nul)", R"(\u007f)",
           "caf\xC3\xA9", "\xE2\x82\xAC-\xF0\x9F\x98\x80", "del\x7F", R"(\u002F)",
           "plain-ascii"})
    CheckReadAsDecoder(
        layouts, R"({"t": 1, "type": "arrival", "request": ")" + id + R"(", "duration": 0.25})",
        table);
  // Decoded: the event holds the id's characters, not its escapes.
  TraceEvent event;
  REQUIRE(Read(layouts, R"({"t": 2, "type": "arrival", "request": "a\/b\u00e9\"", "duration": 1})",
               table, event));
  CHECK(event.request == "a/b\xC3\xA9\"");
  // A decoded id does not outlive the next line's: a plain id read after
  // one with escapes is its own, and one without none.
  std::string three = "{\"t\": 5, \"type\": \"arrival\", \"request\": \"x\\/y\", \"duration\": 1}\n"
                      "{\"t\": 6, \"type\": \"arrival\", \"request\": \"z\", \"duration\": 1}\n"
                      "{\"t\": 7, \"type\": \"arrival\", \"duration\": 1}\n";
  layouts.Forget();
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r", "duration": 44})", table);
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 44})", table);
  std::string_view rest = three;
  std::size_t size = 0;
  REQUIRE(layouts.Read(rest, table, 0.0, event, size));
  CHECK(event.request == "x/y");
  rest.remove_prefix(size + 1);
  REQUIRE(layouts.Read(rest, table, 0.0, event, size));
  CHECK(event.request == "z");
  rest.remove_prefix(size + 1);
  REQUIRE(layouts.Read(rest, table, 0.0, event, size));
  CHECK_FALSE(event.request.has_value());
  // An instance is still read as it stands: one with escapes is the
  // general path's (it names a registered Instance).
  LearnUsualLayouts(layouts, table);
  CHECK_FALSE(Read(layouts, R"({"t": 8, "type": "load", "instance": "inst\u002d1", "inflight": 2, "qps_1m": 9})",
                   table, event));
}

TEST_CASE("LineLayouts reads arrivals with token counts, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts,
            R"({"t":0,"type":"arrival","duration":950,"input_tokens":1000,"output_tokens":20})",
            table);
  LearnFrom(layouts, R"({"t": 1, "type": "arrival", "request": "r", "input_tokens": 5})", table);
  CHECK(layouts.size() == 2);
  for (const std::string& text : std::vector<std::string>{
           R"({"t":2.5,"type":"arrival","duration":0.25,"input_tokens":0,"output_tokens":123456789012345})",
           R"({"t": 3, "type": "arrival", "request": "x-1", "input_tokens": 77})",
       }) {
    INFO(text);
    TraceEvent expected, got;
    REQUIRE(DecodeGenerally(text, table, 0.0, expected));
    got.input_tokens = 9;  // left from an earlier event: replaced
    got.output_tokens = 9;
    REQUIRE(Read(layouts, text, table, got));
    CheckSameEvent(got, expected);
  }
  // A fraction, a sign, an exponent or too many digits: the general path's.
  TraceEvent event;
  for (const char* tokens : {"1.5", "-1", "1e3", "1234567890123456", "\"5\"", "null"}) {
    const std::string text =
        std::string(R"({"t": 3, "type": "arrival", "request": "x", "input_tokens": )") + tokens + "}";
    INFO(text);
    CHECK_FALSE(Read(layouts, text, table, event));
  }
  // One arrival read after another: the token counts of the first do not stay.
  layouts.Forget();
  std::string two =
      "{\"t\":5,\"type\":\"arrival\",\"duration\":1,\"input_tokens\":4,\"output_tokens\":2}\n"
      "{\"t\": 6, \"type\": \"arrival\", \"duration\": 1}\n";
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 44})", table);
  std::size_t size = 0;
  REQUIRE(layouts.Read(two, table, 0.0, event, size));
  CHECK(event.input_tokens == 4u);
  CHECK(event.output_tokens == 2u);
  REQUIRE(layouts.Read(std::string_view(two).substr(size + 1), table, 0.0, event, size));
  CHECK_FALSE(event.input_tokens.has_value());
  CHECK_FALSE(event.output_tokens.has_value());
}

TEST_CASE("LineLayouts learns only arrival and load layouts, and keeps the newest eight") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "up", "instance": "b"})",
           R"({"t": 1, "type": "down", "instance": "b"})",
           R"({"t": 1, "type": "arrival", "duration": 4, "hint": 1})",
           R"({"t": 1, "type": "arrival", "request": "r", "prefix_blocks": [-0]})",
           R"({"t": 1, "type": "load", "instance": "b", "prefix_blocks": [1]})",
           R"({"t": 1, "type": "load", "instance": "b", "request": "r"})",
           R"({"t": 1, "type": "load", "instance": "b", "weight": 2})",
           R"({"t": 1, "type": "arrival", "speed": 2})",
           R"({"t": 1, "type": "arrival", "extra": )" + Nested(layout_text::kMaxPassedDepth + 1, "[", "]") + "}",
           R"({"t": 1, "type": "arrival", "extra": {"a": {"\u0041": 1}}})",
           R"({"t": 1, "type": "arrival", "extra": [[1e301]]})",
           R"({"t": 1, "type": "arrival", "extra": {"\u0041": 1}})",
           R"({"t": 1, "type": "arrival", "a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1, "h": 1, "i": 1, "j": 1})",
           R"({"t": 1, "type": "load", "instance": "b", "input_tokens": 2})",
           R"({"t": 1, "type": "arr\u0069val"})",
           R"({"t": 1, "typ\u0065": "arrival"})",
       }) {
    INFO(text);
    LearnFrom(layouts, text, table);
    CHECK(layouts.size() == 0);
  }
  // A line with a repeated key never gets to Learn: the decoder refuses it.
  {
    TraceEvent event;
    CHECK_FALSE(DecodeGenerally(R"({"t": 1, "type": "arrival", "t": 2})", table, 0.0, event));
  }
  // One layout more than are kept, set apart by their spacing.
  static_assert(LineLayouts::kMaxLayouts == 8);
  std::vector<std::string> spaced;
  for (std::size_t n = 0; n <= LineLayouts::kMaxLayouts; ++n)
    spaced.push_back(R"({"t": 1,)" + std::string(n, ' ') + R"("type": "arrival"})");
  TraceEvent event;
  for (const std::string& text : spaced) LearnFrom(layouts, text, table);
  CHECK(layouts.size() == LineLayouts::kMaxLayouts);
  CHECK_FALSE(Read(layouts, spaced[0], table, event));
  for (std::size_t i = 1; i < spaced.size(); ++i) CHECK(Read(layouts, spaced[i], table, event));
  // The next one learned replaces the oldest left.
  LearnFrom(layouts, spaced[0], table);
  CHECK(Read(layouts, spaced[0], table, event));
  CHECK_FALSE(Read(layouts, spaced[1], table, event));
}

TEST_CASE("LineLayouts reads arrivals whose optional keys come and go, each combination by layout") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  // Arrivals with and without a request id and a duration, loads with and
  // without qps_1m, as a trace written by a script that leaves out what it
  // lacks: six layouts, mixed line by line.
  const auto arrival = [](int t, bool request, bool duration) {
    return R"({"t": )" + std::to_string(t) + R"(, "type": "arrival")" +
           (request ? R"(, "request": "req-)" + std::to_string(t) + "\"" : "") +
           (duration ? R"(, "duration": 0.)" + std::to_string(t % 7 + 1) : "") + "}";
  };
  const auto load = [](int t, bool qps) {
    return R"({"t": )" + std::to_string(t) + R"(, "type": "load", "instance": "b", "inflight": )" +
           std::to_string(t % 5) + (qps ? R"(, "qps_1m": 2.5)" : "") + "}";
  };
  std::vector<std::string> lines;
  for (int t = 0; t < 4; ++t) lines.push_back(arrival(t, t & 1, t & 2));
  lines.push_back(load(4, false));
  lines.push_back(load(5, true));
  for (const std::string& text : lines) LearnFrom(layouts, text, table);
  CHECK(layouts.size() == lines.size());
  std::mt19937_64 random(47);
  for (int i = 0; i < 200; ++i) {
    const int kind = static_cast<int>(random() % 6), t = 10 + i;
    CheckReadAsDecoder(layouts, kind < 4 ? arrival(t, kind & 1, kind & 2) : load(t, kind == 5),
                       table);
  }
}

TEST_CASE("IsEventKey names the event keys trace format v1 defines, and no other") {
  for (std::string_view key : {"t", "type", "instance", "weight", "speed", "inflight", "qps_1m",
                               "request", "duration", "hint", "prefix_blocks", "input_tokens",
                               "output_tokens", "ttft", "route", "knowledge_tokens"})
    CHECK_MESSAGE(IsEventKey(key), key);
  for (std::string_view key :
       {"", "model", "T", "types", "hints", "queue_depth", "instances", "ttfts", "routes"})
    CHECK_MESSAGE(!IsEventKey(key), key);
}

// An arrival as lbsim import writes one of a Mooncake trace.
const std::string kImportedArrival =
    R"({"t":0,"type":"arrival","duration":950,"input_tokens":1500,"output_tokens":40,"prefix_blocks":[0,1,2]})";

TEST_CASE("LineLayouts reads an arrival's prefix_blocks as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  // As lbsim import writes a Mooncake trace, and spaced.
  LearnFrom(layouts, kImportedArrival, table);
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 44, "prefix_blocks": [5]})", table);
  REQUIRE(layouts.size() == 2);
  const auto compact = [](const std::string& blocks) {
    return R"({"t":120,"type":"arrival","duration":342.4,"input_tokens":1024,"output_tokens":12,"prefix_blocks":)" +
           blocks + "}";
  };
  const auto spaced = [](const std::string& blocks) {
    return R"({"t": 3, "type": "arrival", "duration": 5, "prefix_blocks": )" + blocks + "}";
  };
  std::string many = "0";
  for (int i = 1; i < 3000; ++i) {
    many += ',';
    many += std::to_string(i * 7919);
  }
  // Any number of ids below 2^64, spaced or not.
  for (const std::string& blocks :
       std::vector<std::string>{"[]", "[ ]", "[0]", "[3,4]", "[7, 8, 9]", "[18446744073709551615]",
                                "[9999999999999999999]", "[ 1 ,2,\t3 ]", "[" + many + "]"}) {
    CHECK(ReadsAsDecoder(layouts, compact(blocks), table, true));
    CHECK(ReadsAsDecoder(layouts, spaced(blocks), table, true));
  }
  // The general path's: -0, which the decoder takes, and what it refuses.
  for (const std::string& blocks : std::vector<std::string>{
           "[-0]", "[-1]", "[1.0]", "[1e3]", "[\"1\"]", "[18446744073709551616]",
           "[99999999999999999999]", "[01]", "[1,]", "[,1]", "[1 2]", "[[1]]", "[null]", "null",
           "{}", "1", "[1", "[1]]"}) {
    CHECK_FALSE(ReadsAsDecoder(layouts, compact(blocks), table, false));
    CHECK_FALSE(ReadsAsDecoder(layouts, spaced(blocks), table, false));
  }
  // Keys in another order, punctuated as the last layout learned: read by
  // the punctuation.
  CheckReadAsDecoder(
      layouts, R"({"t": 121, "type": "arrival", "prefix_blocks": [4, 5], "duration": 1.5})", table);
  // A load with prefix_blocks: the general path's (loads have none).
  TraceEvent load;
  CHECK_FALSE(Read(layouts, R"({"t": 3, "type": "load", "instance": "b", "prefix_blocks": [1]})",
                   table, load));

  // One arrival read after another into the same event: the ids of the
  // first do not stay with the second.
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "duration": 44})", table);
  const std::string two = compact("[1,2,3]") + "\n" + R"({"t": 200, "type": "arrival", "duration": 44})" +
                          "\n" + compact("[]") + "\n" + compact("[9]") + "\n";
  TraceEvent event;
  std::size_t at = 0;
  for (int i = 0; i < 4; ++i) {
    std::size_t size = 0;
    REQUIRE(layouts.Read(std::string_view(two).substr(at), table, 0.0, event, size));
    TraceEvent expected;
    REQUIRE(DecodeGenerally(two.substr(at, size), table, 0.0, expected));
    CheckSameEvent(event, expected);
    at += size + 1;
  }
  CHECK(event.hint.prefix_blocks == std::vector<std::uint64_t>{9});
}

TEST_CASE("LineLayouts agrees with the decoder on random prefix_blocks") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, kImportedArrival, table);
  // Ids and whether a layout takes them as the decoder does; the others
  // the decoder refuses, but -0.
  const std::vector<std::pair<std::string, bool>> ids = {
      {"0", true},   {"7", true},    {"123456", true},       {"18446744073709551615", true},
      {"-0", false}, {"-1", false},  {"1.5", false},        {"2E3", false},
      {"01", false}, {"\"1\"", false}, {"18446744073709551616", false}, {"null", false}};
  const std::vector<std::string> commas = {",", ", ", " ,", "\t,\t"};
  std::mt19937_64 random(29);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string blocks = "[";
    bool plain = true;
    const std::size_t n = random() % 6;
    for (std::size_t k = 0; k < n; ++k) {
      if (k > 0) blocks += commas[random() % commas.size()];
      const auto& [id, takes] = random() % 8 == 0 ? ids[random() % ids.size()] : ids[random() % 4];
      blocks += id;
      plain = plain && takes;
    }
    blocks += "]";
    const std::string text =
        R"({"t":)" + std::to_string(i) +
        R"(,"type":"arrival","duration":950,"input_tokens":1500,"output_tokens":40,"prefix_blocks":)" +
        blocks + "}";
    read += ReadsAsDecoder(layouts, text, table, plain);
  }
  CHECK(read > 10000);
}

TEST_CASE("LineLayouts reads past keys the decoder passes over, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts,
            R"({"t": 0, "type": "arrival", "model": "llama-3-8b", "request": "r-1", "duration": 4, "score": 0.5})",
            table);
  LearnFrom(layouts, R"({"t": 0, "type": "load", "instance": "b", "inflight": 2, "source": "hb"})",
            table);
  REQUIRE(layouts.size() == 2);
  auto check_read = [&](const std::string& text) { CheckReadAsDecoder(layouts, text, table); };
  check_read(R"({"t": 1.5, "type": "arrival", "model": "m", "request": "r-2", "duration": 4, "score": 12})");
  check_read(R"({"t": 2, "type": "arrival", "model": "a b~!", "request": "r-3", "duration": 0.25, "score": 0})");
  check_read(R"({"t": 3, "type": "load", "instance": "inst-1", "inflight": 0, "source": "x"})");
  check_read(R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": -1})");
  check_read(R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": -0.25})");
  check_read(R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": 1764750000.0222933})");
  // A passed-over string may be any JSON string: empty, escaped (as
  // Python's json.dumps writes what is not ASCII), UTF-8, with DEL.
  for (const std::string& model : std::vector<std::string>{"", "\\u0062", "Jos\\u00e9", "\\ud83d\\ude00", "q\\\"q", "a\\\\b", "\\/\\b\\f\\n\\r\\t",
        "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x7F", "long " + std::string(100, 'x')}) {
    check_read(R"({"t": 3, "type": "arrival", "model": ")" + model +
               R"(", "request": "r", "duration": 4, "score": 1})");
  }
  // Values of another kind than the slot's: read by the line's punctuation.
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 3, "type": "arrival", "model": 7, "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": null})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": "1"})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": [1]})",
           R"({"t": 3, "type": "load", "instance": "b", "inflight": 2, "source": true})",
       }) {
    check_read(text);
  }
  // Numbers with exponents, as Python writes floats below 1e-4: read past
  // by the layout or by the punctuation.
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": -1e3})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": 1e-05})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": 2.5E+299})",
           R"({"t": 3, "type": "arrival", "model": 1e-07, "request": "r", "duration": 4, "score": 1})",
       }) {
    check_read(text);
  }
  // Numbers the scanner checks for overflowing a double: the general
  // path's, which accepts these.
  TraceEvent event;
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": -1e301})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": 1e301})",
       }) {
    INFO(text);
    TraceEvent expected;
    CHECK(DecodeGenerally(text, table, 0.0, expected));
    CHECK_FALSE(Read(layouts, text, table, event));
  }
  // Lines the decoder refuses stay refused, whatever the passed-over value.
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": 01})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": -01})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": --1})",
           R"({"t": 3, "type": "arrival", "model": "m", "request": "r", "duration": 4, "score": -})",
           R"({"t": 3, "type": "load", "instance": "b", "inflight": 2.5, "source": "x"})",
           // Strings the scanner refuses.
           R"({"t": 3, "type": "arrival", "model": "\x", "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "\u12", "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "\u12g4", "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "\ud83d", "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "\ud83d\u0041", "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "\ude00", "request": "r", "duration": 4, "score": 1})",
           R"({"t": 3, "type": "arrival", "model": "a\", "request": "r", "duration": 4, "score": 1})",
           "{\"t\": 3, \"type\": \"arrival\", \"model\": \"a\tb\", \"request\": \"r\", \"duration\": 4, \"score\": 1}",
           "{\"t\": 3, \"type\": \"arrival\", \"model\": \"\xC3\", \"request\": \"r\", \"duration\": 4, \"score\": 1}",
           "{\"t\": 3, \"type\": \"arrival\", \"model\": \"\xC0\x80\", \"request\": \"r\", \"duration\": 4, \"score\": 1}",
           "{\"t\": 3, \"type\": \"arrival\", \"model\": \"\xED\xA0\x80\", \"request\": \"r\", \"duration\": 4, \"score\": 1}",
           "{\"t\": 3, \"type\": \"arrival\", \"model\": \"\xF4\x90\x80\x80\", \"request\": \"r\", \"duration\": 4, \"score\": 1}",
           "{\"t\": 3, \"type\": \"arrival\", \"model\": \"\xFF\", \"request\": \"r\", \"duration\": 4, \"score\": 1}",
       }) {
    INFO(text);
    TraceEvent expected;
    CHECK_FALSE(DecodeGenerally(text, table, 0.0, expected));
    CHECK_FALSE(Read(layouts, text, table, event));
  }
}

TEST_CASE("LineLayouts reads past true, false and null of keys the decoder passes over") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r-1", "stream": true, "duration": 4})",
            table);
  REQUIRE(layouts.size() == 1);
  for (const std::string word : {"true", "false", "null"})
    CheckReadAsDecoder(
        layouts,
        R"({"t": 2.5, "type": "arrival", "request": "r-2", "stream": )" + word + R"(, "duration": 1})",
        table);
  // Valid values of other kinds are read by the line's punctuation;
  // invalid words stay refused.
  for (const std::string word : {"\"true\"", "1", "[true]"})
    CheckReadAsDecoder(
        layouts,
        R"({"t": 3, "type": "arrival", "request": "r-2", "stream": )" + word + R"(, "duration": 1})",
        table);
  for (const std::string word : {"tru", "True", "truex", "nulll", "fals", "falsey", "t rue"})
    CheckRefusedBothWays(
        layouts,
        R"({"t": 3, "type": "arrival", "request": "r-2", "stream": )" + word + R"(, "duration": 1})",
        table);
}

TEST_CASE("LineLayouts reads past objects and arrays of keys the decoder passes over, nested or not") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts,
            R"({"t": 0, "type": "arrival", "request": "r", "meta": {"user": "u-1", "tier": "free"}, "tags": ["a", 1], "duration": 1})",
            table);
  REQUIRE(layouts.size() == 1);
  auto line = [](const std::string& meta, const std::string& tags) {
    return R"({"t": 2.5, "type": "arrival", "request": "r-2", "meta": )" + meta +
           R"(, "tags": )" + tags + R"(, "duration": 0.5})";
  };
  // Any plain members, an object's keys up to 32 and an array's in any
  // number, nested up to 16 levels, spaced with blanks.
  for (const auto& [meta, tags] : std::vector<std::pair<std::string, std::string>>{
           {R"({"user": "u-2", "tier": "paid"})", R"(["b", 2])"},
           {R"({})", R"([])"},
           {R"({ })", "[\t]"},
           {R"({"a":1,"b":-2.5,"c":true,"d":false,"e":null,"f":"","g":"x y"})", R"([null,true,"",-0])"},
           {R"({ "user" : "u" , "n" : 1764750000.0222933 })", R"([ 1 , 2 ])"},
           {R"({"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"11":11,"12":12,"13":13,"14":14,"15":15,"16":16})",
            R"([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16])"},
           {R"({"": 1})", R"([])"},
           {Keys(layout_text::kMaxObjectKeys), R"([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17])"},
           // Nested, as a request's chat body or a client's address is.
           {R"({"user": {"id": 1}, "client": {"ip": "10.0.0.1", "port": 443}})", R"([[]])"},
           {R"({"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi\n\"there\""}]})",
            R"([{"a": [1, {"b": null}]}, [], {}])"},
           {R"({"a": {"a": {"a": 1}}})", R"([{"x": 1}, {"x": 2}])"},  // a key again, elsewhere
           {Nested(layout_text::kMaxPassedDepth, "{", "}"), Nested(layout_text::kMaxPassedDepth, "[", "]")},
           {R"([])", R"({})"},  // either kind, whichever was learned
           // String values as any string the scanner accepts.
           {R"({"user": "\u0041", "n": "Jos\u00e9"})", R"(["\"", "\\"])"},
           {"{\"user\": \"caf\xC3\xA9\"}", R"([])"},
       }) {
    CHECK(ReadsAsDecoder(layouts, line(meta, tags), table, true));
  }
  // Valid, but not plain, or too deep or wide: the general path's.
  for (const auto& [meta, tags] : std::vector<std::pair<std::string, std::string>>{
           {R"({"\u0041": 1})", R"([])"},
           {R"({"user": {"\u0041": 1}})", R"([])"},
           {R"({})", R"([{"n": 1e301}])"},
           {R"({"u\"": 1})", R"([])"},
           {"{\"caf\xC3\xA9\": 1}", R"([])"},
           {R"({"a": 0e99999})", R"([])"},
           {Keys(layout_text::kMaxObjectKeys + 1), R"([])"},
           {R"({"a": )" + Keys(layout_text::kMaxObjectKeys + 1) + "}", R"([])"},
           {R"({})", Nested(layout_text::kMaxPassedDepth + 1, "[", "]")},
           {Nested(layout_text::kMaxPassedDepth + 1, "{", "}"), R"([])"},
       }) {
    CHECK_FALSE(ReadsAsDecoder(layouts, line(meta, tags), table, false));
  }
  // Another kind of value than the slot's is read by the line's punctuation.
  CheckReadAsDecoder(layouts, line(R"({"user": "u"})", R"("a")"), table);
  // Invalid: refused both ways (a repeated key too).
  for (const auto& [meta, tags] : std::vector<std::pair<std::string, std::string>>{
           {R"({"a": 1, "a": 2})", R"([])"},
           {R"({"a": 1,})", R"([])"},
           {R"({"a" 1})", R"([])"},
           {R"({"a": 01})", R"([])"},
           {R"({})", R"([1,])"},
           {R"({})", R"([,])"},
           {R"({})", R"([1 2])"},
           {R"({})", R"([tru])"},
           {R"({})", R"([)"},
           {R"({"a": 1])", R"([])"},
           {R"({"user": {"a": 1, "a": 2}})", R"([])"},
           {R"({})", R"([{"role": "user", "role": "system"}])"},
           {R"({})", R"([[1,]])"},
           {R"({"a": {"b" 1}})", R"([])"},
           {R"({})", R"([{])"},
           {R"({})", R"([{"a": [}])"},
       }) {
    CheckRefusedBothWays(layouts, line(meta, tags), table);
  }
}

TEST_CASE("LineLayouts reads arrivals with an empty or null hint, or an Instance's fields") {
  InstanceTable table = TwoInstances();
  // A Proxy log's arrival may say where the Proxy sent it, with the load it
  // saw; the decoder passes those over on an arrival, as a hint of {} or null.
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r", "hint": {}, "duration": 1})", table);
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r", "hint": null})", table);
  LearnFrom(layouts,
            R"({"t": 0, "type": "arrival", "request": "r", "instance": "b", "inflight": 3, "qps_1m": null})",
            table);
  LearnFrom(layouts, R"({"t":0,"type":"arrival","hint":{ },"instance":"c","qps_1m":2.5})", table);
  REQUIRE(layouts.size() == 4);
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "request": "r-2", "hint": {}, "duration": 0.5})",
           R"({"t": 2, "type": "arrival", "request": "r-3", "hint": null})",
           R"({"t": 3, "type": "arrival", "request": "r-4", "instance": "inst-1", "inflight": 0, "qps_1m": null})",
           R"({"t": 3, "type": "arrival", "request": "r-4", "instance": "unseen", "inflight": -2.5, "qps_1m": true})",
           R"({"t":4,"type":"arrival","hint":{ },"instance":"b","qps_1m":7})",
       }) {
    INFO(text);
    CHECK(ReadsAsDecoder(layouts, text, table, true));
  }
  // Hints that hold something, and values the passed-over slots do not
  // take, are the general path's.
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "request": "r-2", "hint": {"a": 1}, "duration": 0.5})",
           R"({"t": 1, "type": "arrival", "request": "r-2", "hint": { }, "duration": 0.5})",
           R"({"t": 2, "type": "arrival", "request": "r-3", "hint": {}})",
           R"({"t": 3, "type": "arrival", "request": "r-4", "instance": 7, "inflight": 0, "qps_1m": null})",
           R"({"t": 3, "type": "arrival", "request": "r-4", "instance": "b", "inflight": [], "qps_1m": null})",
       }) {
    INFO(text);
    CHECK_FALSE(ReadsAsDecoder(layouts, text, table, false));
  }
  // A load still needs its instance, and takes no hint.
  LineLayouts loads;
  LearnFrom(loads, R"({"t": 0, "type": "load", "instance": "b", "hint": {}})", table);
  CHECK(loads.size() == 0);
  // Raw hints are wanted whole: not even an empty one is learned.
  LineLayouts raw(false);
  LearnFrom(raw, R"({"t": 0, "type": "arrival", "hint": {}})", table);
  CHECK(raw.size() == 0);
}

TEST_CASE("LineLayouts reads Unix times and other fractions of more than 15 digits exactly") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 1764750000.022293, "type": "arrival", "duration": 0.5})", table);
  REQUIRE(layouts.size() == 1);
  auto line = [](const std::string& t, const std::string& duration) {
    return R"({"t": )" + t + R"(, "type": "arrival", "duration": )" + duration + "}";
  };
  // Around 2^53 = 9007199254740992, where the one exact division stops.
  for (const std::string number :
       {"1764750000.022293", "1764750000.0222933", "1764750000.12345678", "900719925474099.2",
        "900719925474099.3", "9007199254740991.5", "0.30000000000000004", "0.1000000000000000055511",
        "12345678901234567890.25", "3.141592653589793238462643383279"}) {
    const std::string text = line(number, number);
    INFO(text);
    CHECK(ReadsAsDecoder(layouts, text, table, true));
  }
  // Beyond the double range: the general path's (it refuses it).
  CHECK_FALSE(ReadsAsDecoder(layouts, line("1" + std::string(400, '0') + ".5", "1"), table, false));
  // Below it: the general path's too (it reads it as strtod does).
  CHECK_FALSE(
      ReadsAsDecoder(layouts, line("1", "0." + std::string(400, '0') + "1"), table, false));
  // Random Unix times with 1 to 9 decimals: all read, as the decoder reads them.
  std::mt19937_64 random(53);
  for (int i = 0; i < 20000; ++i) {
    std::string t = std::to_string(1700000000 + random() % 100000000) + ".";
    const std::size_t decimals = 1 + random() % 9;
    for (std::size_t k = 0; k < decimals; ++k) t += static_cast<char>('0' + random() % 10);
    REQUIRE(ReadsAsDecoder(layouts, line(t, "0.25"), table, true));
  }
}

// A Proxy-style hinted arrival: `numbers` fill the hint's value slots, in
// the order of the map below; `ids` name its three entries.
std::string HintedArrival(const std::string& t, const std::vector<std::string>& numbers,
                          const std::vector<std::string>& ids = {"inst-1", "b", "c"}) {
  return R"({"t": )" + t + R"(, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {")" +
         ids[0] + R"(": {"active_prepare": )" + numbers[0] + R"(, "active_ready": )" + numbers[1] +
         R"(}, ")" + ids[1] + R"(": {"queue_depth": )" + numbers[2] + R"(, "predicted_total_backlog_ms": )" +
         numbers[3] + R"(}, ")" + ids[2] + R"(": {"ready_queue_depth": )" + numbers[4] + "}}}}}";
}

// A hinted arrival whose map's two entries are set apart by `apart`: hints
// of as many layouts as there are ways.
std::string SeparatedHint(const std::string& t, const std::string& apart) {
  return R"({"t": )" + t +
         R"(, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"inst-1": {"active_prepare": 1})" +
         apart + R"("b": {"active_ready": 2}}}}})";
}

// An arrival whose hint is laid out as the Proxy's queue_pressure_snapshot
// builds it (cacheroute@28e857c): the queue totals before the map, whose
// entries hold six counts and three float times each, all in `numbers`
// (2 + 9 per id; ids from `ids`).
std::string ProxyHintArrival(const std::string& t, const std::vector<std::string>& numbers,
                             const std::vector<std::string>& ids = {"inst-1", "b"}) {
  static const char* const keys[] = {
      "prepare_queue_depth",   "ready_queue_depth",     "active_prepare",
      "active_ready",          "pending_prefill_count", "active_decode_count",
      "next_slot_ready_in_ms", "prefill_free_in_ms",    "predicted_total_backlog_ms"};
  std::string text = R"({"t": )" + t + R"(, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"prepare_queue_depth": )" +
                     numbers[0] + R"(, "ready_queue_depth": )" + numbers[1] + R"(, "per_instance": {)";
  std::size_t n = 2;
  for (std::size_t e = 0; e < ids.size(); ++e) {
    text += (e > 0 ? ", \"" : "\"") + ids[e] + "\": {";
    for (std::size_t k = 0; k < std::size(keys); ++k)
      text += (k > 0 ? ", \"" : "\"") + std::string(keys[k]) + "\": " + numbers[n++];
    text += "}";
  }
  return text + "}}}}";
}

// The numbers of a ProxyHintArrival with `entries` ids: totals, then each
// entry's counts and times.
std::vector<std::string> ProxyHintNumbers(const std::string& total, const std::string& count,
                                          const std::string& time, std::size_t entries = 2) {
  std::vector<std::string> numbers = {total, total};
  for (std::size_t e = 0; e < entries; ++e) {
    for (int k = 0; k < 6; ++k) numbers.push_back(count);
    for (int k = 0; k < 3; ++k) numbers.push_back(time);
  }
  return numbers;
}

TEST_CASE("LineLayouts reads Proxy queue hints laid out like a learned one, as the decoder does") {
  InstanceTable table = TwoInstances();  // "c" is not registered (yet)
  LineLayouts layouts;
  LearnFrom(layouts, HintedArrival("0", {"1", "2", "3", "4", "5"}), table);
  REQUIRE(layouts.size() == 1);
  auto check_read = [&](const std::string& text) {
    INFO(text);
    TraceEvent expected, got;
    REQUIRE(DecodeGenerally(text, table, 0.0, expected));
    got.hint.queues.push_back({1, {}});  // left from an earlier event: replaced
    REQUIRE(Read(layouts, text, table, got));
    CheckSameEvent(got, expected);
    return got;
  };
  TraceEvent got = check_read(HintedArrival("1.5", {"0", "12.25", "0.1", "123456789012345", "7"}));
  REQUIRE(got.hint.queues.size() == 2);  // "c" named, but never registered
  CHECK(got.hint.queues[0].load.known[1]);
  CHECK(got.hint.queues[0].load.value[2] == 12.25);
  CHECK_FALSE(got.hint.queues[0].load.known[0]);
  // Registered later: the same layout now gives its entry too.
  table.Intern("c");
  got = check_read(HintedArrival("2", {"3", "3", "3", "3", "3"}));
  CHECK(got.hint.queues.size() == 3);
  CHECK(got.hint.queues[2].instance == 2);
  CHECK(got.hint.queues[2].load.value[4] == 3.0);
  // null: the field is named but unknown, to every reading.
  got = check_read(HintedArrival("2.5", {"null", "3", "null", "3", "null"}));
  CHECK_FALSE(got.hint.queues[0].load.known[1]);
  CHECK(got.hint.queues[0].load.known[2]);
  CHECK_FALSE(got.hint.queues[2].load.known[4]);

  // The map's entries in another order, naming other Instances, fewer or
  // none: read entry by entry, as the decoder reads them.
  const std::vector<std::string> plain = {"1", "2", "3", "4", "5"};
  got = check_read(HintedArrival("3", plain, {"b", "inst-1", "c"}));
  CHECK(got.hint.queues.size() == 3);
  CHECK(got.hint.queues[0].instance == 1);
  got = check_read(HintedArrival("3", plain, {"c", "d", "inst-1"}));  // "d": not registered
  CHECK(got.hint.queues.size() == 2);
  got = check_read(
      R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"ready_queue_depth": 6}, "c": {"active_prepare": 1, "active_ready": 2}}}}})");
  REQUIRE(got.hint.queues.size() == 2);
  CHECK(got.hint.queues[0].load.value[4] == 6.0);
  got = check_read(
      R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"c": {"queue_depth": 1, "predicted_total_backlog_ms": 2.5}}}}})");
  CHECK(got.hint.queues.size() == 1);
  got = check_read(
      R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {}}}})");
  CHECK(got.hint.queues.empty());

  // An entry laid out as none of the learned ones but punctuated as they
  // are: its keys in another order, other keys (passed over), queue fields
  // no learned entry held, up to eight keys not queue fields of at most 64
  // bytes.
  got = check_read(
      R"({"t": 4, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"active_ready": 2, "active_prepare": 1}}}}})");
  REQUIRE(got.hint.queues.size() == 1);
  CHECK(got.hint.queues[0].load.known == std::array<bool, 8>{false, true, true});
  CHECK(got.hint.queues[0].load.value[1] == 1.0);
  CHECK(got.hint.queues[0].load.value[2] == 2.0);
  got = check_read(
      R"({"t": 4, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"inst-1": {"active_prepare": 1, "active_ready": 2}, "c": {"next_slot_ready_in_ms": 12.5, "pending_prefill_count": 3, "active_decode_count": null, "predicted_total_backlog_ms": 0.001}, "b": {"active_ready": 2}}}}})");
  REQUIRE(got.hint.queues.size() == 3);
  CHECK(got.hint.queues[1].instance == 2);
  CHECK(got.hint.queues[1].load.known ==
        std::array<bool, 8>{false, false, false, false, false, true, false, true});
  CHECK(got.hint.queues[1].load.value[7] == 0.001);
  const std::string many_keys =
      R"("k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, )"
      R"("key-of-sixty-four-bytes-------------------------------------ends": 8, "queue_depth": 9)";
  got = check_read(
      R"({"t": 4, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {)" +
      many_keys + "}}}}}");
  REQUIRE(got.hint.queues.size() == 1);
  CHECK(got.hint.queues[0].load.value[0] == 9.0);
  // A key not a queue field takes any value a line's passed-over key does.
  got = check_read(
      R"({"t": 4, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"state": "ready", "x": -1, "ok": true, "n": null, "tags": ["a", 2], "kv": {"hit": 0.5, "blocks": [[1, 2], {"id": 3}]}, "active_ready": 2}}}}})");
  REQUIRE(got.hint.queues.size() == 1);
  CHECK(got.hint.queues[0].load.known == std::array<bool, 8>{false, false, true});

  // Anything else is the general path's to decide, valid or not.
  auto with = [&](std::size_t slot, const std::string& number) {
    std::vector<std::string> numbers = plain;
    numbers[slot] = number;
    return HintedArrival("3", numbers);
  };
  TraceEvent event;
  for (const std::string& text : std::vector<std::string>{
           with(0, "nul"), with(0, "nulll"), with(1, "-1"), with(2, "1e3"), with(3, "\"4\""), with(4, "true"),
           with(0, "01"), with(1, "1."), with(2, "1234567890123456"), with(3, "{}"),
           with(4, "[1]"), with(0, "1 "),
           HintedArrival("3", plain, {"inst-1", "b", "b"}),  // a repeated key: invalid
           HintedArrival("3", plain, {"d", "b", "d"}),  // repeated, and not registered
           HintedArrival("3", plain, {"inst-1", "b\\u0062", "c"}),  // an escape in an id
           HintedArrival("3", plain, {"inst-1", "", "c"}),
           // An entry laid out as none of the learned ones, and not
           // punctuated as they are, or with a key or value the
           // punctuation does not read.
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"active_ready": 2,"active_prepare": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"active_ready":2, "active_prepare": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": { "active_ready": 2, "active_prepare": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"active_ready": 2, "active_prepare": 1 }}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"active_ready": 2, "active_ready": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "active_ready": 1, "x": 3}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "active_r\u0065ady": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "ready": {"a": [1e301]}}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "ready": {"a": {"b": 1, "b": 2}}}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "active_ready": "1"}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "active_ready": -1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "active_ready": true}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "ready": 1e301}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "cafÃ©": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"x": 2, "key-of-sixty-five-bytes-------------------------------------ends-": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {)" + many_keys + R"(, "k8": 1}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"ready_queue_depth": 6} }}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {"b": {"ready_queue_depth": 6},"c": {"ready_queue_depth": 6}}}}})",
           R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": { }}}})",
       }) {
    INFO(text);
    CHECK_FALSE(Read(layouts, text, table, event));
  }
  // A hint of nothing is no hint: read by the line's punctuation.
  CHECK(CheckReadAsDecoder(layouts, R"({"t": 3, "type": "arrival", "request": "r-1", "hint": {}})", table)
            .hint.queues.empty());
}

TEST_CASE("LineLayouts reads a hinted line cut anywhere without a byte past the cut") {
  // Each prefix of the line sits alone in a heap block of its own size, so
  // that the sanitizer build sees any read past it.
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, HintedArrival("0", {"1", "2", "3", "4", "5"}), table);
  const std::string line = HintedArrival("1", {"null", "2.5", "null", "4", "null"}) + "\n";
  TraceEvent event;
  for (std::size_t size = 0; size < line.size(); ++size) {
    INFO(size);
    const auto block = std::make_unique<char[]>(size);
    std::copy(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(size), block.get());
    std::size_t read = 0;
    layouts.Forget();
    CHECK_FALSE(layouts.Read(std::string_view(block.get(), size), table, 0.0, event, read));
  }
  std::size_t read = 0;
  CHECK(layouts.Read(line, table, 0.0, event, read));
}

TEST_CASE("LineLayouts learns a hint only of the Proxy's shape, and not when raw hints are wanted") {
  InstanceTable table = TwoInstances();
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": -1}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 1e2}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": "1"}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"unknown_key": [[1e301]]}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"unknown_key": 1e301}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {}}}})",
           // Entries set apart two ways.
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {}, "b": {},"c": {}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": 1}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"x": 1, "queue_depths": {"per_instance": {}}}})",
           // Beside the map, a member the decoder passes over that a Frame
           // does not read past (not plain, or a number the scanner checks
           // for overflowing a double).
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {}}, "x": ["1", [2e301]]}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"x": 1e301, "per_instance": {"b": {}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {}}}, "x": {"y": {"\u0041": 1}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"request": {"messages": )" + Nested(layout_text::kMaxPassedDepth, "[", "]") + R"(}, "queue_depths": {"per_instance": {"b": {}}}}})",
           // No map, or one named with an escape.
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"prepare_queue_depth": 1}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instanc\u0065": {"b": {}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_d\u0065pths": {"per_instance": {"b": {}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_d\u0065pth": 1}}}}})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": []}})",
           R"({"t": 1, "type": "load", "instance": "b", "hint": {"queue_depths": {"per_instance": {}}}})",
       }) {
    INFO(text);
    LineLayouts layouts;
    LearnFrom(layouts, text, table);
    CHECK(layouts.size() == 0);
  }
  // One entry layout more than a hint layout keeps, in one hint: learned
  // when the entries are punctuated alike (the one left over is read by
  // its punctuation), not when the last is punctuated otherwise than the
  // others, or than itself.
  {
    static_assert(HintLayout::kMaxEntryLayouts == 16);
    const std::pair<std::string, bool> lasts[] = {{R"("k16": 1)", true},
                                                  {R"("k16":1)", false},
                                                  {R"("k16": 1,"x": 2, "y": 3)", false},
                                                  {R"("k16": 1, "x": 2, "y":3)", false}};
    for (const auto& [last, alike] : lasts) {
      std::string map;
      for (std::size_t e = 0; e < HintLayout::kMaxEntryLayouts; ++e)
        map += (e > 0 ? ", \"i" : "\"i") + std::to_string(e) + "\": {\"k" + std::to_string(e) + "\": 1}";
      map += ", \"i16\": {" + last + "}";
      const std::string text =
          R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {)" + map + "}}}}";
      INFO(text);
      LineLayouts layouts;
      LearnFrom(layouts, text, table);
      CHECK(layouts.size() == (alike ? 1 : 0));
      if (alike) CheckReadAsDecoder(layouts, text, table);
    }
  }
  const std::string hinted = HintedArrival("0", {"1", "2", "3", "4", "5"});
  LineLayouts raw(/*learn_hints=*/false);
  LearnFrom(raw, hinted, table);
  CHECK(raw.size() == 0);
  LineLayouts layouts;
  LearnFrom(layouts, hinted, table);
  CHECK(layouts.size() == 1);
  // A key not a queue field is passed over, as the decoder passes it over.
  LineLayouts unknown_key;
  const std::string passed_over = R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"num_running": 7, "active_ready": 2}}}}})";
  LearnFrom(unknown_key, passed_over, table);
  REQUIRE(unknown_key.size() == 1);
  TraceEvent expected, got;
  REQUIRE(DecodeGenerally(passed_over, table, 0.0, expected));
  REQUIRE(Read(unknown_key, passed_over, table, got));
  CheckSameEvent(got, expected);
  REQUIRE(got.hint.queues.size() == 1);
  CHECK(got.hint.queues[0].load.known == std::array<bool, 8>{false, false, true});
  // Its value is read past as a line's passed-over key's is: here with a
  // sign, or a string.
  CheckReadAsDecoder(unknown_key,
                     R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"num_running": -7, "active_ready": 2}}}}})",
                     table);
  CheckReadAsDecoder(unknown_key,
                     R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"num_running": "7", "active_ready": 2}}}}})",
                     table);
  // A hint learned with an escaped id: ids are not part of the layout, but
  // an id with an escape is the general path's to read.
  LineLayouts escaped;
  const std::string text = R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"\u0062": {"queue_depth": 1}}}}})";
  LearnFrom(escaped, text, table);
  REQUIRE(escaped.size() == 1);
  CHECK_FALSE(Read(escaped, text, table, got));
  const std::string unescaped = R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 1}}}}})";
  REQUIRE(DecodeGenerally(unescaped, table, 0.0, expected));
  REQUIRE(Read(escaped, unescaped, table, got));
  CheckSameEvent(got, expected);
  // Learned from a map of one entry, a layout does not know how entries
  // are set apart: a map of two is not read, until one is learned.
  const std::string two = R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 1}, "inst-1": {"queue_depth": 2}}}}})";
  CHECK_FALSE(Read(escaped, two, table, got));
  LearnFrom(escaped, two, table);
  REQUIRE(DecodeGenerally(two, table, 0.0, expected));
  REQUIRE(Read(escaped, two, table, got));
  CheckSameEvent(got, expected);
}

TEST_CASE("LineLayouts reads the Proxy's own hint, its queue totals passed over, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, ProxyHintArrival("0", ProxyHintNumbers("7", "1", "0.0")), table);
  REQUIRE(layouts.size() == 1);
  auto check_read = [&](const std::string& text) {
    return CheckReadAsDecoder(layouts, text, table);
  };
  // Totals of any size, even signed or fractional; the Proxy's float times.
  for (const std::string total : {"0", "12345", "-3", "1.5", "-0", "123456789012345"}) {
    const TraceEvent got =
        check_read(ProxyHintArrival("1", ProxyHintNumbers(total, "3", "363.8816252572409")));
    REQUIRE(got.hint.queues.size() == 2);
    CHECK(got.hint.queues[1].instance == 1);
    // queue_depth is not named; next_slot_ready_in_ms and
    // prefill_free_in_ms are no queue fields, passed over.
    const Hint::Entry& entry = got.hint.queues[1];
    CHECK(entry.load.known == std::array<bool, 8>{false, true, true, true, true, true, true, true});
    for (std::size_t field = 1; field < 7; ++field) CHECK(entry.load.value[field] == 3.0);
    CHECK(entry.load.value[7] == 363.8816252572409);
  }
  check_read(ProxyHintArrival("2", ProxyHintNumbers("40", "12", "null")));
  check_read(ProxyHintArrival("2", ProxyHintNumbers("40", "0", "0.0", 1), {"b"}));
  check_read(ProxyHintArrival("2", ProxyHintNumbers("40", "0", "0.0", 3), {"b", "inst-1", "c"}));

  // Any value the decoder passes over, as a line's passed-over keys take
  // it: strings, words, objects and arrays, nested or not.
  for (const std::string total :
       {R"("4")", R"("caf\u00e9 \"x\"")", "null", "true", "false", "{}", "[]",
        R"({"id": "r-1", "stream": true, "n": -2.5})", R"([1, "a", null])", R"({"a": {"b": 1}})",
        "[[1]]", "1e3", "-2.5E-07", "1234567890123456", R"({"a": {"b": 1e3}})"}) {
    const TraceEvent got = check_read(ProxyHintArrival("1", ProxyHintNumbers(total, "2", "0.5")));
    REQUIRE(got.hint.queues.size() == 2);
    CHECK(got.hint.queues[0].load.value[1] == 2.0);
  }

  // A total the decoder takes but a Frame does not read past, or one the
  // decoder refuses: the general path's, either way.
  TraceEvent event;
  for (const std::string total :
       {"1e301", "01", "1.", "--1", "1e", "1 ", R"({"a": {"b": 1e301}})", "[[01]]",
        R"({"a": 1, "a": 2})", R"([{"a": 1, "a": 2}])", "\"\x01\"", R"({"a\u0062": 1})", "nul", R"("open)"}) {
    const std::string text = ProxyHintArrival("3", ProxyHintNumbers(total, "1", "0.0"));
    INFO(text);
    CHECK_FALSE(Read(layouts, text, table, event));
  }
  // A total left out, or one more: another layout.
  const std::string learned = ProxyHintArrival("3", ProxyHintNumbers("7", "1", "0.0"));
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {R"("prepare_queue_depth": 7, )", ""},
           {R"({"queue_depths")", R"({"queued": 7, "queue_depths")"}}) {
    std::string text = learned;
    text.replace(text.find(from), from.size(), to);
    INFO(text);
    CHECK_FALSE(Read(layouts, text, table, event));
  }

  // Members after the map and beside queue_depths are read past too.
  LineLayouts after;
  const std::string trailing =
      R"({"t": 1, "type": "arrival", "hint": {"seq": 17, "queue_depths": {"per_instance": {"b": {"queue_depth": 2}}, "prepare_queue_depth": 3}, "ts": 1764750000.0222933}})";
  LearnFrom(after, trailing, table);
  REQUIRE(after.size() == 1);
  TraceEvent got = CheckReadAsDecoder(
      after,
      R"({"t": 2, "type": "arrival", "hint": {"seq": 18, "queue_depths": {"per_instance": {"b": {"queue_depth": 5}}, "prepare_queue_depth": 40}, "ts": 1764750001.5}})",
      table);
  REQUIRE(got.hint.queues.size() == 1);
  CHECK(got.hint.queues[0].instance == 1);
  // The map empty: the text between head and tail is all that changes.
  got = CheckReadAsDecoder(
      after,
      R"({"t": 2, "type": "arrival", "hint": {"seq": 18, "queue_depths": {"per_instance": {}, "prepare_queue_depth": 40}, "ts": 1764750001.5}})",
      table);
  CHECK(got.hint.queues.empty());
}

TEST_CASE("LineLayouts reads past a request the hint carries beside its queues, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  // A log that writes the request into the hint, as the Proxy hands it to
  // its strategies ({"request": ..., "queue_depths": ...}).
  const auto hinted = [](int t, const std::string& request, const std::string& depth) {
    return R"({"t": )" + std::to_string(t) + R"(, "type": "arrival", "hint": {"request": )" +
           request + R"(, "queue_depths": {"prepare_queue_depth": 1, "per_instance": {"b": {"queue_depth": )" +
           depth + "}}}}}";
  };
  LearnFrom(layouts,
            hinted(0, R"({"request_id": "r-0", "model": "m", "prompt_tokens": 12, "stream": true})", "1"),
            table);
  REQUIRE(layouts.size() == 1);
  for (const std::string request :
       {R"({"request_id": "r-1", "model": "other", "prompt_tokens": 4000, "stream": false})",
        R"({"request_id": "r-2"})", R"({})", R"("r-3")", "null", "17"}) {
    const TraceEvent got = CheckReadAsDecoder(layouts, hinted(1, request, "4"), table);
    REQUIRE(got.hint.queues.size() == 1);
    CHECK(got.hint.queues[0].instance == 1);
    CHECK(got.hint.queues[0].load.value[0] == 4.0);
  }
  // A request of nested objects too (its chat body), but for a repeated key
  // in one, the general path's to report.
  const TraceEvent got = CheckReadAsDecoder(
      layouts,
      hinted(2, R"({"request_id": "r-4", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]})", "4"),
      table);
  REQUIRE(got.hint.queues.size() == 1);
  CHECK(got.hint.queues[0].load.value[0] == 4.0);
  CheckRefusedBothWays(layouts, hinted(2, R"({"messages": [{"role": "user", "role": "system"}]})", "4"), table);
}

// A ',' and `spaces` spaces: as many ways to set a map's entries apart as
// there are counts.
std::string CommaAndSpaces(std::size_t spaces) {
  std::string text = ",";
  text.append(spaces, ' ');
  return text;
}

TEST_CASE("LineLayouts keeps hinted layouts apart, and backs off hints it cannot keep") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  // As many plain layouts as are kept: arrivals set apart by their
  // spacing, and a load.
  std::vector<std::string> plain = {R"({"t": 7, "type": "load", "instance": "b", "inflight": 2})"};
  while (plain.size() < LineLayouts::kMaxLayouts)
    plain.push_back(R"({"t": 0,)" + std::string(plain.size(), ' ') + R"("type": "arrival"})");
  for (const std::string& text : plain) LearnFrom(layouts, text, table);
  // One hint layout more than are kept, in turn (their entries set apart
  // in as many ways): the last pushes out the first, never a plain one.
  static_assert(LineLayouts::kMaxHintLayouts == 4);
  std::vector<std::string> maps;
  for (std::size_t n = 0; n <= LineLayouts::kMaxHintLayouts; ++n)
    maps.push_back(CommaAndSpaces(n));
  const std::vector<std::string> numbers = {"1", "2", "3", "4", "5"};
  for (const std::string& apart : maps) LearnFrom(layouts, SeparatedHint("0", apart), table);
  CHECK(layouts.size() == LineLayouts::kMaxLayouts + LineLayouts::kMaxHintLayouts);
  TraceEvent event;
  for (const std::string& text : plain) CHECK(Read(layouts, text, table, event));
  CHECK_FALSE(Read(layouts, SeparatedHint("1", maps[0]), table, event));
  for (std::size_t n = 1; n < maps.size(); ++n)
    CHECK(Read(layouts, SeparatedHint("1", maps[n]), table, event));

  // Hints it cannot learn (a string value): after the first failure in a
  // row the next hinted line is not tried, after the second the next
  // three, then seven (a line not tried fails nothing).
  const std::string unlearnable = HintedArrival("0", {"1", "\"2\"", "3", "4", "5"});
  const std::string learnable = HintedArrival("0", numbers);
  auto learned_at = [&](const std::vector<std::string>& in_turn) {
    LineLayouts l;
    for (std::size_t i = 0; i < in_turn.size(); ++i) {
      LearnFrom(l, in_turn[i], table);
      if (l.size() > 0) return i;
    }
    return in_turn.size();
  };
  const std::string& U = unlearnable;
  const std::string& L = learnable;
  CHECK(learned_at({L}) == 0);
  CHECK(learned_at({U, L}) == 1);
  CHECK(learned_at({U, U, L, L}) == 3);
  CHECK(learned_at({U, U, U, U, L, L, L, L}) == 7);
  CHECK(learned_at({U, U, U, U, U, U, U, U, U, U, U, U, L, L, L, L, L, L, L, L}) == 15);
  // Hinted layouts that give way unread count as failures too.
  {
    LineLayouts l;
    std::vector<std::string> apart;
    for (std::size_t n = 0; n < LineLayouts::kMaxHintLayouts + 3; ++n)
      apart.push_back(CommaAndSpaces(n));
    for (const std::string& a : apart) LearnFrom(l, SeparatedHint("0", a), table);
    // The one after those kept pushed out the first unread (the next hint
    // not skipped), the one after it the second (the next one, the last,
    // skipped).
    const std::size_t kept = LineLayouts::kMaxHintLayouts;
    CHECK(Read(l, SeparatedHint("1", apart[kept]), table, event));
    CHECK(Read(l, SeparatedHint("1", apart[kept + 1]), table, event));
    CHECK_FALSE(Read(l, SeparatedHint("1", apart[kept + 2]), table, event));
  }
  // Read by a layout, then failing again: skips start over from none.
  LineLayouts l;
  for (int i = 0; i < 3; ++i) LearnFrom(l, unlearnable, table);
  for (int i = 0; i < 4; ++i) LearnFrom(l, HintedArrival("0", numbers), table);
  REQUIRE(l.size() == 1);
  REQUIRE(Read(l, HintedArrival("1", numbers), table, event));
  LearnFrom(l, unlearnable, table);
  LearnFrom(l, SeparatedHint("0", maps[1]), table);
  CHECK(l.size() == 2);
}

// The parts one after another.
std::string Join(std::initializer_list<std::string_view> parts) {
  std::string text;
  for (std::string_view part : parts) text.append(part);
  return text;
}

// A number literal, mostly ones a slot takes (`plain`: digits, at most 15
// of them, or digits, a point and digits, as many as a line holds), some
// it must refuse.
struct Number {
  std::string text;
  bool plain = true;
  bool integer() const { return plain && text.find('.') == std::string::npos; }
};

Number RandomNumber(std::mt19937_64& random) {
  static const std::vector<std::string> odd = {
      "00",   "01",   "-0",  "-1",  "1.",   ".5",    "1e3",  "1E-2", "null",  "true",
      "\"1\"", "1.5e1", "9007199254740993", "1234567890123456"};
  static const std::vector<std::string> edge = {
      "0", "0.0", "2.50", "0.000", "123456789012345", "12345678901234.5", "1.23456789012345",
      "0.12345678901234", "99999999999999.9", "0.1", "0.3", "9007199254740.99",
      // More digits than 15: from 2^53 up, m / 10^k is no longer exact.
      "12345678901234.56", "1.234567890123456", "1764750000.022293", "1764750000.0222933",
      "0.30000000000000004", "900719925474099.2", "900719925474099.3", "9007199254740993.5",
      "123456789012345678901234.5", "0.0000000000000000000000001"};
  switch (random() % 5) {
    case 0: return {odd[random() % odd.size()], false};
    case 1: return {edge[random() % edge.size()]};
    case 2: return {std::to_string(random() % 100000)};
    case 3: {
      // 2 to 24 digits, the first not 0, with a point after 1 to all but one.
      const std::size_t digits = 2 + random() % 23;
      const std::size_t point = 1 + random() % (digits - 1);
      std::string s(1, static_cast<char>('1' + random() % 9));
      while (s.size() < digits + 1)
        s += s.size() == point ? '.' : static_cast<char>('0' + random() % 10);
      return {s};
    }
    default:
      return {Join({std::to_string(random() % 1000), ".", std::to_string(random() % 1000)})};
  }
}

// Whether `n` is read past as the value of a key the decoder passes over:
// any JSON number below 1e300 (with a sign, an exponent or more digits
// than a slot takes too), true, null or a string; a queue field takes
// null, but no sign.
bool PassedOver(const Number& n) {
  static const std::vector<std::string> also = {
      "-0", "-1", "1e3", "1E-2", "1.5e1", "9007199254740993", "1234567890123456",
      "null", "true", "\"1\""};
  return n.plain || std::find(also.begin(), also.end(), n.text) != also.end();
}

// An Instance id, and whether the instance slot takes it.
std::pair<std::string, bool> RandomId(std::mt19937_64& random) {
  static const std::vector<std::pair<std::string, bool>> ids = {
      {"inst-1", true},   {"b", true},          {"unseen", true},  {"~!@#$%^&*()", true},
      {"", false},        {"a\\u0062", false}, {"tab\there", false}, {"\xC3\xA9", false},
      {"q\\\"q", false}};
  return ids[random() % ids.size()];
}

// Whether the request slot takes `id`, one of RandomId's: any string but
// the empty one (escapes and UTF-8 decoded, as the decoder decodes them; a
// raw tab is invalid JSON, which no path takes).
bool RequestSlotTakes(const std::string& id) { return !id.empty(); }

TEST_CASE("LineLayouts agrees with the decoder on random lines in learned layouts") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnUsualLayouts(layouts, table);
  LearnFrom(layouts, R"({"instance":"b","type":"load","qps_1m":1,"t":1})", table);
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r", "duration": 1})", table);
  std::mt19937_64 random(8);
  int read_tokens = 0;
  LineLayouts token_layouts;
  LearnFrom(token_layouts, R"({"t":0,"type":"arrival","duration":1,"input_tokens":2,"output_tokens":3})",
            table);
  int read = 0;
  for (int i = 0; i < 40000; ++i) {
    const Number t = RandomNumber(random), a = RandomNumber(random), b = RandomNumber(random);
    const auto [id, plain_id] = RandomId(random);
    std::string text;
    bool plain = t.plain;  // whether the layout must read it, if valid
    switch (i % 4) {
      case 0:
        text = Join({"{\"t\": ", t.text, ", \"type\": \"arrival\", \"duration\": ", a.text, "}"});
        plain = plain && a.plain;
        break;
      case 3:
        text = Join({"{\"t\": ", t.text, ", \"type\": \"arrival\", \"request\": \"", id,
                     "\", \"duration\": ", a.text, "}"});
        plain = plain && RequestSlotTakes(id) && a.plain;
        break;
      case 1:
        text = Join({"{\"t\": ", t.text, ", \"type\": \"load\", \"instance\": \"", id,
                     "\", \"inflight\": ", a.text, ", \"qps_1m\": ", b.text, "}"});
        // A load's inflight and qps_1m may also be null.
        plain = plain && plain_id && (a.integer() || a.text == "null") &&
                (b.plain || b.text == "null");
        break;
      default:
        text = Join({"{\"instance\":\"", id, "\",\"type\":\"load\",\"qps_1m\":", a.text,
                     ",\"t\":", t.text, "}"});
        plain = plain && plain_id && (a.plain || a.text == "null");
        break;
    }
    const double not_before = random() % 4 == 0 ? 500.0 : 0.0;
    INFO(text);
    TraceEvent expected, got;
    const bool accepted = DecodeGenerally(text, table, not_before, expected);
    const bool fast = Read(layouts, text, table, got, not_before);
    CHECK(fast == (accepted && plain));
    if (fast && accepted) CheckSameEvent(got, expected);
    read += fast;
    // The same numbers as token counts.
    const Number c = RandomNumber(random);
    const std::string tokens = Join({"{\"t\":", t.text, ",\"type\":\"arrival\",\"duration\":",
                                     a.text, ",\"input_tokens\":", b.text,
                                     ",\"output_tokens\":", c.text, "}"});
    INFO(tokens);
    const bool tokens_plain = t.plain && a.plain && b.integer() && c.integer();
    const bool tokens_accepted = DecodeGenerally(tokens, table, not_before, expected);
    const bool tokens_fast = Read(token_layouts, tokens, table, got, not_before);
    CHECK(tokens_fast == (tokens_accepted && tokens_plain));
    if (tokens_fast && tokens_accepted) CheckSameEvent(got, expected);
    read_tokens += tokens_fast;
  }
  CHECK(read > 10000);  // a quarter of the lines or more
  CHECK(read_tokens > 1000);  // lines with four numbers are plain less often
}

TEST_CASE("LineLayouts agrees with the decoder on random hinted lines in a learned layout") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, HintedArrival("0", {"1", "2", "3", "4", "5"}), table);
  std::mt19937_64 random(23);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    const Number t = RandomNumber(random);
    bool plain = t.plain;
    std::vector<std::string> numbers;
    for (int k = 0; k < 5; ++k) {
      // Mostly plain numbers, so that many lines fit; a hint slot takes null.
      Number n = random() % 4 ? Number{std::to_string(random() % 50)} : RandomNumber(random);
      plain = plain && (n.plain || n.text == "null");
      numbers.push_back(n.text);
    }
    const std::string text = HintedArrival(t.text, numbers);
    read += ReadsAsDecoder(layouts, text, table, plain);
  }
  CHECK(read > 5000);
}

TEST_CASE("LineLayouts agrees with the decoder on a Proxy hint with any byte of it changed") {
  // Entries of one-digit numbers are compared whole (see HintLayout): each
  // byte of the map changed to each of these must still be read exactly
  // when the decoder reads it as the learned layout's.
  InstanceTable table;
  for (const char* id : {"inst-00000", "inst-00001", "inst-00002"}) table.Intern(id);
  const auto entry = [](const std::string& id, const std::string& digits) {
    return "\"" + id + R"(": {"active_prepare": )" + digits[0] + R"(, "active_ready": )" +
           digits[1] + R"(, "prepare_queue_depth": )" + digits[2] +
           R"(, "ready_queue_depth": )" + digits[3] + "}";
  };
  const std::string head =
      R"({"t": 0.25, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {)";
  const std::string line = head + entry("inst-00000", "1234") + ", " + entry("inst-00001", "0000") +
                           ", " + entry("inst-00002", "9876") + "}}}}";
  LineLayouts layouts;
  LearnFrom(layouts, line, table);
  REQUIRE(layouts.size() == 1);
  REQUIRE(ReadsAsDecoder(layouts, line, table, true));
  const std::string replacements = std::string("0159.e-+ ,}\"n:/\\\x7f\x80\t") + '\0';
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  // The bytes of the map's strings, within their quotes: ids and keys.
  std::vector<bool> id_byte(line.size()), key_byte(line.size());
  for (std::size_t at = head.size(), quote = 0; at < line.size(); ++at) {
    if (line[at] != '"') continue;
    if (quote == 0) {
      quote = at;
      continue;
    }
    const bool id = line.compare(quote + 1, 5, "inst-") == 0;
    for (std::size_t k = quote + 1; k < at; ++k) (id ? id_byte : key_byte)[k] = true;
    quote = 0;
  }
  int numbers_read = 0;
  for (std::size_t at = head.size(); at + 4 < line.size(); ++at) {
    for (const char c : replacements) {
      if (c == line[at]) continue;
      std::string changed = line;
      changed[at] = c;
      // A digit in place of a number's digit keeps the layout, as does a
      // printable byte in place of an id's: the layouts must read those
      // (unless an id is then named twice, which the decoder refuses). One
      // in place of a key's makes the entry's layout another, which its
      // punctuation reads (the key passed over).
      const bool printable = c >= 0x20 && c <= 0x7E && c != '"' && c != '\\';
      const bool plain =
          id_byte[at] || key_byte[at] ? printable : digit(line[at]) && digit(c);
      const bool read = ReadsAsDecoder(layouts, changed, table, plain);
      numbers_read += read && !id_byte[at] && !key_byte[at];
    }
  }
  // Each of the 12 digits to each digit of `replacements` but its own.
  CHECK(numbers_read == 6 * 4 + 6 * 3);
}

TEST_CASE("LineLayouts agrees with the decoder on random maps of learned entry layouts") {
  InstanceTable table = TwoInstances();
  table.Intern("c");
  LineLayouts layouts;
  LearnFrom(layouts, HintedArrival("0", {"1", "2", "3", "4", "5"}), table);
  // The keys of the three entry layouts HintedArrival's map has, and of
  // two it has not: the first punctuated as they are (read by its
  // punctuation), the second (its colon without a space) not.
  const std::vector<std::vector<std::string>> keys = {{"active_prepare", "active_ready"},
                                                      {"queue_depth", "predicted_total_backlog_ms"},
                                                      {"ready_queue_depth"},
                                                      {"x", "active_ready"},
                                                      {"active_ready"}};
  const std::vector<std::string> ids = {"inst-1", "b", "c", "unseen", "other"};  // 2 unregistered
  std::mt19937_64 random(31);
  int read = 0, long_maps_read = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string map;
    bool plain = true;  // whether the layout must read it, if valid
    std::vector<std::string> named;
    const std::size_t entries = random() % 6;
    for (std::size_t e = 0; e < entries; ++e) {
      const std::string& id = ids[random() % ids.size()];
      named.push_back(id);
      const std::size_t layout = random() % 8 == 0 ? 3 + random() % 2 : random() % 3;
      plain = plain && layout != 4;
      map += (e > 0 ? ", \"" : "\"") + id + "\": {";
      for (std::size_t k = 0; k < keys[layout].size(); ++k) {
        const Number n =
            random() % 4 ? Number{std::to_string(random() % 50)} : RandomNumber(random);
        plain = plain && (keys[layout][k] == "x" ? PassedOver(n) : n.plain || n.text == "null");
        map += (k > 0 ? ", \"" : "\"") + keys[layout][k] + (layout == 4 ? "\":" : "\": ") + n.text;
      }
      map += "}";
    }
    const std::string text =
        R"({"t": 1, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"per_instance": {)" +
        map + "}}}}";
    // A repeated id is not accepted.
    const bool fast = ReadsAsDecoder(layouts, text, table, plain);
    read += fast;
    long_maps_read += fast && entries > 3;
  }
  CHECK(read > 5000);
  CHECK(long_maps_read > 200);  // four or five entries, none repeated
}

// An arrival whose hint's map names `ids` in turn, each entry with the
// keys of `keys` that `mask` (bit k for key k) keeps, numbered from `n`.
std::string SubsetHint(const std::string& t, const std::vector<std::string>& ids,
                       const std::vector<unsigned>& masks, unsigned n = 1) {
  static const char* const keys[] = {"active_prepare", "active_ready", "prepare_queue_depth",
                                     "ready_queue_depth"};
  std::string map;
  for (std::size_t e = 0; e < ids.size(); ++e) {
    map += (e > 0 ? ", \"" : "\"") + ids[e] + "\": {";
    bool first = true;
    for (unsigned k = 0; k < 4; ++k) {
      if (!(masks[e] >> k & 1)) continue;
      map += (first ? "\"" : ", \"") + std::string(keys[k]) + "\": " + std::to_string(n++ % 7);
      first = false;
    }
    map += "}";
  }
  return R"({"t": )" + t + R"(, "type": "arrival", "hint": {"queue_depths": {"per_instance": {)" +
         map + "}}}}";
}

TEST_CASE("LineLayouts gathers the entry layouts of hints that differ only in them") {
  InstanceTable table = TwoInstances();
  table.Intern("c");
  LineLayouts layouts;
  // Entries that leave out different keys, hint after hint: one layout
  // comes to hold the entry layouts of all.
  LearnFrom(layouts, SubsetHint("0", {"inst-1", "b"}, {0b1111, 0b0011}), table);
  LearnFrom(layouts, SubsetHint("0", {"c"}, {0b0100}), table);
  LearnFrom(layouts, SubsetHint("0", {"b", "inst-1", "c"}, {0b1000, 0b0011, 0b1111}), table);
  CHECK(layouts.size() == 1);
  const TraceEvent got = CheckReadAsDecoder(
      layouts, SubsetHint("1", {"c", "b", "inst-1"}, {0b0100, 0b1000, 0b0011}, 3), table);
  REQUIRE(got.hint.queues.size() == 3);
  CHECK(got.hint.queues[0].instance == 2);
  CheckReadAsDecoder(layouts, SubsetHint("1", {"b", "c"}, {0b1111, 0b1111}), table);
  // A mask not learned yet: read by the entries' punctuation, and learned
  // into the same layout.
  const std::string unseen = SubsetHint("2", {"inst-1"}, {0b0101});
  CheckReadAsDecoder(layouts, unseen, table);
  LearnFrom(layouts, unseen, table);
  CHECK(layouts.size() == 1);
  CheckReadAsDecoder(layouts, SubsetHint("3", {"inst-1", "c"}, {0b0101, 0b0011}), table);

  // Hints whose text around the map differs are other layouts.
  LearnFrom(layouts,
            R"({"t": 4, "type": "arrival", "hint": {"queue_depths": {"prepare_queue_depth": 2, "per_instance": {"b": {"active_ready": 1}}}}})",
            table);
  CHECK(layouts.size() == 2);
  // Entries set apart another way: another layout too, once known.
  LearnFrom(layouts, SubsetHint("4", {"b", "c"}, {1, 2}), table);
  std::string apart = SubsetHint("5", {"b", "c"}, {1, 2});
  apart.replace(apart.find("}, \"c\""), 4, "},\"c");
  LearnFrom(layouts, apart, table);
  CHECK(layouts.size() == 3);
  CheckReadAsDecoder(layouts, apart, table);
  CheckReadAsDecoder(layouts, SubsetHint("6", {"b", "c"}, {3, 4}), table);

  // Up to kMaxEntryLayouts: every mask of four keys but none (15), then
  // one more layout (passed-over keys). The next is left to the entries'
  // punctuation, and one punctuated otherwise is a layout apart.
  LineLayouts full;
  // (The first of two entries, so that the layout knows how they are set
  // apart.)
  LearnFrom(full, SubsetHint("0", {"b", "c"}, {1, 1}), table);
  for (unsigned mask = 2; mask < 16; ++mask) LearnFrom(full, SubsetHint("0", {"b"}, {mask}), table);
  LearnFrom(full, R"({"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"x": 1}}}}})", table);
  CHECK(full.size() == 1);
  const std::string y = R"({"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"y": 1}}}}})";
  CheckReadAsDecoder(full, y, table);
  LearnFrom(full, y, table);
  CHECK(full.size() == 1);
  const std::string compact = R"({"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"y":1}}}}})";
  TraceEvent event;
  CHECK_FALSE(Read(full, compact, table, event));
  LearnFrom(full, compact, table);
  CHECK(full.size() == 2);
  CheckReadAsDecoder(full, compact, table);
  for (unsigned mask = 1; mask < 16; ++mask)
    CheckReadAsDecoder(full, SubsetHint("1", {"b", "c"}, {mask, 16 - mask}), table);
}

TEST_CASE("LineLayouts agrees with the decoder on random hints whose entries leave out random keys") {
  InstanceTable table = TwoInstances();
  table.Intern("c");
  const std::vector<std::string> ids = {"inst-1", "b", "c", "unseen"};
  LineLayouts layouts;
  std::mt19937_64 random(37);
  int read = 0;
  for (int i = 0; i < 5000; ++i) {
    std::vector<std::string> named;
    std::vector<unsigned> masks;
    for (const std::string& id : ids) {
      if (random() % 4 == 0) continue;
      named.push_back(id);
      masks.push_back(static_cast<unsigned>(random() % 16));  // 0: an empty entry
    }
    const std::string text = SubsetHint(std::to_string(i), named, masks, static_cast<unsigned>(i));
    INFO(text);
    TraceEvent expected, got;
    REQUIRE(DecodeGenerally(text, table, 0.0, expected));
    if (Read(layouts, text, table, got)) {
      CheckSameEvent(got, expected);
      ++read;
    } else {
      LearnFrom(layouts, text, table);
    }
  }
  // Sixteen entry layouts in all (the empty one too), learned early on.
  CHECK(read > 4800);
}

// Values of a key the decoder passes over, and whether the layouts read
// past them (plain) rather than leave their line to the general path.
const std::pair<std::string, bool> kPassedValues[] = {
    {R"("")", true},
    {R"("r-\u0031\n")", true},
    {"false", true},
    {"{}", true},
    {R"({"request_id": "r-1", "model": "m", "prompt_tokens": 12, "stream": true})", true},
    {R"([0.5, -1, "x", null])", true},
    {R"({"a": 1, "b": 2, "a": 3})", false},
    {R"({"a": [1]})", true},
    {R"([{}])", true},
    {R"([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}])", true},
    {R"([{"a": 1, "a": 2}])", false},
    {R"([{"n": 1e5}])", true},
    {R"([{"n": 1e-300, "m": -2.5E+299}])", true},
    {R"([{"n": 1e301}])", false},
    {R"({"k\u0065y": 1})", false},
    {"[1,]", false},
    {R"({"a" 1})", false},
};

TEST_CASE("LineLayouts agrees with the decoder on random Proxy hints, their totals included") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, ProxyHintArrival("0", ProxyHintNumbers("7", "1", "0.0")), table);
  std::mt19937_64 random(43);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    bool plain = true;
    std::vector<std::string> numbers;
    for (std::size_t k = 0; k < 2 + 2 * 9; ++k) {
      // The totals, and in each entry the two times no queue field names.
      const bool passed = k < 2 || (k - 2) % 9 == 6 || (k - 2) % 9 == 7;
      if (passed && random() % 4 == 0) {
        // A value of another kind: read past when it is flat.
        const auto& [text, flat] = kPassedValues[random() % std::size(kPassedValues)];
        plain = plain && flat;
        numbers.push_back(text);
        continue;
      }
      const Number n = random() % 3 ? Number{std::to_string(random() % 30)} : RandomNumber(random);
      plain = plain && (passed ? PassedOver(n) : n.plain || n.text == "null");
      numbers.push_back(n.text);
    }
    read += ReadsAsDecoder(layouts, ProxyHintArrival("1", numbers), table, plain);
  }
  CHECK(read > 1000);
}

TEST_CASE("LineLayouts agrees with the decoder on random entries read by their punctuation") {
  // Learned from the Proxy's entries of nine keys; read: entries of any of
  // those keys and others (whose values may be of any kind a passed-over
  // key takes), in any order, a key maybe repeated (which the decoder
  // refuses), now and then with a colon punctuated otherwise.
  InstanceTable table = TwoInstances();
  table.Intern("c");
  LineLayouts layouts;
  LearnFrom(layouts, ProxyHintArrival("0", ProxyHintNumbers("7", "1", "0.0")), table);
  const std::vector<std::string> keys = {
      "prepare_queue_depth", "ready_queue_depth",  "active_prepare",        "active_ready",
      "pending_prefill_count", "active_decode_count", "next_slot_ready_in_ms",
      "prefill_free_in_ms", "predicted_total_backlog_ms", "queue_depth", "x", "num_running"};
  const std::vector<std::string> ids = {"inst-1", "b", "c", "unseen"};
  std::mt19937_64 random(47);
  int read = 0, shuffled_read = 0;
  for (int i = 0; i < 20000; ++i) {
    bool plain = true;  // whether the layout must read it, if valid
    bool shuffled = false;  // an entry's keys out of the learned order
    std::string map;
    const std::size_t entries = random() % 4;
    for (std::size_t e = 0; e < entries; ++e) {
      map += (e > 0 ? ", \"" : "\"") + ids[random() % ids.size()] + "\": {";
      const std::size_t count = random() % 7;
      plain = plain && count > 0;  // {}: no learned entry is empty
      for (std::size_t k = 0, last = 0; k < count; ++k) {
        const std::size_t key = random() % keys.size();
        shuffled = shuffled || key < last;
        last = key;
        const bool compact = random() % 32 == 0;
        plain = plain && !compact;
        // A queue field's number, or the value of a key passed over.
        const bool passed = QueueFieldIndex(keys[key]) == kQueueFields.size();
        std::string value;
        if (passed && random() % 4 == 0) {
          const auto& [text, flat] = kPassedValues[random() % std::size(kPassedValues)];
          plain = plain && flat;
          value = text;
        } else {
          const Number n =
              random() % 4 ? Number{std::to_string(random() % 50)} : RandomNumber(random);
          plain = plain && (passed ? PassedOver(n) : n.plain || n.text == "null");
          value = n.text;
        }
        map += (k > 0 ? ", \"" : "\"") + keys[key] + (compact ? "\":" : "\": ") + value;
      }
      map += "}";
    }
    const std::string text =
        R"({"t": 1, "type": "arrival", "request": "r-1", "hint": {"queue_depths": {"prepare_queue_depth": 3, "ready_queue_depth": 4, "per_instance": {)" +
        map + "}}}}";
    const bool fast = ReadsAsDecoder(layouts, text, table, plain);
    read += fast;
    shuffled_read += fast && shuffled;
  }
  CHECK(read > 6000);
  CHECK(shuffled_read > 1500);
}

TEST_CASE("LineLayouts agrees with the decoder on random lines with keys it passes over") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t":0,"type":"arrival","user":"u","request":"r","n":1,"duration":1})",
            table);
  std::mt19937_64 random(41);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    const Number t = RandomNumber(random), n = RandomNumber(random), d = RandomNumber(random);
    const std::string user = RandomId(random).first;
    const std::string request = RandomId(random).first;
    const std::string text = Join({"{\"t\":", t.text, ",\"type\":\"arrival\",\"user\":\"", user,
                                   "\",\"request\":\"", request, "\",\"n\":", n.text,
                                   ",\"duration\":", d.text, "}"});
    // A key passed over also takes a sign, and any string the scanner
    // accepts (the user's plainness does not matter).
    // Any value a passed-over key takes: a number of another kind than
    // the layout's slot is read by the line's punctuation.
    const bool n_plain = PassedOver(n);
    const bool plain = t.plain && n_plain && d.plain && RequestSlotTakes(request);
    read += ReadsAsDecoder(layouts, text, table, plain);
  }
  CHECK(read > 1000);
}

TEST_CASE("LineLayouts reads a line laid out like none it keeps by its punctuation, as the decoder does") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r", "duration": 1})", table);
  REQUIRE(layouts.size() == 1);
  // Its layout is learned: it reads the next line laid out like it.
  CheckReadAsDecoder(layouts, R"({"duration": 2, "request": "r-2", "type": "arrival", "t": 1})", table);
  CHECK(layouts.size() == 2);
  // Keys in another order, or some left out, or others the decoder passes
  // over, as a writer that leaves out what it has no value for writes them.
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "user": "u", "stream": true, "priority": -1, "meta": {"a": [1]}})",
           R"({"t": 1, "type": "arrival", "input_tokens": 12, "output_tokens": 3, "duration": 0.5})",
           R"({"t": 1, "type": "arrival", "instance": "b", "inflight": null, "qps_1m": 2.5})",
           R"({"t": 1, "type": "arrival", "hint": null, "request": "r-3"})",
           R"({"type": "load", "t": 2, "instance": "b", "qps_1m": null, "inflight": 3, "source": "hb"})",
           R"({"t": 2, "type": "load", "instance": "unseen"})",
           R"({"t": 2, "type": "load", "instance": "inst-1", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8})",
       }) {
    CheckReadAsDecoder(layouts, text, table);
  }

  // What the decoder refuses stays refused: a key twice (one it reads or
  // one it passes over), no time, no Instance for a load.
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "t": 2})",
           R"({"type": "arrival", "t": 1, "duration": 2, "duration": 2})",
           R"({"t": 1, "type": "arrival", "u": 1, "u": 2})",
           R"({"t": 1, "type": "arrival", "u": 1, "v": 2, "u": "x"})",
           R"({"type": "arrival", "duration": 1})",
           R"({"t": 1, "type": "load", "inflight": 2})",
           R"({"t": 1, "type": "arrival", "duration": 1)",
       }) {
    CheckRefusedBothWays(layouts, text, table);
  }
  // The general path's, valid or not: another punctuation, a key the
  // decoder reads that these readers do not, a key with an escape, empty
  // or too long, a ninth passed-over key, a hint of another shape, a value
  // no slot takes, an arrival's key on a load.
  for (const std::string& text : std::vector<std::string>{
           R"({"t":1,"type":"arrival","duration":2})",
           R"({"t": 1,"type": "arrival", "user": "u"})",
           R"({"t": 1, "type": "arrival", "speed": 2})",
           R"({"t": 1, "type": "arrival", "\u0075ser": 1})",
           R"({"t": 1, "type": "arrival", "": 1})",
           R"({"t": 1, "type": "arrival", "key-of-sixty-five-bytes-------------------------------------ends-": 1})",
           R"({"t": 2, "type": "arrival", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9})",
           R"({"t": 1, "type": "arrival", "hint": { }})",
           R"({"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 1}}}}})",
           R"({"t": 1, "type": "arrival", "duration": 1e3})",
           R"({"t": 1, "type": "arrival", "type": "load"})",
           R"({"t": 1, "type": "load", "instance": "b", "duration": 1})",
           R"({"t": 1, "type": "load", "instance": "b", "hint": null})",
           R"({"t": 1, "type": "up", "instance": "b"})",
       }) {
    ReadsAsDecoder(layouts, text, table, false);
  }
}

TEST_CASE("LineLayouts stops learning while most lines fit no layout, and tries again later") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 0, "type": "arrival"})", table);
  // Lines of a new layout each: the first few are learned, then, most
  // lines fitting no layout, none is (learning would only push out the
  // layouts kept), but each is still read.
  const auto keyed = [](int k) {
    return R"({"t": 1, "type": "arrival", "k)" + std::to_string(k) + R"(": 1})";
  };
  for (int k = 0; k < 20; ++k) CheckReadAsDecoder(layouts, keyed(k), table);
  const std::size_t learned = layouts.size();
  CHECK(learned > 2);
  CHECK(learned < LineLayouts::kMaxLayouts);
  // 4096 lines after the first one not learned (all of them fitting no
  // layout, so neither the one that fitted last), the layouts are tried in
  // turn again, and those of the next lines learned.
  const auto alternating = [&](int lines) {
    for (int i = 0; i < lines; ++i) CheckReadAsDecoder(layouts, keyed(100 + i % 2), table);
  };
  alternating(4096 - 20);
  CHECK(layouts.size() == learned);
  alternating(20);
  CHECK(layouts.size() == learned + 2);
}

TEST_CASE("LineLayouts reads by the punctuation of the layout it learned last") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  const std::string spaced = R"({"duration": 2, "type": "arrival", "t": 1})";
  const std::string compact = R"({"duration":2,"type":"arrival","t":1})";
  LearnFrom(layouts, R"({"t": 0, "type": "arrival"})", table);
  CHECK(ReadsAsDecoder(layouts, spaced, table, true));
  CHECK_FALSE(ReadsAsDecoder(layouts, compact, table, false));
  LearnFrom(layouts, R"({"t":0,"type":"load","instance":"b"})", table);
  CHECK(ReadsAsDecoder(layouts, compact, table, true));
  CHECK_FALSE(ReadsAsDecoder(layouts, R"({"type": "arrival", "t": 1})", table, false));
  // A run that wants each hint's text reads a line with a hint, even null,
  // the general way.
  LineLayouts raw_hints(false);
  LearnFrom(raw_hints, R"({"t":0,"type":"arrival"})", table);
  CHECK(ReadsAsDecoder(raw_hints, R"({"type":"arrival","t":1,"user":"u"})", table, true));
  CHECK_FALSE(ReadsAsDecoder(raw_hints, R"({"type":"arrival","t":1,"hint":null})", table, false));
  CHECK_FALSE(ReadsAsDecoder(raw_hints, R"({"type":"arrival","t":1,"hint":{}})", table, false));
  // Punctuated two ways in one line (between members, or between key and
  // value): none is learned from it.
  LearnFrom(layouts, R"({"t": 0,"type": "arrival", "user": 1})", table);
  CHECK(ReadsAsDecoder(layouts, R"({"type":"arrival","t":1})", table, true));
  LearnFrom(layouts, R"({"t": 0, "type":"arrival", "user":1})", table);
  CHECK(ReadsAsDecoder(layouts, R"({"type":"arrival","t":1})", table, true));
  CHECK_FALSE(ReadsAsDecoder(layouts, R"({"type":"arrival", "t":1})", table, false));
}

TEST_CASE("LineLayouts reads a hint in a line laid out otherwise by a kept hinted layout") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  const std::vector<std::string> numbers = {"1", "2", "3", "4.5", "5"};
  const std::string learned = HintedArrival("0", numbers);
  LearnFrom(layouts, learned, table);
  REQUIRE(layouts.size() == 1);
  const std::string hint = learned.substr(learned.find(R"({"queue_depths")"),
                                          learned.size() - 1 - learned.find(R"({"queue_depths")"));
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "user": "u", "hint": )" + hint + "}",
           R"({"hint": )" + hint + R"(, "request": "r-2", "type": "arrival", "t": 1, "duration": 3})",
       }) {
    const TraceEvent got = CheckReadAsDecoder(layouts, text, table);
    REQUIRE(got.hint.queues.size() == 2);  // "c" is not registered
    CHECK(got.hint.queues[1].load.value[7] == 4.5);
  }
  // A hinted line read so is not learned: hints have layouts of their own.
  CHECK(layouts.size() == 1);
  // An Instance twice is the general path's to report.
  const std::string twice = HintedArrival("0", numbers, {"inst-1", "b", "b"});
  CheckRefusedBothWays(
      layouts,
      R"({"t": 1, "type": "arrival", "user": "u", "hint": )" +
          twice.substr(twice.find(R"({"queue_depths")"), twice.size() - 1 - twice.find(R"({"queue_depths")")) +
          "}",
      table);
}

TEST_CASE("LineLayouts agrees with the decoder on random lines of random keys in random order") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts;
  LearnFrom(layouts, R"({"t": 0, "type": "arrival", "request": "r", "duration": 1})", table);
  std::mt19937_64 random(57);
  int clean_read = 0, noisy_read = 0, noisy_general = 0;
  for (int i = 0; i < 30000; ++i) {
    // A clean line: an arrival or a load with plain values, each key once.
    // A noisy one may repeat a key, leave out one a load needs, hold a
    // value no slot takes or a key the decoder reads that these do not.
    const bool noisy = random() % 2 == 0;
    const bool load = random() % 3 == 0;
    std::vector<std::pair<std::string, std::string>> members = {
        {"t", Number{std::to_string(random() % 1000) + "." + std::to_string(random() % 1000)}.text},
        {"type", load ? "\"load\"" : "\"arrival\""}};
    const auto maybe = [&](const std::string& key, const std::string& value) {
      if (random() % 2 == 0) members.emplace_back(key, value);
    };
    if (load) {
      members.emplace_back("instance", random() % 2 ? "\"b\"" : "\"unseen\"");
      maybe("inflight", random() % 4 ? std::to_string(random() % 20) : "null");
      maybe("qps_1m", random() % 4 ? std::to_string(random() % 20) + ".5" : "null");
    } else {
      maybe("request", "\"r-" + std::to_string(random() % 100) + "\"");
      maybe("duration", std::to_string(random() % 50) + ".25");
      maybe("input_tokens", std::to_string(random() % 5000));
      maybe("output_tokens", std::to_string(random() % 500));
      maybe("hint", random() % 2 ? "{}" : "null");
    }
    for (const char* key : {"user", "stream", "meta", "tags"})
      maybe(key, kPassedValues[random() % 6].first);  // the plain ones
    if (noisy) {
      switch (random() % 6) {
        case 0: members.push_back(members[random() % members.size()]); break;
        case 1: members.erase(members.begin() + static_cast<std::ptrdiff_t>(random() % members.size())); break;
        case 2: members.emplace_back("weight", "2"); break;
        case 3: members[random() % members.size()].second = RandomNumber(random).text; break;
        case 4: members.emplace_back(load ? "duration" : "instance", "\"b\""); break;
        default: members.emplace_back("extra", kPassedValues[random() % std::size(kPassedValues)].first); break;
      }
    }
    std::shuffle(members.begin(), members.end(), random);
    std::string text = "{";
    for (std::size_t m = 0; m < members.size(); ++m)
      text += (m ? ", \"" : "\"") + members[m].first + "\": " + members[m].second;
    text += "}";
    INFO(text);
    TraceEvent expected, got;
    const bool accepted = DecodeGenerally(text, table, 0.0, expected);
    const bool fast = Read(layouts, text, table, got);
    if (!noisy) {
      REQUIRE(accepted);
      CHECK(fast);
    }
    if (fast) {
      REQUIRE(accepted);
      CheckSameEvent(got, expected);
    }
    if (noisy) {
      noisy_read += fast;
      noisy_general += accepted && !fast;
    } else {
      clean_read += fast;
    }
  }
  CHECK(clean_read > 10000);
  CHECK(noisy_read > 3000);
  CHECK(noisy_general > 500);
}

// A document's events array: an element ends where its layout does, and
// what follows it (',', ']', whitespace) is the reader's. Elements of a
// pretty-printed document span lines, and their layouts with them.
TEST_CASE("LineLayouts for a document's elements reads an element up to its end, across lines") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts(true, false);
  const std::string pretty_hint =
      "{\n    \"t\": 0,\n    \"type\": \"arrival\",\n    \"hint\": {\n      \"queue_depths\": {\n"
      "        \"per_instance\": {\n          \"inst-1\": {\n            \"active_prepare\": 1\n"
      "          },\n          \"b\": {\n            \"active_prepare\": 2\n          }\n"
      "        }\n      }\n    }\n  }";
  LearnUsualLayouts(layouts, table);
  LearnFrom(layouts, pretty_hint, table);
  REQUIRE(layouts.size() == 3);
  for (const std::string& element : std::vector<std::string>{
           R"({"t": 1, "type": "arrival", "duration": 4})",
           R"({"t": 2, "type": "load", "instance": "b", "inflight": 3, "qps_1m": 0.5})",
           "{\n    \"t\": 3.5,\n    \"type\": \"arrival\",\n    \"hint\": {\n      \"queue_depths\": {\n"
           "        \"per_instance\": {\n          \"b\": {\n            \"active_prepare\": 7\n"
           "          },\n          \"inst-1\": {\n            \"active_prepare\": 0\n          }\n"
           "        }\n      }\n    }\n  }",
       }) {
    INFO(element);
    TraceEvent expected;
    REQUIRE(DecodeGenerally(element, table, 0.0, expected));
    for (const std::string after : {",", ",\n  ", "]", "\n]", " ]}"}) {
      // The event's ids are views into the text read: it outlives them.
      const std::string buffered = element + after;
      TraceEvent got;
      std::size_t size = 0;
      layouts.Forget();
      REQUIRE(layouts.Read(buffered, table, 0.0, got, size));
      CHECK(size == element.size());
      CheckSameEvent(got, expected);
      CHECK(layouts.Validate(buffered) == element.size());
    }
    // Cut short: not read, not vouched for.
    TraceEvent got;
    std::size_t size = 0;
    CHECK_FALSE(layouts.Read(element.substr(0, element.size() - 1), table, 0.0, got, size));
    CHECK(layouts.Validate(element.substr(0, element.size() - 1)) == 0);
  }
  // As JSON Lines, the same layouts take a line only up to its '\n'.
  LineLayouts lines;
  LearnUsualLayouts(lines, table);
  TraceEvent got;
  std::size_t size = 0;
  CHECK_FALSE(lines.Read(R"({"t": 1, "type": "arrival", "duration": 4},)", table, 0.0, got, size));
  CHECK(lines.Read(R"({"t": 1, "type": "arrival", "duration": 4})" "\n", table, 0.0, got, size));
}

// What Validate vouches for, a document's first pass does not scan: each
// must be a value JsonScanner accepts, its keys unique. Checked on a hint
// naming an Instance twice and on random bytes changed in hinted elements.
TEST_CASE("LineLayouts::Validate vouches only for values the JSON scanner accepts") {
  InstanceTable table = TwoInstances();
  LineLayouts layouts(true, false);
  const std::vector<std::string> plain = {"1", "2", "3", "4", "5"};
  LearnFrom(layouts, HintedArrival("0", plain), table);
  LearnUsualLayouts(layouts, table);
  JsonScanner scanner;
  JsonView value;
  const std::string twice = HintedArrival("3", plain, {"inst-1", "b", "b"});
  REQUIRE(scanner.ScanText(twice, value) == JsonScanner::Status::kDuplicateKey);
  CHECK(layouts.Validate(twice + ",") == 0);
  const std::string unregistered_twice = HintedArrival("3", plain, {"d", "b", "d"});
  CHECK(layouts.Validate(unregistered_twice + ",") == 0);
  const std::string fine = HintedArrival("3", plain, {"d", "b", "e"});
  CHECK(layouts.Validate(fine + ",") == fine.size());

  std::mt19937_64 random(23);
  const std::vector<std::string> elements = {
      HintedArrival("12.5", {"0", "10", "null", "2.25", "7"}),
      R"({"t": 1, "type": "arrival", "duration": 4})",
      R"({"t": 7, "type": "load", "instance": "inst-1", "inflight": 2, "qps_1m": 9})"};
  const std::string bytes = "\"\\{}[]:, 0123456789.-eEnul\x01\x7f\xc3";
  int vouched = 0, changed_vouched = 0;
  for (int i = 0; i < 40000; ++i) {
    std::string text = elements[random() % elements.size()];
    const bool change = i % 8 != 0;
    if (change) {
      const std::size_t at = random() % text.size();
      const char byte = bytes[random() % bytes.size()];
      switch (random() % 3) {
        case 0: text[at] = byte; break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte); break;
        default: text.erase(at, 1); break;
      }
    }
    const std::size_t size = layouts.Validate(text + ",");
    if (size == 0) continue;
    INFO(text);
    REQUIRE(size <= text.size());
    const std::string element = text.substr(0, size);  // then the NUL the scanner wants
    CHECK(scanner.ScanText(std::string_view(element.c_str(), element.size()), value) ==
          JsonScanner::Status::kOk);
    ++vouched;
    changed_vouched += change;
  }
  CHECK(vouched > 5000);
  CHECK(changed_vouched > 1000);  // changed numbers and ids, still valid
}

}  // namespace
}  // namespace lbsim
