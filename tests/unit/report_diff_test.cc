// Baseline diff: pairing of strategies, tolerances and what is refused.

#include <doctest/doctest.h>

#include <chrono>

#include <fmt/format.h>

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "base/errors.h"
#include "sim/check/report_diff.h"
#include "sim/engine/replay.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

const std::string kBase = "tests/diff/queue_hints.ll.json";
const std::string kNudged = "tests/diff/queue_hints.ll.share_nudged.json";

// A temporary directory, removed with its files at the end of the test.
class TempDir {
 public:
  TempDir() {
    char name[] = "/tmp/lbsim-diff-test.XXXXXX";
    path_ = ::mkdtemp(name);
  }
  ~TempDir() {
    for (const std::string& f : files_) std::remove(f.c_str());
    ::rmdir(path_.c_str());
  }
  // Writes `document` as a trace file (a JSON document) and returns its path.
  std::string Trace(const std::string& document) {
    std::string file = path_ + "/" + std::to_string(files_.size()) + ".trace.json";
    std::ofstream(file) << document;
    files_.push_back(file);
    return file;
  }
  // Writes the JSON report of `specs` replaying `trace` to a new file.
  std::string Report(const std::vector<std::string>& specs,
                     const std::string& trace = "traces/examples/queue_hints.json") {
    std::vector<StrategyRequest> requests;
    for (const std::string& spec : specs)
      requests.push_back(ParseStrategyRequest(StrategyRegistry::Builtin(), spec));
    std::string file = path_ + "/" + std::to_string(files_.size()) + ".json";
    std::ofstream(file) << RenderJson(BuildReport(Replay(trace, TraceEncoding::kAuto, requests)));
    files_.push_back(file);
    return file;
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

const DiffRow& Row(const StrategyDiff& s, DiffRow::Kind kind, const std::string& name) {
  for (const DiffRow& r : s.rows)
    if (r.kind == kind && r.name == name) return r;
  FAIL("no row " << name);
  return s.rows.front();
}

TEST_CASE("a report compared with itself flags nothing") {
  ReportDiff d = DiffReports(kBase, kBase, DiffTolerances{});
  REQUIRE(d.strategies.size() == 1);
  CHECK(d.flagged() == 0);
  CHECK(d.rows() == 13);  // 3 shares, 6 fairness values, 4 reasons
  CHECK(d.trace_name == "queue-hints");
}

TEST_CASE("a share change is flagged only when MORE than the tolerance") {
  // inst-a 0.3333333333333333 -> 0.36, inst-b -> 0.30666666666666664.
  const double change = 0.36 - 0.3333333333333333;
  DiffTolerances tol;
  tol.share = change;
  CHECK(DiffReports(kBase, kNudged, tol).flagged() == 0);
  tol.share = change * 0.999;
  ReportDiff d = DiffReports(kBase, kNudged, tol);
  CHECK(d.flagged() == 2);
  CHECK(Row(d.strategies[0], DiffRow::Kind::kShare, "inst-a").flagged);
  CHECK(Row(d.strategies[0], DiffRow::Kind::kShare, "inst-b").flagged);
  CHECK_FALSE(Row(d.strategies[0], DiffRow::Kind::kShare, "inst-c").flagged);
}

TEST_CASE("fairness and reason tolerances") {
  TempDir dir;
  // Default weights: b,c,a,a,b,c; qps_1m=0: a,c,a,a,b,c (see tests/cli/check_tests.cmake).
  std::string base = dir.Report({"ll"});
  std::string next = dir.Report({"ll:qps_1m=0"});
  DiffTolerances loose{1.0, 10.0, 1.0};
  CHECK(DiffReports(base, next, loose).flagged() == 0);
  DiffTolerances reasons_only = loose;
  reasons_only.reasons = 0.16;  // least 3 -> 2, tie 3 -> 4: 1 of 6 decisions
  ReportDiff d = DiffReports(base, next, reasons_only);
  CHECK(d.flagged() == 2);
  CHECK(Row(d.strategies[0], DiffRow::Kind::kReason, "least").flagged);
  CHECK(Row(d.strategies[0], DiffRow::Kind::kReason, "tie").flagged);
  reasons_only.reasons = 1.0 / 6.0;
  CHECK(DiffReports(base, next, reasons_only).flagged() == 0);
  DiffTolerances jain = loose;
  jain.fairness = 0.14;  // jain 1 -> 36/42: a change of 0.1428...
  d = DiffReports(base, next, jain);
  CHECK(Row(d.strategies[0], DiffRow::Kind::kFairness, "jain").flagged);
  CHECK(Row(d.strategies[0], DiffRow::Kind::kFairness, "max_min_ratio").flagged);  // 1 -> 3
  jain.fairness = 2.0;
  d = DiffReports(base, next, jain);
  CHECK_FALSE(Row(d.strategies[0], DiffRow::Kind::kFairness, "max_min_ratio").flagged);
}

TEST_CASE("a fairness value that becomes undefined is flagged") {
  TempDir dir;
  // stale_snapshot (as cacheroute@df8382d): round_robin picks inst-c,
  // least_load never (max_min_ratio null).
  std::string rr = dir.Report({"rr"}, "traces/examples/stale_snapshot.ndjson");
  std::string ll = dir.Report({"ll"}, "traces/examples/stale_snapshot.ndjson");
  ReportDiff d = DiffReports(rr, ll, DiffTolerances{1, 1e9, 1});
  const DiffRow& row = Row(d.strategies[0], DiffRow::Kind::kFairness, "max_min_ratio");
  CHECK(row.base.has_value());
  CHECK_FALSE(row.next.has_value());
  CHECK(row.flagged);
}

TEST_CASE("pairing: by label, the only strategies, or --pair") {
  TempDir dir;
  std::string rr = dir.Report({"rr"});
  std::string ll = dir.Report({"ll"});
  std::string both = dir.Report({"rr", "ll"});
  std::string both_reversed = dir.Report({"ll", "rr"});

  // One strategy on each side: compared whatever their labels.
  ReportDiff d = DiffReports(rr, ll, DiffTolerances{});
  REQUIRE(d.strategies.size() == 1);
  CHECK(d.strategies[0].base_label == "round_robin");
  CHECK(d.strategies[0].next_label == "least_load");
  // Several: by label, whatever the order.
  d = DiffReports(both, both_reversed, DiffTolerances{});
  REQUIRE(d.strategies.size() == 2);
  CHECK(d.strategies[0].next_label == "round_robin");
  CHECK(d.flagged() == 0);
  // A label on one side only is flagged.
  d = DiffReports(both, ll, DiffTolerances{});
  REQUIRE(d.strategies.size() == 2);
  CHECK(d.strategies[0].base_label == "round_robin");
  CHECK(d.strategies[0].next_label.empty());
  CHECK(d.strategies[1].next_label == "least_load");
  CHECK(d.flagged() == 1);
  d = DiffReports(rr, both, DiffTolerances{});
  REQUIRE(d.strategies.size() == 2);
  CHECK(d.strategies[1].base_label.empty());
  CHECK(d.strategies[1].next_label == "least_load");
  CHECK(d.flagged() == 1);
  // Explicit pairs.
  d = DiffReports(both, both, DiffTolerances{}, {{"round_robin", "least_load"}});
  REQUIRE(d.strategies.size() == 1);
  CHECK(d.strategies[0].next_label == "least_load");
  CHECK_THROWS_AS(DiffReports(both, both, DiffTolerances{}, {{"rr", "least_load"}}), UsageError);
}

TEST_CASE("refused: different traces, files that are not reports") {
  TempDir dir;
  std::string ties = dir.Report({"ll"}, "traces/examples/ties.json");
  CHECK_THROWS_AS(DiffReports(kBase, ties, DiffTolerances{}), InputError);
  CHECK_THROWS_WITH_AS(DiffReports("scenarios/aliases.json", kBase, DiffTolerances{}),
                       "scenarios/aliases.json: lbsim_report: expected 1 (a JSON report from "
                       "lbsim --format json)",
                       InputError);
  CHECK_THROWS_AS(DiffReports("tests/diff/none.json", kBase, DiffTolerances{}), InputError);
}

TEST_CASE("the text rendering marks flagged rows and ends with a summary") {
  std::string text = RenderDiffText(DiffReports(kBase, kNudged, DiffTolerances{}));
  CHECK(text.find("  share inst-a             0.3333  0.3600  +0.0267  FLAGGED\n") !=
        std::string::npos);
  CHECK(text.find("  share inst-c             0.3333  0.3333        0\n") != std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2)) ==
        "\nlbsim diff: 2 of 13 figures beyond tolerance\n");
}

TEST_CASE("the text rendering escapes what the reports hold") {
  TempDir dir;
  const std::string trace = dir.Trace(
      "{\"lbsim_trace\": 1, \"name\": \"t\\u202e\\n\", \"instances\": [{\"id\": \"a\\u001b[31m\\nFLAGGED\"},"
      " {\"id\": \"b\"}], \"events\": [{\"t\": 0, \"type\": \"arrival\"}]}");
  const std::string base = dir.Report({"rr"}, trace);
  const std::string text = RenderDiffText(DiffReports(base, base, DiffTolerances{}));
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find("\xe2\x80\xae") == std::string::npos);
  CHECK(text.find("  share a\\u001b[31m\\nFLAGGED ") != std::string::npos);
  CHECK(text.find("trace     t\\u202e\\n: 1 arrivals, 2 Instances\n") != std::string::npos);
}

TEST_CASE("a comparison takes time in proportion to the reports, not their square") {
  // 10,000 Instances (a share and a selection each, per side): reading the
  // reports' objects and pairing their keys took seconds; it takes
  // milliseconds.
  TempDir dir;
  std::string instances, events;
  for (int i = 0; i < 10000; ++i) instances += (i ? "," : "") + fmt::format("{{\"id\": \"i{}\"}}", i);
  const std::string trace = dir.Trace(
      "{\"lbsim_trace\": 1, \"instances\": [" + instances + "], \"events\": [{\"t\": 0, \"type\": \"arrival\"}]}");
  const std::string report = dir.Report({"rr"}, trace);
  const auto start = std::chrono::steady_clock::now();
  const ReportDiff diff = DiffReports(report, report, DiffTolerances{});
  CHECK(diff.rows() > 10000);
#if defined(__SANITIZE_ADDRESS__)
  constexpr auto kSlowdown = 10;  // the sanitizers' cost
#else
  constexpr auto kSlowdown = 1;
#endif
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1500) * kSlowdown);
}

}  // namespace
}  // namespace lbsim
