// Event order (trace-format.md "Time, order and the lifecycle counter"):
// one queue ordered by (time, class, sequence); completions (class 0) run
// before trace events (class 1) at equal times; trace events keep file
// order and completions keep the order in which they were scheduled.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "replay_fixture.h"
#include "sim/replay/event_queue.h"

namespace lbsim {
namespace {

using testing::Picks;
using testing::ReplayText;
using Strings = std::vector<std::string>;

TEST_CASE("event order: keys compare by time, then class, then sequence") {
  const EventKey completion_late_seq{5.0, EventClass::kCompletion, 9};
  const EventKey trace_early_seq{5.0, EventClass::kTrace, 1};
  const EventKey earlier_trace{4.0, EventClass::kTrace, 100};
  CHECK(earlier_trace < completion_late_seq);
  CHECK(completion_late_seq < trace_early_seq);
  CHECK(EventKey{5.0, EventClass::kTrace, 1} < EventKey{5.0, EventClass::kTrace, 2});
  CHECK(EventKey{5.0, EventClass::kCompletion, 1} < EventKey{5.0, EventClass::kCompletion, 2});
  // The spec's class 0 (completions) and class 1 (trace events) keep their
  // order; the what-if stale-metrics class sits between them.
  CHECK(static_cast<int>(EventClass::kCompletion) == 0);
  CHECK(EventClass::kCompletion < EventClass::kMetric);
  CHECK(EventClass::kMetric < EventClass::kTrace);
  CHECK(EventKey{5.0, EventClass::kCompletion, 9} < EventKey{5.0, EventClass::kMetric, 1});
  CHECK(EventKey{5.0, EventClass::kMetric, 9} < EventKey{5.0, EventClass::kTrace, 1});
}

TEST_CASE("event order: the queue pops in (time, class, sequence) order whatever the push order") {
  EventQueue<std::string> q;
  q.Push({2.0, EventClass::kTrace, 3}, "trace t=2 #3");
  q.Push({2.0, EventClass::kCompletion, 7}, "completion t=2 #7");
  q.Push({1.5, EventClass::kTrace, 9}, "trace t=1.5 #9");
  q.Push({2.0, EventClass::kCompletion, 2}, "completion t=2 #2");
  q.Push({2.0, EventClass::kTrace, 1}, "trace t=2 #1");
  q.Push({0.0, EventClass::kCompletion, 5}, "completion t=0 #5");
  CHECK(q.size() == 6);
  Strings order;
  while (!q.empty()) {
    order.push_back(q.top().payload);
    q.Pop();
  }
  CHECK(order == Strings{"completion t=0 #5", "trace t=1.5 #9", "completion t=2 #2",
                         "completion t=2 #7", "trace t=2 #1", "trace t=2 #3"});
}

TEST_CASE("event order: a completion due at an event's time runs before that event") {
  // a's request completes at t=1; the arrival at t=1 sees a back at 0.
  // Were the completion run after it, a and b would tie at 1.
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "duration": 1}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "a/least"});
}

TEST_CASE("event order: a completion due later waits for its time") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "duration": 1.5}
{"t": 1, "type": "arrival"}
{"t": 1.4999, "type": "arrival"}
{"t": 1.5, "type": "arrival"}
)");
  // a = 1 until t = 1.5: ties (counter 1, 2) until the completion.
  CHECK(Picks(run) == Strings{"a/least", "b/tie", "a/tie", "a/least"});
}

TEST_CASE("event order: trace events at equal times keep file order") {
  const std::string header =
      R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}]})"
      "\n";
  auto load_first = ReplayText(header + R"({"t": 1, "type": "load", "instance": "a", "inflight": 5}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(load_first) == Strings{"b/least"});
  auto arrival_first = ReplayText(header + R"({"t": 1, "type": "arrival"}
{"t": 1, "type": "load", "instance": "a", "inflight": 5}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(arrival_first) == Strings{"a/least", "b/least"});
}

TEST_CASE("event order: a JSON document keeps the order of its events array") {
  auto run = ReplayText(R"({"lbsim_trace": 1,
  "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}],
  "events": [
    {"t": 1, "type": "arrival"},
    {"t": 1, "type": "load", "instance": "a", "inflight": 5},
    {"t": 1, "type": "arrival"},
    {"t": 1, "type": "load", "instance": "b", "inflight": 9},
    {"t": 1, "type": "arrival"}
  ]})",
                        {"ll"}, "trace.json");
  CHECK(Picks(run) == Strings{"a/least", "b/least", "a/least"});
}

TEST_CASE("event order: duration 0 completes right after its arrival, before the next event at that time") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "duration": 0}
{"t": 0, "type": "arrival", "duration": 0}
{"t": 0, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "a/least", "a/least"});
}

TEST_CASE("event order: every completion due before an event runs, however many") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 3}]}
{"t": 0, "type": "arrival", "duration": 4}
{"t": 0, "type": "arrival", "duration": 2}
{"t": 0, "type": "arrival", "duration": 3}
{"t": 1, "type": "arrival"}
{"t": 5, "type": "arrival"}
)");
  // a takes 3 requests (0, 1, 2 < 3), ties at 3 with b at t=1 (counter 3:
  // ties [a, b] -> b), and is back to 0 at t=5.
  CHECK(Picks(run) == Strings{"a/least", "a/least", "a/least", "b/tie", "a/least"});
}

TEST_CASE("event order: times and durations are used in the trace's own unit") {
  // time_unit ms: a duration of 5 ends at t = 5, not 5000 (and not 0.005).
  auto run = ReplayText(R"({"lbsim_trace": 1, "time_unit": "ms", "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "duration": 5}
{"t": 4, "type": "arrival"}
{"t": 5, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "b/tie", "a/least"});
}

}  // namespace
}  // namespace lbsim
