// Trace validation (trace-format.md): every rule broken gives one InputError
// line naming the file, the line (JSON Lines, 1-based) or events[i] (JSON
// document, 0-based), the field and what was expected; odd but valid
// traces replay. Messages are compared whole, with the path shown as FILE.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/errors.h"
#include "replay_fixture.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using testing::ReadError;
using testing::ReplayText;

// A valid JSON Lines header registering Instance a.
const std::string kHeader = R"({"lbsim_trace": 1, "instances": [{"id": "a"}]})"
                            "\n";

// The error for a JSON Lines trace of kHeader followed by `events`.
std::string EventError(std::string_view events) { return ReadError(kHeader + std::string(events)); }

// The error for a JSON Lines trace whose header has `instances`.
std::string InstancesError(std::string_view instances) {
  return ReadError(R"({"lbsim_trace": 1, "instances": )" + std::string(instances) + "}\n");
}

// The error for a JSON document with the given top-level keys and events.
std::string DocumentError(std::string_view keys, std::string_view events) {
  return ReadError("{" + std::string(keys) + R"(, "events": [)" + std::string(events) + "]}",
                   "trace.json");
}

// --- header -------------------------------------------------------------

TEST_CASE("validation: lbsim_trace missing") {
  CHECK(ReadError(R"({"name": "x"})"
                  "\n") ==
        R"(FILE:1: header: field "lbsim_trace": expected the integer 1 (trace format version), but it is missing)");
}

TEST_CASE("validation: lbsim_trace of the wrong type") {
  for (std::string_view v : {R"("1")", "1.0", "true", "null", "[1]"}) {
    CAPTURE(v);
    CHECK(ReadError(R"({"lbsim_trace": )" + std::string(v) + "}\n") ==
          R"(FILE:1: header: field "lbsim_trace": expected the integer 1 (trace format version), got )" +
              std::string(v));
  }
}

TEST_CASE("validation: lbsim_trace of another version") {
  for (std::string_view v : {"2", "0", "-1", "100"}) {
    CAPTURE(v);
    CHECK(ReadError(R"({"lbsim_trace": )" + std::string(v) + "}\n") ==
          R"(FILE:1: header: field "lbsim_trace": unsupported trace format version )" +
              std::string(v) + "; this lbsim reads version 1");
  }
}

TEST_CASE("validation: a header key one or two edits from a known key is refused, naming it") {
  // "instance" for "instances" would otherwise be ignored: a run with no
  // Instances, exit 0.
  CHECK(ReadError(R"({"lbsim_trace": 1, "instance": [{"id": "a"}]})"
                  "\n") ==
        R"(FILE:1: header: field "instance": not a header key; did you mean "instances"? (unknown keys are ignored, but not one this close to a known key))");
  CHECK(ReadError(R"({"lbsim_trace": 1, "time_units": "ms"})"
                  "\n") ==
        R"(FILE:1: header: field "time_units": not a header key; did you mean "time_unit"? (unknown keys are ignored, but not one this close to a known key))");
  CHECK(InstancesError(R"([{"id": "a"}, {"id": "b", "wieght": 2}])") ==
        R"(FILE:1: header: instances[1]: field "wieght": not a key of a header Instance; did you mean "weight"? (unknown keys are ignored, but not one this close to a known key))");
  // The same in a document's header.
  CHECK(DocumentError(R"("lbsim_trace": 1, "proxxy": "spec", "instances": [])", "") ==
        R"(FILE: header: field "proxxy": not a header key; did you mean "proxy"? (unknown keys are ignored, but not one this close to a known key))");
}

TEST_CASE("validation: the header is not an object") {
  CHECK(ReadError("[1]\n") == "FILE:1: header: expected the header object, got [1]");
  CHECK(ReadError("\"trace\"\n") == R"(FILE:1: header: expected the header object, got "trace")");
}

TEST_CASE("validation: name and description must be strings") {
  CHECK(ReadError(R"({"lbsim_trace": 1, "name": 5})"
                  "\n") == R"(FILE:1: header: field "name": expected a string, got 5)");
  CHECK(ReadError(R"({"lbsim_trace": 1, "name": null})"
                  "\n") == R"(FILE:1: header: field "name": expected a string, got null)");
  CHECK(ReadError(R"({"lbsim_trace": 1, "description": ["x"]})"
                  "\n") == R"(FILE:1: header: field "description": expected a string, got ["x"])");
}

TEST_CASE("validation: time_unit must be \"s\" or \"ms\"") {
  for (std::string_view v : {R"("us")", R"("S")", R"("")", "1", "null"}) {
    CAPTURE(v);
    CHECK(ReadError(R"({"lbsim_trace": 1, "time_unit": )" + std::string(v) + "}\n") ==
          R"(FILE:1: header: field "time_unit": expected "s" or "ms", got )" + std::string(v));
  }
}

TEST_CASE("validation: prefix_block_tokens must be an integer from 1 to 2^32") {
  for (const char* v : {"0", "-1", "1.5", "\"512\"", "null", "4294967297"})
    CHECK(ReadError(R"({"lbsim_trace": 1, "prefix_block_tokens": )" + std::string(v) + "}\n") ==
          R"(FILE:1: header: field "prefix_block_tokens": expected an integer from 1 to 2^32 )"
          R"((prompt tokens per prefix_blocks id), got )" + std::string(v));
}

TEST_CASE("validation: instances must be an array of objects") {
  for (std::string_view v : {"{}", R"("a")", "3", "null"}) {
    CAPTURE(v);
    CHECK(InstancesError(v) ==
          R"(FILE:1: header: field "instances": expected an array of Instance objects, got )" +
              std::string(v));
  }
  CHECK(InstancesError(R"([{"id": "a"}, "b"])") ==
        R"(FILE:1: header: instances[1]: expected an Instance object, got "b")");
}

TEST_CASE("validation: header Instance ids") {
  const std::string expected = R"(field "id": expected a non-empty string (an Instance id), )";
  CHECK(InstancesError(R"([{"weight": 2}])") ==
        "FILE:1: header: instances[0]: " + expected + "but it is missing");
  CHECK(InstancesError(R"([{"id": ""}])") == "FILE:1: header: instances[0]: " + expected + R"(got "")");
  CHECK(InstancesError(R"([{"id": 5}])") == "FILE:1: header: instances[0]: " + expected + "got 5");
  CHECK(InstancesError(R"([{"id": null}])") == "FILE:1: header: instances[0]: " + expected + "got null");
  CHECK(InstancesError(R"([{"id": "a"}, {"id": "b"}, {"id": "a"}])") ==
        R"(FILE:1: header: instances[2]: field "id": expected a unique Instance id, got "a" again)");
}

TEST_CASE("validation: header Instance weight must be a number > 0") {
  for (std::string_view v : {"0", "-1", "-0.5", R"("2")", "true", "null"}) {
    CAPTURE(v);
    CHECK(InstancesError(R"([{"id": "a", "weight": )" + std::string(v) + "}]") ==
          R"(FILE:1: header: instances[0]: field "weight": expected a finite number > 0, got )" +
              std::string(v));
  }
}

TEST_CASE("validation: header Instance inflight must be an integer >= 0 or null") {
  for (std::string_view v : {"1.5", "1.0", "-1", R"("3")", "true", "false", "[]", "9007199254740993"}) {
    CAPTURE(v);
    CHECK(InstancesError(R"([{"id": "a", "inflight": )" + std::string(v) + "}]") ==
          R"(FILE:1: header: instances[0]: field "inflight": expected an integer >= 0 (at most 2^53) or null, got )" +
              std::string(v));
  }
}

TEST_CASE("validation: header Instance qps_1m must be a number >= 0 or null") {
  for (std::string_view v : {"-1", "-0.01", R"("3")", "true", "{}"}) {
    CAPTURE(v);
    CHECK(InstancesError(R"([{"id": "a", "qps_1m": )" + std::string(v) + "}]") ==
          R"(FILE:1: header: instances[0]: field "qps_1m": expected a finite number >= 0 or null, got )" +
              std::string(v));
  }
}

TEST_CASE("validation: header Instance alive must be a boolean") {
  for (std::string_view v : {R"("yes")", "1", "0", "null"}) {
    CAPTURE(v);
    CHECK(InstancesError(R"([{"id": "a", "alive": )" + std::string(v) + "}]") ==
          R"(FILE:1: header: instances[0]: field "alive": expected true or false, got )" +
              std::string(v));
  }
}

TEST_CASE("validation: a JSON Lines header must not hold events") {
  CHECK(ReadError(R"({"lbsim_trace": 1, "events": []})"
                  "\n") ==
        R"(FILE:1: header: field "events": not allowed in a JSON Lines header (events follow it one per line))");
}

TEST_CASE("validation: a JSON document needs an events array") {
  CHECK(ReadError(R"({"lbsim_trace": 1})", "trace.json") ==
        R"(FILE: header: field "events": expected an array of events, but it is missing)");
  for (std::string_view v : {"5", R"("x")", "null", "true"}) {
    CAPTURE(v);
    CHECK(ReadError(R"({"lbsim_trace": 1, "events": )" + std::string(v) + "}", "trace.json") ==
          R"(FILE: header: field "events": expected an array of events, got )" + std::string(v));
  }
  CHECK(ReadError(R"({"lbsim_trace": 1, "events": {}})", "trace.json") ==
        R"(FILE: header: field "events": expected an array of events, got an object)");
  CHECK(ReadError(R"({"lbsim_trace": 1, "events": [], "events": []})", "trace.json") ==
        R"(FILE: field "events": appears twice in the document)");
}

TEST_CASE("validation: a JSON document is one object") {
  CHECK(ReadError("[]", "trace.json") ==
        "FILE: expected a JSON object at the top level of a trace document");
  CHECK(ReadError("3", "trace.json") ==
        "FILE: expected a JSON object at the top level of a trace document");
}

TEST_CASE("validation: header errors in a JSON document name the header, not a line") {
  CHECK(DocumentError(R"("lbsim_trace": 2)", "") ==
        R"(FILE: header: field "lbsim_trace": unsupported trace format version 2; this lbsim reads version 1)");
  CHECK(DocumentError(R"("lbsim_trace": 1, "instances": [{"id": "a", "inflight": -3}])", "") ==
        R"(FILE: header: instances[0]: field "inflight": expected an integer >= 0 (at most 2^53) or null, got -3)");
  CHECK(DocumentError(R"("lbsim_trace": 1, "time_unit": "h")", "") ==
        R"(FILE: header: field "time_unit": expected "s" or "ms", got "h")");
}

// --- events -------------------------------------------------------------

TEST_CASE("validation: t missing or not a number >= 0") {
  CHECK(EventError(R"({"type": "arrival"})") ==
        R"(FILE:2: field "t": expected a finite number >= 0, but it is missing)");
  for (std::string_view v : {"-1", "-0.5", R"("1")", "true", "false", "null", "[0]"}) {
    CAPTURE(v);
    CHECK(EventError(R"({"type": "arrival", "t": )" + std::string(v) + "}") ==
          R"(FILE:2: field "t": expected a finite number >= 0, got )" + std::string(v));
  }
}

TEST_CASE("validation: t out of order names the later event") {
  CHECK(EventError(R"({"t": 5, "type": "arrival"}
{"t": 5, "type": "arrival"}
{"t": 4.5, "type": "arrival"}
)") == R"(FILE:4: field "t": expected a time >= 5 (events must be in non-decreasing t), got 4.5)");
  CHECK(DocumentError(R"("lbsim_trace": 1)", R"({"t": 1, "type": "arrival"}, {"t": 0, "type": "arrival"})") ==
        R"(FILE: events[1]: field "t": expected a time >= 1 (events must be in non-decreasing t), got 0)");
}

TEST_CASE("validation: an up rejected for its time registers nothing") {
  // The order is checked after every field, but before the id is interned:
  // a rejected event leaves no trace in the table (read ahead or not).
  testing::TempFile file(kHeader + R"({"t": 5, "type": "arrival"}
{"t": 1, "type": "up", "instance": "late", "inflight": 0}
)");
  struct Ignore final : TraceVisitor {
    void OnHeader(const TraceHeader&, const InstanceTable&) override {}
    void OnEvent(const TraceEvent&) override {}
  } visitor;
  InstanceTable table;
  CHECK_THROWS_WITH_AS(ReadTrace(file.path(), TraceEncoding::kAuto, table, visitor),
                       doctest::Contains("field \"t\": expected a time >= 5"), InputError);
  CHECK_FALSE(table.Find("late"));
}

TEST_CASE("validation: type missing or unknown") {
  const std::string expected = R"(field "type": expected one of up, down, remove, load, arrival, )";
  CHECK(EventError(R"({"t": 0})") == "FILE:2: " + expected + "but it is missing");
  for (std::string_view v : {R"("crash")", R"("Arrival")", R"("")", "5", "null"}) {
    CAPTURE(v);
    CHECK(EventError(R"({"t": 0, "type": )" + std::string(v) + "}") ==
          "FILE:2: " + expected + "got " + std::string(v));
  }
}

TEST_CASE("validation: an event is an object") {
  CHECK(EventError("5\n") == "FILE:2: expected an event object, got 5");
  CHECK(EventError("[{\"t\": 0}]\n") == R"(FILE:2: expected an event object, got [{"t":0}])");
  CHECK(DocumentError(R"("lbsim_trace": 1)", R"({"t": 0, "type": "arrival"}, "up")") ==
        R"(FILE: events[1]: expected an event object, got "up")");
}

TEST_CASE("validation: up, down, remove and load need a non-empty string instance") {
  const std::string expected = R"(field "instance": expected a non-empty string (an Instance id), )";
  for (std::string_view type : {"up", "down", "remove", "load"}) {
    CAPTURE(type);
    std::string event = R"({"t": 0, "type": ")" + std::string(type) + "\"";
    CHECK(EventError(event + "}") == "FILE:2: " + expected + "but it is missing");
    CHECK(EventError(event + R"(, "instance": ""})") == "FILE:2: " + expected + R"(got "")");
    CHECK(EventError(event + R"(, "instance": 7})") == "FILE:2: " + expected + "got 7");
    CHECK(EventError(event + R"(, "instance": null})") == "FILE:2: " + expected + "got null");
  }
}

TEST_CASE("validation: down, remove and load must name a registered Instance") {
  for (std::string_view type : {"down", "remove", "load"}) {
    CAPTURE(type);
    CHECK(EventError(R"({"t": 0, "type": ")" + std::string(type) + R"(", "instance": "zzz"})") ==
          R"(FILE:2: field "instance": expected a registered Instance, got "zzz" (never registered))");
    CHECK(EventError(R"({"t": 0, "type": "remove", "instance": "a"}
{"t": 1, "type": ")" + std::string(type) +
                     R"(", "instance": "a"})") ==
          R"(FILE:3: field "instance": expected a registered Instance, got "a" (it was removed))");
  }
  // An id only ever seen in a hint is not registered either.
  CHECK(EventError(R"({"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"q": {"queue_depth": 1}}}}}
{"t": 0, "type": "down", "instance": "q"})") ==
        R"(FILE:3: field "instance": expected a registered Instance, got "q" (never registered))");
  CHECK(DocumentError(R"("lbsim_trace": 1)", R"({"t": 0, "type": "load", "instance": "x", "inflight": 1})") ==
        R"(FILE: events[0]: field "instance": expected a registered Instance, got "x" (never registered))");
}

// Checks that an event of each of `types` for Instance a, with `field`
// set to each of `values`, is rejected with "got VALUE" after `expected`.
void CheckRejected(std::initializer_list<std::string_view> types, std::string_view field,
                   std::initializer_list<std::string_view> values, std::string_view expected) {
  for (std::string_view type : types) {
    for (std::string_view v : values) {
      CAPTURE(type);
      CAPTURE(v);
      std::string event = R"({"t": 0, "type": ")" + std::string(type) + R"(", "instance": "a", ")" +
                          std::string(field) + R"(": )" + std::string(v) + "}";
      CHECK(EventError(event) == R"(FILE:2: field ")" + std::string(field) + R"(": expected )" +
                                     std::string(expected) + ", got " + std::string(v));
    }
  }
}

TEST_CASE("validation: up and load with a mistyped inflight") {
  CheckRejected({"up", "load"}, "inflight", {"1.5", "-1", R"("2")", "true", "{}"},
                "an integer >= 0 (at most 2^53) or null");
}

TEST_CASE("validation: up and load with a mistyped qps_1m") {
  CheckRejected({"up", "load"}, "qps_1m", {"-3", R"("2")", "false", "[]"},
                "a finite number >= 0 or null");
}

TEST_CASE("validation: up with a mistyped weight") {
  CheckRejected({"up"}, "weight", {"0", "-2", R"("2")", "true", "null"}, "a finite number > 0");
}

TEST_CASE("validation: arrival with a mistyped duration or request") {
  CheckRejected({"arrival"}, "duration", {"-1", R"("3")", "true", "null", "{}"},
                "a finite number >= 0");
  CheckRejected({"arrival"}, "request", {"5", "null", "true", R"(["r1"])"},
                "a string (request id)");
}

TEST_CASE("validation: Instance ids in messages are quoted as JSON, so a message stays one line") {
  std::string duplicate = InstancesError(R"([{"id": "a\nb"}, {"id": "a\nb"}])");
  CHECK(duplicate ==
        R"(FILE:1: header: instances[1]: field "id": expected a unique Instance id, got "a\nb" again)");
  std::string unregistered = EventError(R"({"t": 0, "type": "load", "instance": "x\"\ny"})");
  CHECK(unregistered ==
        R"(FILE:2: field "instance": expected a registered Instance, got "x\"\ny" (never registered))");
  CHECK(duplicate.find('\n') == std::string::npos);
  CHECK(unregistered.find('\n') == std::string::npos);
}

TEST_CASE("validation: long values are shortened in messages") {
  std::string name(100, 'x');
  CHECK(EventError(R"({"t": 0, "type": ")" + name + "\"}") ==
        R"(FILE:2: field "type": expected one of up, down, remove, load, arrival, got ")" +
            std::string(36, 'x') + "...");
}

// --- syntax, emptiness, limits ---------------------------------------------

TEST_CASE("validation: invalid JSON names the line and column") {
  CHECK(EventError(R"({"t": 0, "type": "arrival"
)") == "FILE:2: invalid JSON at column 27: syntax error while parsing object - unexpected end of "
       "input; expected '}'");
  CHECK(ReadError("{lbsim_trace: 1}\n") ==
        "FILE:1: invalid JSON at column 2: syntax error while parsing object key - invalid "
        "literal; last read: '{l'; expected string literal");
  CHECK(ReadError("{\"lbsim_trace\": 1,\n \"events\": [}", "trace.json") ==
        "FILE:2:13: invalid JSON: syntax error while parsing value - unexpected '}'; expected "
        "'[', '{', or a literal");
}

TEST_CASE("validation: a number too large for a double is invalid JSON, named like any other error") {
  CHECK(EventError(R"({"t": 1e400, "type": "arrival"})") ==
        "FILE:2: invalid JSON at column 11: number overflow parsing '1e400'");
  CHECK(DocumentError(R"("lbsim_trace": 1)", R"({"t": 0, "type": "arrival"}, {"t": 1, "type": "arrival", "duration": -1e999})") ==
        "FILE: events[1]: invalid JSON: number overflow parsing '-1e999'");
  CHECK(DocumentError(R"("lbsim_trace": 1, "x": [1e999])", "") ==
        R"(FILE: header: field "x": invalid JSON: number overflow parsing '1e999')");
  CHECK(DocumentError(R"("lbsim_trace": 1)", R"({"t": 0, "type": "arrival"}, 1e999)") ==
        "FILE: events[1]: invalid JSON: number overflow parsing '1e999'");
  CHECK(ReadError(R"({"lbsim_trace": 1e999, "events": []})", "trace.json") ==
        R"(FILE: header: field "lbsim_trace": invalid JSON: number overflow parsing '1e999')");
}

TEST_CASE("validation: a number past the double range inside an event's array is named, never thrown") {
  // Nested values keep such numbers (hints read them as Python does), so
  // the field that cannot take one names it in its own error.
  CHECK(EventError(R"({"t": 0, "type": "arrival", "prefix_blocks": [1e400]})") ==
        R"(FILE:2: field "prefix_blocks[0]": expected a block id (an integer >= 0), got 1e400)");
  CHECK(EventError(R"({"t": 0, "type": "arrival", "prefix_blocks": [1, -1E+999]})") ==
        R"(FILE:2: field "prefix_blocks[1]": expected a block id (an integer >= 0), got -1E+999)");
}

TEST_CASE("validation: an empty trace") {
  CHECK(ReadError("") == R"(FILE: empty trace: expected a header line {"lbsim_trace": 1, ...})");
  CHECK(ReadError("\n  \n\t\n") ==
        R"(FILE: empty trace: expected a header line {"lbsim_trace": 1, ...})");
  CHECK(ReadError("", "trace.json") ==
        R"(FILE: empty trace: expected a JSON object {"lbsim_trace": 1, ..., "events": [...]})");
  CHECK(ReadError(" \r\n\t\n", "trace.json") ==
        R"(FILE: empty trace: expected a JSON object {"lbsim_trace": 1, ..., "events": [...]})");
}

TEST_CASE("validation: nesting deeper than the limit") {
  const std::string deep = std::string(kMaxNestingDepth + 10, '[') +
                           std::string(kMaxNestingDepth + 10, ']');
  CHECK(EventError(R"({"t": 0, "type": "arrival", "hint": )" + deep + "}\n") ==
        "FILE:2: nesting deeper than the limit of 512 levels");
  // Exactly at the limit is fine.
  const std::string at_limit = std::string(kMaxNestingDepth - 2, '[') +
                               std::string(kMaxNestingDepth - 2, ']');
  CHECK(EventError(R"({"t": 0, "type": "arrival", "hint": )" + at_limit + "}\n") == "");
}

TEST_CASE("validation: nesting deeper than the limit in a JSON document names the event or header field") {
  const std::string deep = std::string(kMaxNestingDepth + 10, '[') +
                           std::string(kMaxNestingDepth + 10, ']');
  const std::string ok = R"({"t": 0, "type": "arrival"})";
  CHECK(DocumentError(R"("lbsim_trace": 1)", ok + R"(, {"t": 0, "type": "arrival", "hint": )" + deep + "}") ==
        "FILE: events[1]: nesting deeper than the limit of 512 levels");
  CHECK(DocumentError(R"("lbsim_trace": 1)", ok + ", " + ok + ", " + deep) ==
        "FILE: events[2]: nesting deeper than the limit of 512 levels");
  // Deep enough for the builder of the events pass, not for the skipping
  // of the header pass.
  const std::string just_over = std::string(kMaxNestingDepth + 1, '[') +
                                std::string(kMaxNestingDepth + 1, ']');
  CHECK(DocumentError(R"("lbsim_trace": 1)", ok + ", " + just_over) ==
        "FILE: events[1]: nesting deeper than the limit of 512 levels");
  CHECK(DocumentError(R"("lbsim_trace": 1, "x": )" + deep, "") ==
        R"(FILE: header: field "x": nesting deeper than the limit of 512 levels)");
}

TEST_CASE("validation: a file that cannot be read") {
  testing::TempFile dir("", "unused.ndjson");
  try {
    Replay(dir.dir() + "/missing.ndjson", TraceEncoding::kAuto, {testing::Request("rr")});
    FAIL("no error for a missing file");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          dir.dir() + "/missing.ndjson: cannot read trace: No such file or directory");
  }
  try {
    Replay(dir.dir(), TraceEncoding::kLines, {testing::Request("rr")});
    FAIL("no error for a directory");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == dir.dir() + ": cannot read trace: is a directory");
  }
}

TEST_CASE("validation: the encoding comes from the file name, is given, or shows in the content") {
  testing::TempFile file(kHeader, "trace.txt");
  CHECK_NOTHROW(Replay(file.path(), TraceEncoding::kLines, {testing::Request("rr")}));
  CHECK(Replay(file.path(), TraceEncoding::kAuto, {testing::Request("rr")}).counts.events == 0);
  // A header with "events" on one line is a document; so is one over lines.
  testing::TempFile one_line(R"({"lbsim_trace": 1, "events": [{"t": 0, "type": "arrival"}]})",
                             "trace.txt");
  CHECK(Replay(one_line.path(), TraceEncoding::kAuto, {testing::Request("rr")}).counts.arrivals ==
        1);
  testing::TempFile spread("{\n \"lbsim_trace\": 1,\n \"events\": []\n}\n", "trace");
  CHECK(Replay(spread.path(), TraceEncoding::kAuto, {testing::Request("rr")}).counts.events == 0);
  testing::TempFile neither("lbsim_trace: 1\n", "trace");
  CHECK_THROWS_WITH_AS(Replay(neither.path(), TraceEncoding::kAuto, {testing::Request("rr")}),
                       (neither.path() + ": cannot tell the trace encoding: a trace is JSON Lines "
                                         "(a header object on its first line) or a JSON document "
                                         "(an object), but this starts with \"lbsim_trace: 1\"")
                           .c_str(),
                       InputError);
  CHECK(ParseTraceEncoding("auto") == TraceEncoding::kAuto);
  CHECK(ParseTraceEncoding("document") == TraceEncoding::kDocument);
  CHECK(ParseTraceEncoding("json") == TraceEncoding::kDocument);
  CHECK(ParseTraceEncoding("lines") == TraceEncoding::kLines);
  CHECK(ParseTraceEncoding("jsonl") == TraceEncoding::kLines);
  CHECK(ParseTraceEncoding("ndjson") == TraceEncoding::kLines);
  CHECK_THROWS_AS(ParseTraceEncoding("yaml"), UsageError);
}

// --- odd but valid -----------------------------------------------------------

TEST_CASE("valid: unknown extra keys in events and in the header are ignored") {
  CHECK(ReadError(R"({"lbsim_trace": 1, "producer": {"v": [1, 2]}, "instances": [{"id": "a", "zone": "eu", "inflight": 0}]}
{"t": 0, "type": "arrival", "priority": "high", "tags": [1]}
{"t": 0, "type": "load", "instance": "a", "source": "agent", "inflight": 1}
{"t": 0, "type": "down", "instance": "a", "reason": "drain"}
{"t": 0, "type": "up", "instance": "a", "note": null}
{"t": 0, "type": "remove", "instance": "a", "extra": true}
)") == "");
}

TEST_CASE("valid: blank lines anywhere in JSON Lines, and CRLF line ends") {
  auto run = ReplayText("\n  \n" + kHeader + "\n\t\n" +
                            R"({"t": 0, "type": "arrival"})"
                            "\r\n\r\n" +
                            R"({"t": 1, "type": "arrival"})",
                        {"rr"});
  CHECK(run.log.size() == 2);
  CHECK(run.result.counts.events == 2);
  // Line numbers in errors count every physical line, blank ones too.
  CHECK(ReadError("\n" + kHeader + "\n" + R"({"t": 0, "type": "jump"})") ==
        R"(FILE:4: field "type": expected one of up, down, remove, load, arrival, got "jump")");
}

TEST_CASE("valid: load with neither inflight nor qps_1m") {
  CHECK(EventError(R"({"t": 0, "type": "load", "instance": "a"})") == "");
}

TEST_CASE("valid: a UTF-8 byte order mark before the trace") {
  CHECK(ReadError("\xef\xbb\xbf" + kHeader + R"({"t": 0, "type": "arrival"})") == "");
  CHECK(ReadError("\xef\xbb\xbf" R"({"lbsim_trace": 1, "events": [{"t": 0, "type": "arrival"}]})",
                  "trace.json") == "");
}

TEST_CASE("valid: equal times, integer and float times, and the largest inflight") {
  CHECK(EventError(R"({"t": 0, "type": "arrival"}
{"t": 0.0, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 1.0, "type": "arrival"}
{"t": 1, "type": "load", "instance": "a", "inflight": 9007199254740992}
)") == "");
}

TEST_CASE("valid: a header without instances, and an empty instances array") {
  CHECK(ReadError(R"({"lbsim_trace": 1})"
                  "\n") == "");
  CHECK(ReadError(R"({"lbsim_trace": 1, "instances": []})"
                  "\n") == "");
  CHECK(ReadError(R"({"lbsim_trace": 1, "events": []})", "trace.json") == "");
}

TEST_CASE("valid: down of a dead Instance and up of an alive one") {
  CHECK(EventError(R"({"t": 0, "type": "down", "instance": "a"}
{"t": 0, "type": "down", "instance": "a"}
{"t": 0, "type": "up", "instance": "a"}
{"t": 0, "type": "up", "instance": "a"}
)") == "");
}

TEST_CASE("valid: a JSON document's header keys may follow its events") {
  auto run = ReplayText(R"({"events": [{"t": 0, "type": "arrival"}], "lbsim_trace": 1, "instances": [{"id": "a"}], "name": "late"})",
                        {"rr"}, "trace.json");
  CHECK(run.result.header.name == "late");
  CHECK(testing::Picks(run, "round_robin") == std::vector<std::string>{"a/round_robin"});
}

TEST_CASE("valid: .jsonl is JSON Lines too") {
  CHECK(ReadError(kHeader, "trace.jsonl") == "");
}

}  // namespace
}  // namespace lbsim
