// A replay that splits its strategy runs into groups, each visiting the
// trace on a thread of its own (ReplayGroups, ParallelFeed), reports, logs
// and fails exactly as one pass of all of them does.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "replay_fixture.h"
#include "base/errors.h"
#include "sim/replay/replay.h"
#include "sim/report/report.h"
#include "traces/read_ahead.h"

namespace lbsim {
namespace {

using testing::Request;
using testing::TempFile;

// Keeps every decision as a line of its fields.
class DecisionLines final : public DecisionSink {
 public:
  void Write(const DecisionRecord& r) override {
    lines.push_back(fmt::format("{} {} {} {} {} {} {}", r.strategy, r.seq, r.t->value, r.request,
                                r.instance ? *r.instance : "-", r.reason, r.candidates));
  }
  std::vector<std::string> lines;
};

// A Proxy-log-like trace of `arrivals` arrivals over up to 12 Instances:
// registrations, load snapshots with nulls, downs and returns, removals,
// request ids, durations and queue hints. Deterministic.
std::string BusyTrace(std::size_t arrivals) {
  std::uint64_t state = 777;
  auto next = [&](std::uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  std::string text =
      R"({"lbsim_trace": 1, "name": "busy", "instances": [{"id": "i0", "inflight": 0}, {"id": "i1"}, {"id": "i2", "qps_1m": 3}]})"
      "\n";
  std::vector<int> state_of(12, 0);  // 0: never, 1: up, 2: down, 3: removed
  state_of[0] = state_of[1] = state_of[2] = 1;
  double t = 0.0;
  for (std::size_t a = 0; a < arrivals;) {
    t += 0.001 * static_cast<double>(1 + next(5));
    const std::size_t i = next(12);
    const std::string id = fmt::format("i{}", i);
    switch (next(12)) {
      case 0:
        if (state_of[i] != 1) {
          text += fmt::format(R"({{"t": {}, "type": "up", "instance": "{}", "inflight": {}}})" "\n",
                              t, id, next(4));
          state_of[i] = 1;
        }
        break;
      case 1:
        if (state_of[i] == 1 && next(3) == 0) {
          text += fmt::format(R"({{"t": {}, "type": "{}", "instance": "{}"}})" "\n", t,
                              next(2) ? "down" : "remove", id);
          state_of[i] = text.ends_with("\"down\", \"instance\": \"" + id + "\"}\n") ? 2 : 3;
        }
        break;
      case 2:
      case 3:
        if (state_of[i] == 1 || state_of[i] == 2)
          text += fmt::format(
              R"({{"t": {}, "type": "load", "instance": "{}", "inflight": {}, "qps_1m": {}}})" "\n",
              t, id, next(6) ? std::to_string(next(9)) : "null",
              next(6) ? fmt::format("{}.5", next(40)) : "null");
        break;
      case 4:
        if (state_of[i] == 1) {
          text += fmt::format(
              R"({{"t": {}, "type": "arrival", "request": "q-{}", "duration": 0.0{}, "hint": {{"queue_depths": {{"per_instance": {{"{}": {{"prepare_queue_depth": {}, "ready_queue_depth": {}}}}}}}}}}})" "\n",
              t, a, 1 + next(9), id, next(5), next(5));
          ++a;
        }
        break;
      default:
        text += fmt::format(R"({{"t": {}, "type": "arrival", "request": "r-{}", "duration": 0.{}}})" "\n",
                            t, a, 1 + next(9));
        ++a;
    }
  }
  return text;
}

// A replay of `path` through `specs`, one pass or split into groups.
struct Outcome {
  std::string report;  // the JSON report, or the error
  std::vector<std::vector<std::string>> logs;
};
Outcome Run(const std::string& path, const std::vector<std::string>& specs, bool grouped,
            SimOptions options = {}) {
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs) requests.push_back(Request(spec));
  std::vector<DecisionLines> lines(requests.size());
  std::vector<DecisionSink*> logs;
  for (DecisionLines& l : lines) logs.push_back(&l);
  ParallelFeed parallel;
  if (grouped) {
    parallel.threads = 8;
    parallel.read = [&](std::span<const TraceConsumer> consumers) {
      return ReadTraceAhead(path, TraceEncoding::kAuto, consumers);
    };
    CHECK(ReplayGroups(requests, parallel) > 1);
  }
  Outcome out;
  try {
    out.report = RenderJson(BuildReport(Replay(
        path,
        [&](InstanceTable& table, TraceVisitor& visitor) {
          return ReadTrace(path, TraceEncoding::kAuto, table, visitor);
        },
        requests, logs, options, {}, parallel)));
  } catch (const InputError& e) {
    out.report = std::string("error: ") + e.what();
  }
  for (DecisionLines& l : lines) out.logs.push_back(l.lines);
  return out;
}

TEST_CASE("replay groups: how many, and never for programs or a thread short") {
  ParallelFeed parallel;
  parallel.read = [](std::span<const TraceConsumer>) { return TraceCounts{}; };
  parallel.threads = 8;
  auto requests = [](std::vector<std::string> specs) {
    std::vector<StrategyRequest> r;
    for (const std::string& s : specs) r.push_back(Request(s));
    return r;
  };
  CHECK(ReplayGroups(requests({"ll", "rr"}), parallel) == 1);
  CHECK(ReplayGroups(requests({"ll", "rr", "p2c"}), parallel) == 2);
  CHECK(ReplayGroups(requests({"ll", "ll", "ll", "ll", "ll", "ll", "ll", "ll"}), parallel) == 4);
  CHECK(ReplayGroups(requests({"ll", "rr", "exec:cat"}), parallel) == 1);
  parallel.threads = 3;  // two groups and the reading
  CHECK(ReplayGroups(requests({"ll", "ll", "ll", "ll", "ll", "ll"}), parallel) == 2);
  parallel.threads = 2;
  CHECK(ReplayGroups(requests({"ll", "ll", "ll", "ll"}), parallel) == 1);
  CHECK(ReplayGroups(requests({"ll", "ll", "ll", "ll"}), ParallelFeed{}) == 1);
}

TEST_CASE("replay groups: the same report and decision logs as one pass") {
  TempFile file(BusyTrace(6 * kReadAheadBatchEvents));
  const std::vector<std::vector<std::string>> runs = {
      {"rr", "ll", "p2c"},
      {"ll", "ll:qps_1m=0", "rr", "kv", "random", "ll:inflight=2", "wrr"},
  };
  for (const auto& specs : runs) {
    for (std::uint32_t slots : {0u, 2u}) {
      CAPTURE(specs.size());
      CAPTURE(slots);
      SimOptions options;
      options.slots = slots;
      const Outcome one = Run(file.path(), specs, false, options);
      const Outcome grouped = Run(file.path(), specs, true, options);
      REQUIRE(one.report.find("error") != 0);
      CHECK(grouped.report == one.report);
      REQUIRE(grouped.logs.size() == one.logs.size());
      for (std::size_t k = 0; k < one.logs.size(); ++k) {
        CHECK(one.logs[k].size() > 1000);
        CHECK(grouped.logs[k] == one.logs[k]);
      }
    }
  }
}

TEST_CASE("replay groups: the error is the one a single pass meets first") {
  // Under the header's Proxy least_load takes no parameters: the second and
  // fourth runs fail at the header, in different groups.
  TempFile file(
      R"({"lbsim_trace": 1, "proxy": "cacheroute@df8382d", "instances": [{"id": "a"}]})"
      "\n"
      R"({"t": 1, "type": "arrival"})"
      "\n");
  const std::vector<std::string> specs = {"rr", "ll:qps_1m=0.5", "rr", "ll:inflight=2"};
  const Outcome one = Run(file.path(), specs, false);
  CHECK(one.report.find("unknown parameter 'qps_1m'") != std::string::npos);
  CHECK(Run(file.path(), specs, true).report == one.report);
  const std::vector<std::string> later = {"rr", "rr", "ll:inflight=2", "rr"};
  CHECK(Run(file.path(), later, true).report == Run(file.path(), later, false).report);

  // An event every group fails at (a load for an Instance never
  // registered), after thousands of decisions.
  std::string text = BusyTrace(3 * kReadAheadBatchEvents);
  text += R"({"t": 1e6, "type": "load", "instance": "ghost", "inflight": 1})" "\n";
  TempFile ghost(text);
  const Outcome ghost_one = Run(ghost.path(), {"rr", "ll", "p2c", "kv"}, false);
  CHECK(ghost_one.report.find("never registered") != std::string::npos);
  CHECK(Run(ghost.path(), {"rr", "ll", "p2c", "kv"}, true).report == ghost_one.report);
}

}  // namespace
}  // namespace lbsim
