// The charts' series of a report: the chart window rule, windows that add
// up to the report's totals, latency quantiles, and charts that change no
// figure of the other reports.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "replay_fixture.h"
#include "sim/replay/replay.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

using testing::Request;
using testing::TempFile;

// Six 2 s requests at t = 0, 0, 1, 1, 2, 5 on two Instances (as in
// what_if_replay_test.cc).
constexpr const char* kTwoInstances =
    R"({"lbsim_trace":1,"instances":[{"id":"inst-a","inflight":0},{"id":"inst-b","inflight":0}]}
{"t":0,"type":"arrival","duration":2}
{"t":0,"type":"arrival","duration":2}
{"t":1,"type":"arrival","duration":2}
{"t":1,"type":"arrival","duration":2}
{"t":2,"type":"arrival","duration":2}
{"t":5,"type":"arrival","duration":2}
)";

Report ChartReport(const std::string& path, SimOptions options,
                   const std::vector<std::string>& specs = {"rr", "ll"}) {
  options.charts = true;
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs) requests.push_back(Request(spec));
  return BuildReport(Replay(path, TraceEncoding::kAuto, requests, {}, options));
}

// Every window figure of `report` adds up to the strategy's own totals.
void CheckTotals(const Report& report) {
  REQUIRE(report.charts);
  REQUIRE(report.charts->strategies.size() == report.strategies.size());
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    const StrategyChartsReport& c = report.charts->strategies[r];
    CAPTURE(s.label);
    std::uint64_t decisions = 0, herded = 0;
    std::vector<std::uint64_t> picks(report.instances.size(), 0);
    std::vector<std::uint64_t> reasons(c.reasons.size(), 0);
    for (const ChartWindowReport& w : c.windows) {
      decisions += w.decisions;
      herded += w.herded;
      for (std::size_t i = 0; i < picks.size(); ++i) picks[i] += w.selections[i];
      for (std::size_t k = 0; k < reasons.size(); ++k) reasons[k] += w.by_reason[k];
    }
    CHECK(decisions == s.decisions);
    CHECK(herded == s.herded_decisions);
    for (std::size_t i = 0; i < picks.size(); ++i) CHECK(picks[i] == s.instances[i].selections);
    for (std::size_t k = 0; k < reasons.size(); ++k) {
      std::uint64_t expected = 0;
      for (const auto& [word, count] : s.reasons)
        if (word == c.reasons[k]) expected = count;
      CHECK(reasons[k] == expected);
    }
    // Windows are contiguous, the same for every run, and as wide as said.
    for (std::size_t k = 0; k < c.windows.size(); ++k) {
      CHECK(c.windows[k].end - c.windows[k].start == doctest::Approx(report.charts->window));
      if (k > 0) CHECK(c.windows[k].start == c.windows[k - 1].end);
      CHECK(c.windows[k].start == report.charts->strategies[0].windows[k].start);
    }
  }
}

TEST_CASE("chart window: at most 100 windows, fewer for a short trace, at least 10") {
  CHECK(ChartWindowLimit(0) == 10);
  CHECK(ChartWindowLimit(6) == 10);
  CHECK(ChartWindowLimit(200) == 40);
  CHECK(ChartWindowLimit(500) == 100);
  CHECK(ChartWindowLimit(10'000'000) == 100);
}

TEST_CASE("chart window: the narrowest 1, 2, 5 x 10^k that fits the limit") {
  TempFile file(kTwoInstances);
  // The run spans [0, 7]: 0.5 s windows would be 14 (more than 10), 1 s
  // windows 7.
  const Report report = ChartReport(file.path(), SimOptions{});
  REQUIRE(report.charts);
  CHECK(report.charts->window == 1.0);
  CHECK(report.charts->max_windows == 10);
  REQUIRE(report.charts->strategies[0].windows.size() == 7);
  CHECK(report.charts->strategies[0].windows[0].start == 0.0);
  CHECK(report.charts->strategies[0].windows[6].end == 7.0);
  CheckTotals(report);
  // The charts are not a what-if part: no simulation section.
  CHECK_FALSE(report.simulation);
  CHECK_FALSE(report.strategies[0].what_if);
}

TEST_CASE("chart window: --window W itself when the run fits, else 2W, 5W, 10W, ...") {
  TempFile file(kTwoInstances);
  SimOptions options;
  options.window = 2.0;
  Report report = ChartReport(file.path(), options);
  CHECK(report.charts->window == 2.0);
  CHECK(report.charts->strategies[1].windows.size() == 4);
  CheckTotals(report);
  options.window = 0.25;  // 28 windows of 0.25 > 10: 0.5 (14) no, 1.25 (6) yes
  report = ChartReport(file.path(), options);
  CHECK(report.charts->window == 1.25);
  CheckTotals(report);
}

TEST_CASE("chart window: windows hold the right picks and mean inflight") {
  TempFile file(kTwoInstances);
  SimOptions options;
  options.slots = 1;
  const Report report = ChartReport(file.path(), options, {"rr"});
  const StrategyChartsReport& c = report.charts->strategies[0];
  // [0,1): a and b picked once each; a holds 1 request all along.
  CHECK(c.windows[0].selections == std::vector<std::uint64_t>{1, 1});
  CHECK(*c.windows[0].mean_inflight[0] == 1.0);
  // [1,2): a and b once more, 2 outstanding each.
  CHECK(*c.windows[1].mean_inflight[1] == 2.0);
  // [6,7): only b's r6 is left.
  CHECK(*c.windows[6].mean_inflight[0] == 0.0);
  CHECK(*c.windows[6].mean_inflight[1] == 1.0);
  CHECK(c.reasons == std::vector<std::string>{"round_robin"});
  CheckTotals(report);
}

TEST_CASE("chart latency quantiles: nearest rank over every served request") {
  TempFile file(kTwoInstances);
  SimOptions options;
  options.slots = 1;
  const Report report = ChartReport(file.path(), options, {"rr"});
  const auto& q = report.charts->strategies[0].latency_quantiles;
  REQUIRE(q.size() == LatencyChartQuantiles().size());
  // Latencies sorted: 2 2 2 3 3 4.
  CHECK(q.front() == std::pair<std::uint32_t, double>{0, 2.0});
  CHECK(q.back() == std::pair<std::uint32_t, double>{1000, 4.0});
  for (const auto& [per_mille, latency] : q) {
    if (per_mille == 500) CHECK(latency == 2.0);  // rank 3
    if (per_mille == 510) CHECK(latency == 3.0);  // rank ceil(3.06) = 4
    if (per_mille == 990) CHECK(latency == 4.0);
  }
  CHECK(report.charts->strategies[0].longest_herding_run == std::nullopt);
}

TEST_CASE("charts change no figure: JSON and table reports are byte-identical") {
  for (const char* trace :
       {"traces/examples/mixed_known_unknown.json", "traces/examples/stale_snapshot.ndjson",
        "traces/examples/down_and_back.json", "traces/examples/shared_prefixes.json",
        "traces/examples/empty_pool.json", "traces/examples/queue_hints.json"}) {
    CAPTURE(trace);
    const std::vector<StrategyRequest> requests{Request("rr"), Request("ll"), Request("p2c")};
    for (bool window : {false, true}) {
      SimOptions plain;
      if (window) plain.window = 1.0;
      SimOptions charts = plain;
      charts.charts = true;
      const Report a = BuildReport(Replay(trace, TraceEncoding::kAuto, requests, {}, plain));
      const Report b = BuildReport(Replay(trace, TraceEncoding::kAuto, requests, {}, charts));
      CHECK(RenderJson(a) == RenderJson(b));
      CHECK(RenderTable(a) == RenderTable(b));
      CHECK(RenderCsv(a) == RenderCsv(b));
      CHECK_FALSE(a.charts);
      REQUIRE(b.charts);
      CheckTotals(b);
    }
  }
}

TEST_CASE("charts of a trace without events: no windows") {
  TempFile file(R"({"lbsim_trace":1,"instances":[{"id":"a"}]})"
                "\n");
  const Report report = ChartReport(file.path(), SimOptions{});
  REQUIRE(report.charts);
  CHECK(report.charts->window == 0.0);
  CHECK(report.charts->strategies[0].windows.empty());
  CHECK_FALSE(RenderHtml(report).empty());
}

}  // namespace
}  // namespace lbsim
