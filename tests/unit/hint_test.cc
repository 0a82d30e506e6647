// The arrival's hint (trace-format.md "The hint"): only JSON numbers in
// hint.queue_depths.per_instance[<id>] carry queue load; any other value is
// unknown, and a hint of any other shape carries nothing (not an error).
// Probed with least_load over two Instances of unknown load: a known queue
// value for b makes b the least, otherwise it is the all-unknown fallback.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "replay_fixture.h"

namespace lbsim {
namespace {

using testing::Picks;
using testing::ReplayText;
using Strings = std::vector<std::string>;

// The pick of one least_load decision for an arrival carrying `hint`.
std::string PickWithHint(std::string_view hint) {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}
{"t": 0, "type": "arrival", "hint": )" + std::string(hint) + "}\n");
  return Picks(run).at(0);
}

// A hint giving b the queue key `key` with the JSON text `value`.
std::string QueueHint(std::string_view key, std::string_view value) {
  return R"({"queue_depths": {"per_instance": {"b": {")" + std::string(key) + R"(": )" +
         std::string(value) + "}}}}";
}

TEST_CASE("hint: a JSON number in per_instance makes the load known, for every queue key") {
  for (std::string_view key : kQueueFields) {
    CAPTURE(key);
    CHECK(PickWithHint(QueueHint(key, "3")) == "b/least");
  }
  for (std::string_view value : {"0", "0.0", "-2", "2.5", "1e3", "-0"}) {
    CAPTURE(value);
    CHECK(PickWithHint(QueueHint("queue_depth", value)) == "b/least");
  }
}

TEST_CASE("hint: string, bool, null, object and array values are unknown") {
  for (std::string_view value : {R"("3")", R"("")", "true", "false", "null", "{}",
                                 R"({"value": 3})", "[3]", "[]"}) {
    CAPTURE(value);
    CHECK(PickWithHint(QueueHint("queue_depth", value)) == "a/fallback");
  }
}

TEST_CASE("hint: keys other than the eight queue keys carry nothing") {
  for (std::string_view key : {"inflight", "qps_1m", "QUEUE_DEPTH", "queue-depth", "depth"}) {
    CAPTURE(key);
    CHECK(PickWithHint(QueueHint(key, "3")) == "a/fallback");
  }
}

TEST_CASE("hint: one unknown value does not hide a known one for the same Instance") {
  CHECK(PickWithHint(
            R"({"queue_depths": {"per_instance": {"b": {"queue_depth": "3", "active_ready": 1}}}})") ==
        "b/least");
}

TEST_CASE("hint: a hint of another shape carries no queue information and is not an error") {
  for (std::string_view hint :
       {R"("busy")", "3", "null", "true", "[]", R"([{"queue_depths": {}}])", "{}",
        R"({"queue_depths": 3})", R"({"queue_depths": []})", R"({"queue_depths": {}})",
        R"({"queue_depths": {"per_instance": []}})", R"({"queue_depths": {"per_instance": "b"}})",
        R"({"queue_depths": {"per_instance": {"b": 3}}})",
        R"({"queue_depths": {"per_instance": {"b": [1, 2]}}})",
        R"({"queue_depths": {"per_instance": {"b": null}}})",
        R"({"per_instance": {"b": {"queue_depth": 1}}})",
        R"({"queue_depths": {"b": {"queue_depth": 1}}})",
        R"({"QUEUE_DEPTHS": {"per_instance": {"b": {"queue_depth": 1}}}})"}) {
    CAPTURE(hint);
    CHECK(PickWithHint(hint) == "a/fallback");
  }
}

TEST_CASE("hint: entries for Instances that are not registered are ignored") {
  CHECK(PickWithHint(R"({"queue_depths": {"per_instance": {"zzz": {"queue_depth": 0}, "b": {"active_decode_count": 2}}}})") ==
        "b/least");
  CHECK(PickWithHint(R"({"queue_depths": {"per_instance": {"zzz": {"queue_depth": 0}}}})") ==
        "a/fallback");
}

TEST_CASE("hint: extra keys around the queue values are ignored") {
  CHECK(PickWithHint(
            R"({"model": "x", "queue_depths": {"ts": 5, "per_instance": {"b": {"queue_depth": 1, "note": "hi"}}}})") ==
        "b/least");
}

TEST_CASE("hint: a hint applies to its own arrival only") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"queue_depth": 4}}}}}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"queue_depth": 4}}}}}
)");
  // a: 1 + 1.0 -> b least; no hint -> tie (counter 1 -> b); b: 1 + 1.0 -> a.
  CHECK(Picks(run) == Strings{"b/least", "b/tie", "a/least"});
}

TEST_CASE("hint: queue values add to a known inflight and decide between equal loads") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 2}, {"id": "b", "inflight": 2}, {"id": "c", "inflight": 3}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"pending_prefill_count": 1}, "b": {"queue_depth": 3}}}}}
{"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"predicted_total_backlog_ms": -1500}}}}}
)");
  // a 3.0, b 2.75, c 3 -> b; a 2 - 1.5 = 0.5 -> a.
  CHECK(Picks(run) == Strings{"b/least", "a/least"});
}

}  // namespace
}  // namespace lbsim
