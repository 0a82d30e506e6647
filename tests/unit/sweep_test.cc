// lbsim sweep's grid, sharding, results and merging of slices.

#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "base/errors.h"
#include "sim/replay/replay.h"
#include "sim/io/csv.h"
#include "sim/report/report.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_figures.h"
#include "replay_fixture.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

const StrategyRegistry& Registry() { return StrategyRegistry::Builtin(); }

SweepGrid ExampleGrid() {
  SweepGrid grid;
  grid.traces = {"traces/examples/ties.json", "traces/examples/stale_snapshot.ndjson",
                 "traces/examples/mixed_known_unknown.json"};
  grid.strategies = {"rr", "ll"};
  grid.axes = {SweepAxis::Parse("ll.qps_1m=0,0.01"), SweepAxis::Parse("least_load.inflight=1,2")};
  grid.proxy = testing::SpecProxy();  // the spec's weights, whatever the traces name
  return grid;
}

std::vector<std::string> Specs(const std::vector<SweepCell>& cells) {
  std::vector<std::string> out;
  for (const SweepCell& c : cells) out.push_back(std::to_string(c.trace) + " " + c.spec);
  return out;
}

TEST_CASE("--vary parses NAME.KEY=V1,V2,... and rejects anything else") {
  SweepAxis axis = SweepAxis::Parse("ll.qps_1m=0,0.01,1e-3");
  CHECK(axis.strategy == "ll");
  CHECK(axis.key == "qps_1m");
  CHECK(axis.values == std::vector<std::string>{"0", "0.01", "1e-3"});
  CHECK(axis.Name() == "ll.qps_1m");
  for (const char* bad : {"ll", "ll.qps_1m", "ll.qps_1m=", "qps_1m=1", ".k=1", "ll.=1", "ll.k=1,,2"}) {
    INFO(bad);
    CHECK_THROWS_AS(SweepAxis::Parse(bad), UsageError);
  }
}

TEST_CASE("The grid's cells come by trace, strategy, varied values (first axis slowest)") {
  SweepGrid grid = ExampleGrid();
  grid.traces.resize(2);
  std::vector<SweepCell> cells = ExpandSweep(grid, Registry());
  CHECK(Specs(cells) == std::vector<std::string>{
                           "0 rr", "0 ll:qps_1m=0:inflight=1", "0 ll:qps_1m=0:inflight=2",
                           "0 ll:qps_1m=0.01:inflight=1", "0 ll:qps_1m=0.01:inflight=2",
                           "1 rr", "1 ll:qps_1m=0:inflight=1", "1 ll:qps_1m=0:inflight=2",
                           "1 ll:qps_1m=0.01:inflight=1", "1 ll:qps_1m=0.01:inflight=2"});
  for (std::size_t i = 0; i < cells.size(); ++i) CHECK(cells[i].index == i);
  CHECK(cells[4].request.params.Number("qps_1m") == 0.01);
  CHECK(cells[4].request.params.Number("inflight") == 2);
}

TEST_CASE("A bad grid is a usage error") {
  SweepGrid grid = ExampleGrid();
  SUBCASE("an axis for a strategy that is not swept") {
    grid.strategies = {"rr"};
    CHECK_THROWS_WITH_AS(ExpandSweep(grid, Registry()),
                         "--vary ll.qps_1m: strategy least_load is not among the strategies of the sweep",
                         UsageError);
  }
  SUBCASE("an axis for a parameter the strategy lacks") {
    grid.axes = {SweepAxis::Parse("ll.speed=1,2")};
    CHECK_THROWS_WITH_AS(ExpandSweep(grid, Registry()),
                         "--vary ll.speed: strategy least_load has no parameter 'speed'", UsageError);
  }
  SUBCASE("a bad value") {
    grid.axes = {SweepAxis::Parse("ll.qps_1m=1,x")};
    CHECK_THROWS_AS(ExpandSweep(grid, Registry()), UsageError);
  }
  SUBCASE("seeds without a randomized strategy") {
    grid.seeds = {1, 2};
    CHECK_THROWS_WITH_AS(ExpandSweep(grid, Registry()),
                         "--seeds: none of the strategies of the sweep takes a seed", UsageError);
  }
  SUBCASE("no trace") {
    grid.traces.clear();
    CHECK_THROWS_AS(ExpandSweep(grid, Registry()), UsageError);
  }
}

TEST_CASE("Shards I/N cover every cell exactly once, in contiguous blocks") {
  CHECK(SweepShard::Parse("2/5").index == 2);
  CHECK(SweepShard::Parse("2/5").count == 5);
  for (const char* bad : {"0/3", "4/3", "1", "a/b", "1/0", "/3", "1/"}) {
    INFO(bad);
    CHECK_THROWS_AS(SweepShard::Parse(bad), UsageError);
  }
  for (std::size_t cells : {0u, 1u, 7u, 20u}) {
    for (std::size_t count : {1u, 3u, 8u}) {
      std::size_t next = 0;
      for (std::size_t i = 1; i <= count; ++i) {
        auto [first, last] = SweepShard{i, count}.Range(cells);
        CHECK(first == next);
        CHECK(last >= first);
        next = last;
      }
      CHECK(next == cells);
    }
  }
}

TEST_CASE("Each sweep row holds the figures of replaying its cell alone") {
  SweepGrid grid = ExampleGrid();
  SweepResult result = RunSweep(grid, Registry(), std::nullopt, 1);
  std::vector<SweepCell> cells = ExpandSweep(grid, Registry());
  REQUIRE(result.rows.size() == cells.size());
  CHECK(result.cells == cells.size());
  for (const SweepCell& cell : cells) {
    INFO(cell.spec);
    const SweepRow& row = result.rows[cell.index];
    SimOptions options;
    options.proxy = grid.proxy;
    Report alone =
        BuildReport(Replay(grid.traces[cell.trace], grid.encoding, {cell.request}, {}, options));
    const StrategyReport& s = alone.strategies[0];
    CHECK(row.cell == cell.index);
    CHECK(row.trace == grid.traces[cell.trace]);
    CHECK(row.spec == cell.spec);
    CHECK(row.strategy == s.strategy);
    CHECK(row.events == alone.events);
    const StrategyReport& run = row.run;
    CHECK(run.decisions == s.decisions);
    CHECK(run.no_instances == s.no_instances);
    CHECK(run.unknown_excluded == s.unknown_excluded);
    CHECK(run.fairness.jain == s.fairness.jain);
    CHECK(run.fairness.gini == s.fairness.gini);
    CHECK(run.fairness.max_min_ratio == s.fairness.max_min_ratio);
    CHECK(run.longest_run == s.longest_run);
    CHECK(run.herded_decisions == s.herded_decisions);
    CHECK(run.detectors.alternation_decisions == s.detectors.alternation_decisions);
    CHECK(run.reasons == s.reasons);
    // The row keeps the run's figures, not its per-Instance parts.
    CHECK(run.instances.empty());
    CHECK(!s.instances.empty());
  }
}

TEST_CASE("A sweep's output is the same whatever the number of threads") {
  SweepGrid grid = ExampleGrid();
  SweepResult one = RunSweep(grid, Registry(), std::nullopt, 1);
  for (unsigned jobs : {2u, 3u, 16u}) {
    SweepResult many = RunSweep(grid, Registry(), std::nullopt, jobs);
    CHECK(RenderSweepCsv(many) == RenderSweepCsv(one));
    CHECK(RenderSweepJson(many) == RenderSweepJson(one));
  }
}

TEST_CASE("A bad trace fails the sweep with the replay's message") {
  SweepGrid grid = ExampleGrid();
  grid.traces.push_back("no/such/trace.ndjson");
  CHECK_THROWS_WITH_AS(RunSweep(grid, Registry(), std::nullopt, 4),
                       "no/such/trace.ndjson: cannot read trace: No such file or directory",
                       InputError);
}

// The outputs of shards 1..count of `grid`, in the given format.
std::vector<std::pair<std::string, std::string>> Slices(const SweepGrid& grid, std::size_t count,
                                                        bool json) {
  std::vector<std::pair<std::string, std::string>> slices;
  for (std::size_t i = 1; i <= count; ++i) {
    SweepResult part = RunSweep(grid, Registry(), SweepShard{i, count}, 2);
    slices.emplace_back("part" + std::to_string(i), json ? RenderSweepJson(part) : RenderSweepCsv(part));
  }
  return slices;
}

TEST_CASE("Merging every shard's slice, in any order, gives the unsharded output") {
  SweepGrid grid = ExampleGrid();
  SweepResult whole = RunSweep(grid, Registry(), std::nullopt, 2);
  for (bool json : {false, true}) {
    for (std::size_t count : {1u, 2u, 4u, 20u}) {
      INFO("json " << json << ", shards " << count);
      auto slices = Slices(grid, count, json);
      std::reverse(slices.begin(), slices.end());
      CHECK(MergeSweepSlices(slices) == (json ? RenderSweepJson(whole) : RenderSweepCsv(whole)));
    }
  }
}

TEST_CASE("Merging refuses slices that do not make up one whole sweep") {
  SweepGrid grid = ExampleGrid();
  for (bool json : {false, true}) {
    INFO("json " << json);
    auto slices = Slices(grid, 3, json);
    SUBCASE("a missing slice") {
      slices.erase(slices.begin() + 1);
      CHECK_THROWS_WITH_AS(MergeSweepSlices(slices),
                           "sweep merge: 5 of 15 cells are missing (the first is cell 5); is a "
                           "shard's slice missing?",
                           InputError);
    }
    SUBCASE("a slice given twice") {
      slices.push_back(slices[0]);
      slices.back().first = "again";
      CHECK_THROWS_WITH_AS(MergeSweepSlices(slices), "again: cell 0 appears in more than one slice",
                           InputError);
    }
    SUBCASE("a slice of another sweep") {
      SweepGrid other = grid;
      other.axes[0].values.push_back("0.5");
      slices.push_back(Slices(other, 1, json)[0]);
      slices.back().first = "other";
      CHECK_THROWS_AS(MergeSweepSlices(slices), InputError);
    }
    SUBCASE("a file that is no slice") {
      slices.emplace_back("junk", json ? "{\"x\": 1}" : "a,b\n1,2\n");
      CHECK_THROWS_AS(MergeSweepSlices(slices), InputError);
    }
  }
  CHECK_THROWS_WITH_AS(
      MergeSweepSlices({Slices(grid, 1, false)[0], {"b.json", Slices(grid, 1, true)[0].second}}),
      "b.json: JSON, but the first slice is CSV", InputError);
}

TEST_CASE("A sweep with the service model gives each row the latencies of its cell alone") {
  SweepGrid grid;
  grid.traces = {"tests/cli/whatif/two_instances_k1.json", "traces/examples/ties.json"};
  grid.strategies = {"rr", "ll"};
  grid.proxy = testing::SpecProxy();
  grid.sim.slots = 1;
  SweepResult result = RunSweep(grid, Registry(), std::nullopt, 2);
  std::vector<SweepCell> cells = ExpandSweep(grid, Registry());
  REQUIRE(result.rows.size() == 4);
  for (const SweepCell& cell : cells) {
    INFO(cell.spec);
    SimOptions options;
    options.proxy = grid.proxy;
    options.slots = 1;
    Report alone =
        BuildReport(Replay(grid.traces[cell.trace], grid.encoding, {cell.request}, {}, options));
    const SweepRow& row = result.rows[cell.index];
    REQUIRE(row.service());
    const ServiceFigures& want = *alone.strategies[0].what_if->service;
    CHECK(row.service()->latency.served == want.latency.served);
    CHECK(row.service()->latency.p99 == want.latency.p99);
    CHECK(row.service()->latency.mean_wait == want.latency.mean_wait);
    CHECK(row.service()->utilisation == want.utilisation);
    // Its per-Instance figures are not kept.
    CHECK(row.run.what_if->instance_service.empty());
  }
  // The hand-computed case (tests/cli/whatif_tests.cmake): p99 4, mean wait 4/6.
  CHECK(result.rows[0].service()->latency.p99 == 4.0);
  CHECK(result.rows[0].service()->latency.mean_wait == 4.0 / 6);
  CHECK(result.rows[2].service()->latency.served == 0);  // ties.json: no durations
  const std::string csv = RenderSweepCsv(result);
  CHECK(csv.find(",served,latency_p50,latency_p90,latency_p99,latency_max,latency_mean,wait_p50,"
                 "wait_p90,wait_p99,wait_max,mean_queue_wait,utilisation,offered_utilisation,"
                 "warnings\n") != std::string::npos);
  const std::string json = RenderSweepJson(result);
  CHECK(json.find("\"slots\": 1") != std::string::npos);
  CHECK(json.find("\"mean\": 0.6666666666666666") != std::string::npos);  // the mean wait
  // Without the model, the columns are there but empty, the key null.
  grid.sim.slots = 0;
  const SweepResult plain = RunSweep(grid, Registry(), std::nullopt, 2);
  CHECK(RenderSweepCsv(plain).find(",,,,,,,,,,,,,") != std::string::npos);
  CHECK(RenderSweepJson(plain).find("\"service\": null") != std::string::npos);
  CHECK(RenderSweepJson(plain).find("\"slots\": 0") != std::string::npos);
  CHECK_FALSE(plain.rows[0].service());
}

TEST_CASE("Slices of sweeps with other slots do not merge") {
  SweepGrid grid = ExampleGrid();
  grid.traces.resize(1);
  for (bool json : {false, true}) {
    INFO("json " << json);
    auto slices = Slices(grid, 2, json);
    SweepGrid served = grid;
    served.sim.slots = 2;
    slices[1] = Slices(served, 2, json)[1];
    CHECK_THROWS_AS(MergeSweepSlices(slices), InputError);
  }
}

TEST_CASE("Sweep figures by name: --scatter X,Y and its defaults") {
  const SweepScatter d = DefaultSweepScatter(false);
  CHECK(d.x->name == "herded_decisions");
  CHECK(d.y->name == "jain");
  const SweepScatter s = DefaultSweepScatter(true);
  CHECK(s.x->name == "latency_p99");
  CHECK(s.x->lower_is_better);
  CHECK_FALSE(s.y->lower_is_better);
  CHECK(ParseSweepScatter("gini,prefix_hit_rate", false).y->name == "prefix_hit_rate");
  CHECK_THROWS_WITH_AS(ParseSweepScatter("latency_p99,jain", false),
                       "--scatter latency_p99,jain: latency_p99 needs the service model "
                       "(--slots K)",
                       UsageError);
  for (const char* bad : {"jain", "jain,", ",jain", "jain,gini,cv", "jain,fair"}) {
    INFO(bad);
    CHECK_THROWS_AS(ParseSweepScatter(bad, true), UsageError);
  }
}

TEST_CASE("Merging tells CSV slices of sweeps of the same shape apart") {
  // Other values of the same parameters: the same header and cell count,
  // other rows. The sweep column's fingerprint tells them apart.
  SweepGrid grid = ExampleGrid();
  SweepGrid other = grid;
  other.axes[0].values = {"0", "0.02"};
  auto slices = Slices(grid, 3, false);
  slices[1] = Slices(other, 3, false)[1];
  slices[1].first = "other";
  const std::string message = "other: row 2: a row of sweep " + SweepId(other) +
                              ", but part1 is of sweep " + SweepId(grid) +
                              ": not the same sweep (other traces, strategies, values, seeds, "
                              "options or Proxy)";
  CHECK_THROWS_WITH_AS(MergeSweepSlices(slices), message.c_str(), InputError);
  CHECK(SweepId(grid) != SweepId(other));
  CHECK(SweepId(grid) == SweepId(ExampleGrid()));
}

TEST_CASE("Merging refuses slices that hold no row at all") {
  // 15 cells in 20 shards: five shards run nothing.
  SweepGrid grid = ExampleGrid();
  for (bool json : {false, true}) {
    INFO("json " << json);
    std::vector<std::pair<std::string, std::string>> empty;
    for (auto& slice : Slices(grid, 20, json))
      if (json ? slice.second.find("\"results\": []") != std::string::npos
               : std::count(slice.second.begin(), slice.second.end(), '\n') == 1)
        empty.push_back(slice);
    REQUIRE(empty.size() == 5);
    if (json)
      CHECK_THROWS_WITH_AS(MergeSweepSlices(empty),
                           "sweep merge: 15 of 15 cells are missing (the first is cell 0); is a "
                           "shard's slice missing?",
                           InputError);
    else
      CHECK_THROWS_WITH_AS(MergeSweepSlices(empty),
                           "sweep merge: no slice holds a row, so none says how many cells the "
                           "sweep has; give the slices of the shards that ran cells",
                           InputError);
  }
}

TEST_CASE("Merging takes slices with a UTF-8 byte order mark, refuses control characters") {
  SweepGrid grid = ExampleGrid();
  const std::string whole = RenderSweepCsv(RunSweep(grid, Registry(), std::nullopt, 2));
  for (bool json : {false, true}) {
    auto slices = Slices(grid, 2, json);
    slices[1].second.insert(0, "\xEF\xBB\xBF");
    CHECK(MergeSweepSlices(slices) == MergeSweepSlices(Slices(grid, 2, json)));
  }
  auto slices = Slices(grid, 2, false);
  const std::size_t second_row = slices[0].second.find('\n') + 1;
  slices[0].second.insert(slices[0].second.find(',', second_row) + 1, "\x1b[31m");
  CHECK_THROWS_WITH_AS(MergeSweepSlices(slices),
                       "part1: row 2: a control character, which lbsim never writes in a cell",
                       InputError);
}

TEST_CASE("A grid of more than 100,000 cells is refused before any cell is made") {
  SweepGrid grid = ExampleGrid();
  std::string values = "ll.qps_1m=0";
  for (int i = 1; i < 10000; ++i) {
    values += ',';
    values += std::to_string(i);
  }
  grid.axes = {SweepAxis::Parse(values), SweepAxis::Parse("ll.inflight=" + values.substr(10))};
  CHECK_THROWS_WITH_AS(ExpandSweep(grid, Registry()),
                       "the sweep has more than the limit of 100000 cells (traces x strategies x "
                       "varied values x seeds); vary fewer values, or run several sweeps",
                       UsageError);
}

TEST_CASE("A parameter varied twice is a usage error") {
  SweepGrid grid = ExampleGrid();
  grid.axes.push_back(SweepAxis::Parse("least_load.qps_1m=1,2"));
  CHECK_THROWS_WITH_AS(ExpandSweep(grid, Registry()),
                       "--vary least_load.qps_1m: qps_1m is varied twice (also by --vary "
                       "ll.qps_1m); give all its values in one --vary",
                       UsageError);
}

TEST_CASE("A sweep of more cells per trace than one replay takes runs whatever -j") {
  // 100 least_load cells on one trace: more than kMaxStrategyRuns (64).
  SweepGrid grid = ExampleGrid();
  grid.traces.resize(1);
  std::string values = "ll.qps_1m=0";
  for (int i = 1; i < 100; ++i) {
    values += ',';
    values += std::to_string(i);
  }
  grid.axes = {SweepAxis::Parse(values)};
  const std::string one = RenderSweepCsv(RunSweep(grid, Registry(), std::nullopt, 1));
  CHECK(std::count(one.begin(), one.end(), '\n') == 102);
  CHECK(RenderSweepCsv(RunSweep(grid, Registry(), std::nullopt, 2)) == one);
}

TEST_CASE("CSV fields are quoted when they need it and split back") {
  CHECK(CsvField("plain") == "plain");
  CHECK(CsvField("a,b") == "\"a,b\"");
  // Formula cells are shown as text; numbers stay numbers.
  CHECK(CsvField("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
  CHECK(CsvField("+1+2") == "'+1+2");
  CHECK(CsvField("-cmd|' /C calc'!A0") == "'-cmd|' /C calc'!A0");
  CHECK(CsvField("@SUM(A1)") == "'@SUM(A1)");
  CHECK(CsvField("-1.5") == "-1.5");
  CHECK(CsvField("-") == "'-");
  CHECK(CsvField("a=b") == "a=b");
  CHECK(CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  // No control character, line break or bidi override reaches a cell.
  CHECK(CsvField("a\x1b[31m\x07\nb\xe2\x80\xae") == "a\\u001b[31m\\u0007\\nb\\u202e");
  std::string text = "x," + CsvField("a,\"b\"\nc") + ",y\r\n1,2,3";
  std::vector<CsvRecord> records;
  REQUIRE(SplitCsv(text, records));
  REQUIRE(records.size() == 2);
  CHECK(records[0].fields == std::vector<std::string>{"x", "a,\"b\"\\nc", "y"});
  CHECK(records[0].text == "x,\"a,\"\"b\"\"\\nc\",y\r\n");
  // (RFC 4180 line breaks in quotes are still read.)
  std::vector<CsvRecord> quoted_break;
  REQUIRE(SplitCsv("\"a\nb\",c\n", quoted_break));
  CHECK(quoted_break[0].fields == std::vector<std::string>{"a\nb", "c"});
  CHECK(records[1].fields == std::vector<std::string>{"1", "2", "3"});
  CHECK_FALSE(SplitCsv("a,\"b", records));
}

}  // namespace
}  // namespace lbsim

namespace lbsim {
namespace {

TEST_CASE("sweep heatmap: colours span a meaningful difference, not any difference") {
  // The column: p99 4.652 against 4.657 (0.1%) was drawn as best
  // against worst; now both sit near the middle of the scale.
  const double best = HeatmapPosition(4.652, 4.652, 4.657, true);
  const double worst = HeatmapPosition(4.657, 4.652, 4.657, true);
  CHECK(best > 0.5);
  CHECK(worst < 0.5);
  CHECK(best - worst == doctest::Approx(0.005 / (0.05 * 4.657)));
  CHECK(best - worst < 0.03);
  // A spread past 5% of the largest value spans the whole scale.
  CHECK(HeatmapPosition(4.0, 4.0, 5.0, true) == 1.0);
  CHECK(HeatmapPosition(5.0, 4.0, 5.0, true) == 0.0);
  CHECK(HeatmapPosition(5.0, 4.0, 5.0, false) == 1.0);
  CHECK(HeatmapPosition(4.5, 4.0, 5.0, false) == doctest::Approx(0.5));
  // Equal values: mid scale; counts from 0 span the scale.
  CHECK(HeatmapPosition(3.0, 3.0, 3.0, true) == 0.5);
  CHECK(HeatmapPosition(0.0, 0.0, 3.0, true) == 1.0);
  // Jain 0.98 against 0.99: a fifth of the scale.
  CHECK(HeatmapPosition(0.99, 0.98, 0.99, false) - HeatmapPosition(0.98, 0.98, 0.99, false) ==
        doctest::Approx(0.01 / (0.05 * 0.99)));
}

}  // namespace
}  // namespace lbsim
