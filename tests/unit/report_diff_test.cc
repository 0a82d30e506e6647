// Baseline diff: pairing of strategies, tolerances and what is refused.

#include <doctest/doctest.h>


#include <fmt/format.h>

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/check/report_diff.h"
#include "sim/replay/replay.h"
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

const DiffRow& Row(const StrategyDiff& s, const std::string& figure) {
  for (const DiffRow& r : s.rows)
    if (r.figure == figure) return r;
  FAIL("no row " << figure);
  return s.rows.front();
}

// Options with every family's tolerance loose, then `patch` applied.
DiffOptions Loose(std::initializer_list<const char*> patch = {}) {
  DiffOptions o;
  for (DiffFamily f : AllDiffFamilies()) o.tolerances.of(f) = Tolerance{1e9, 0.0};
  for (const char* p : patch) o.tolerances.Set(p);
  return o;
}

std::size_t Flagged(const StrategyDiff& s, DiffFamily family) {
  std::size_t n = 0;
  for (const DiffRow& r : s.rows) n += r.family == family && r.flagged;
  return n;
}

TEST_CASE("a report compared with itself flags nothing") {
  ReportDiff d = DiffReports(kBase, kBase, DiffOptions{});
  REQUIRE(d.strategies.size() == 1);
  CHECK(d.flagged() == 0);
  CHECK(d.trace_name == "queue-hints");
  // Every figure the report holds is compared, not only shares and fairness.
  CHECK(Row(d.strategies[0], "selections.inst-a").family == DiffFamily::kCount);
  CHECK(Row(d.strategies[0], "herded_decisions").family == DiffFamily::kHerding);
  CHECK(Row(d.strategies[0], "longest_run.length").family == DiffFamily::kRun);
}

TEST_CASE("a share change is flagged only when MORE than the tolerance") {
  // inst-a 0.3333333333333333 -> 0.36, inst-b -> 0.30666666666666664.
  const double change = 0.36 - 0.3333333333333333;
  DiffOptions o;
  o.tolerances.share() = change;
  CHECK(Flagged(DiffReports(kBase, kNudged, o).strategies[0], DiffFamily::kShare) == 0);
  o.tolerances.share() = change * 0.999;
  ReportDiff d = DiffReports(kBase, kNudged, o);
  CHECK(Flagged(d.strategies[0], DiffFamily::kShare) == 2);
  CHECK(Row(d.strategies[0], "share.inst-a").flagged);
  CHECK(Row(d.strategies[0], "share.inst-b").flagged);
  CHECK_FALSE(Row(d.strategies[0], "share.inst-c").flagged);
}

TEST_CASE("fairness and reason tolerances") {
  TempDir dir;
  // Default weights: b,c,a,a,b,c; qps_1m=0: a,c,a,a,b,c (see tests/cli/check_tests.cmake).
  std::string base = dir.Report({"ll"});
  std::string next = dir.Report({"ll:qps_1m=0"});
  CHECK(DiffReports(base, next, Loose()).flagged() == 0);
  ReportDiff d = DiffReports(base, next, Loose({"reasons=0.16"}));
  // least 3 -> 2, tie 3 -> 4: 1 of 6 decisions.
  CHECK(Flagged(d.strategies[0], DiffFamily::kReason) == 2);
  CHECK(Row(d.strategies[0], "reasons.least").flagged);
  CHECK(Row(d.strategies[0], "reasons.tie").flagged);
  DiffOptions exact = Loose();
  exact.tolerances.reasons() = 1.0 / 6.0;
  CHECK(DiffReports(base, next, exact).flagged() == 0);
  d = DiffReports(base, next, Loose({"fairness=0.14"}));  // jain 1 -> 36/42: 0.1428...
  CHECK(Row(d.strategies[0], "fairness.jain").flagged);
  CHECK(Row(d.strategies[0], "fairness.max_min_ratio").flagged);  // 1 -> 3
  d = DiffReports(base, next, Loose({"fairness=2"}));
  CHECK_FALSE(Row(d.strategies[0], "fairness.max_min_ratio").flagged);
}

TEST_CASE("a tolerance: absolute and relative must both be exceeded, and a figure path wins") {
  TempDir dir;
  std::string base = dir.Report({"ll"});
  std::string next = dir.Report({"ll:qps_1m=0"});
  // max_min_ratio 1 -> 3: +2, +200%.
  auto flagged = [&](std::initializer_list<const char*> tol) {
    return Row(DiffReports(base, next, Loose(tol)).strategies[0], "fairness.max_min_ratio").flagged;
  };
  CHECK(flagged({"fairness=1.9"}));
  CHECK_FALSE(flagged({"fairness=2"}));
  CHECK(flagged({"fairness=199%"}));
  CHECK_FALSE(flagged({"fairness=200%"}));
  CHECK(flagged({"fairness=1.9,199%"}));
  CHECK_FALSE(flagged({"fairness=1.9,200%"}));
  CHECK_FALSE(flagged({"fairness=2,199%"}));
  CHECK(flagged({"fairness=5", "fairness.max_min_ratio=1"}));  // the figure's own wins
  CHECK_FALSE(flagged({"fairness=0", "fairness.max_min_ratio=5"}));
  DiffOptions o;
  for (const char* bad : {"latency", "latency=", "=1", "latency=-1", "latency=x", "latency=1%,2%",
                          "latency=1,2"}) {
    INFO(bad);
    CHECK_THROWS_AS(o.tolerances.Set(bad), UsageError);
  }
  // A figure path that neither report has is refused, not ignored.
  CHECK_THROWS_AS(DiffReports(base, next, Loose({"fairness.jian=1"})), UsageError);
}

TEST_CASE("a fairness value that becomes undefined is flagged") {
  TempDir dir;
  // stale_snapshot (as cacheroute@df8382d): round_robin picks inst-c,
  // least_load never (max_min_ratio null).
  std::string rr = dir.Report({"rr"}, "traces/examples/stale_snapshot.ndjson");
  std::string ll = dir.Report({"ll"}, "traces/examples/stale_snapshot.ndjson");
  ReportDiff d = DiffReports(rr, ll, Loose());
  const DiffRow& row = Row(d.strategies[0], "fairness.max_min_ratio");
  CHECK(row.base.has_value());
  CHECK_FALSE(row.next.has_value());
  CHECK(row.flagged);
  // So is a warning raised on one side only, whatever the tolerances.
  const DiffRow& herding = Row(d.strategies[0], "warnings.herding");
  CHECK(*herding.base == 0.0);
  CHECK(*herding.next == 1.0);
  CHECK(herding.flagged);
}

TEST_CASE("only worse: a herding run that is gone is an improvement, one that appears is not") {
  TempDir dir;
  // One report twice: as it is (no herding run: null), and with a longest
  // herding run of 53 decisions.
  std::ifstream in(kBase);
  const nlohmann::ordered_json none = nlohmann::ordered_json::parse(in);
  nlohmann::ordered_json herded = none;
  herded["strategies"][0]["detectors"]["herding"]["longest_run"] = {
      {"instances", {"inst-a"}}, {"length", 53}, {"first_seq", 7}};
  const std::string without = dir.Trace(none.dump()), with = dir.Trace(herded.dump());
  DiffOptions worse = Loose({"runs=0"});
  worse.only_worse = true;
  const ReportDiff gone_diff = DiffReports(with, without, worse);
  const DiffRow& gone = Row(gone_diff.strategies[0], "detectors.herding.longest_run.length");
  CHECK(*gone.base == 53.0);
  CHECK_FALSE(gone.next.has_value());
  CHECK_FALSE(gone.flagged);
  CHECK(Row(DiffReports(without, with, worse).strategies[0], "detectors.herding.longest_run.length")
            .flagged);
  // Either way without --only-worse.
  CHECK(Row(DiffReports(with, without, Loose({"runs=0"})).strategies[0],
            "detectors.herding.longest_run.length")
            .flagged);
}

TEST_CASE("only worse: more arrivals that found no Instance are worse, fewer are not") {
  TempDir dir;
  std::ifstream in(kBase);
  const nlohmann::ordered_json base = nlohmann::ordered_json::parse(in);
  nlohmann::ordered_json more = base;
  auto& s = more["strategies"][0];
  s["no_instances"] = s["no_instances"].get<std::uint64_t>() + 5;
  const std::string fewer_file = dir.Trace(base.dump()), more_file = dir.Trace(more.dump());
  DiffOptions worse = Loose({"counts=0"});
  worse.only_worse = true;
  CHECK(Row(DiffReports(fewer_file, more_file, worse).strategies[0], "no_instances").flagged);
  CHECK_FALSE(Row(DiffReports(more_file, fewer_file, worse).strategies[0], "no_instances").flagged);
  // Either way without --only-worse.
  CHECK(Row(DiffReports(more_file, fewer_file, Loose({"counts=0"})).strategies[0], "no_instances")
            .flagged);
}

TEST_CASE("only worse: a figure without a zero that becomes undefined is still flagged") {
  TempDir dir;
  std::string rr = dir.Report({"rr"}, "traces/examples/stale_snapshot.ndjson");
  std::string ll = dir.Report({"ll"}, "traces/examples/stale_snapshot.ndjson");
  DiffOptions worse = Loose();
  worse.only_worse = true;
  CHECK(Row(DiffReports(rr, ll, worse).strategies[0], "fairness.max_min_ratio").flagged);
}

TEST_CASE("pairing: by label, the only strategies, or --pair") {
  TempDir dir;
  std::string rr = dir.Report({"rr"});
  std::string ll = dir.Report({"ll"});
  std::string both = dir.Report({"rr", "ll"});
  std::string both_reversed = dir.Report({"ll", "rr"});

  // One strategy on each side: compared whatever their labels.
  ReportDiff d = DiffReports(rr, ll, DiffOptions{});
  REQUIRE(d.strategies.size() == 1);
  CHECK(d.strategies[0].base_label == "round_robin");
  CHECK(d.strategies[0].next_label == "least_load");
  // Several: by label, whatever the order.
  d = DiffReports(both, both_reversed, DiffOptions{});
  REQUIRE(d.strategies.size() == 2);
  CHECK(d.strategies[0].next_label == "round_robin");
  CHECK(d.flagged() == 0);
  // A label on one side only is flagged.
  d = DiffReports(both, ll, DiffOptions{});
  REQUIRE(d.strategies.size() == 2);
  CHECK(d.strategies[0].base_label == "round_robin");
  CHECK(d.strategies[0].next_label.empty());
  CHECK(d.strategies[1].next_label == "least_load");
  CHECK(d.flagged() == 1);
  d = DiffReports(rr, both, DiffOptions{});
  REQUIRE(d.strategies.size() == 2);
  CHECK(d.strategies[1].base_label.empty());
  CHECK(d.strategies[1].next_label == "least_load");
  CHECK(d.flagged() == 1);
  // Explicit pairs.
  DiffOptions pairs;
  pairs.pairs = {{"round_robin", "least_load"}};
  d = DiffReports(both, both, pairs);
  REQUIRE(d.strategies.size() == 1);
  CHECK(d.strategies[0].next_label == "least_load");
  pairs.pairs = {{"rr", "least_load"}};
  CHECK_THROWS_AS(DiffReports(both, both, pairs), UsageError);
}

TEST_CASE("refused: different traces (not comparable), files that are not reports") {
  TempDir dir;
  std::string ties = dir.Report({"ll"}, "traces/examples/ties.json");
  CHECK_THROWS_AS(DiffReports(kBase, ties, DiffOptions{}), NotComparableError);
  CHECK_THROWS_WITH_AS(DiffReports("scenarios/aliases.json", kBase, DiffOptions{}),
                       "scenarios/aliases.json: lbsim_report: expected 1 (a JSON report from "
                       "lbsim --format json)",
                       InputError);
  CHECK_THROWS_AS(DiffReports("tests/diff/none.json", kBase, DiffOptions{}), InputError);
  // Allowed, the difference is named in the comparison.
  // kBase predates Proxy profiles: its profile is unknown, so it differs too.
  DiffOptions allow;
  allow.allow.Allow("trace");
  CHECK_THROWS_WITH_AS(DiffReports(kBase, ties, allow),
                       doctest::Contains("proxy: {\"profile\":\"spec\",\"python\":null}, but "
                                         "tests/diff/queue_hints.ll.json has none"),
                       NotComparableError);
  allow.allow.Allow("proxy,simulation");
  ReportDiff d = DiffReports(kBase, ties, allow);
  REQUIRE(d.allowed.size() == 2);
  CHECK(d.allowed[0].starts_with("trace: "));
  CHECK(d.allowed[1].starts_with("proxy: none vs "));
  CHECK_THROWS_AS(allow.allow.Allow("traces"), UsageError);
}

TEST_CASE("the text rendering marks flagged rows and ends with a summary") {
  std::string text = RenderDiffText(DiffReports(kBase, kNudged, DiffOptions{}));
  CHECK(text.find("  share.inst-a             0.3333  0.3600  +0.0267  FLAGGED\n") !=
        std::string::npos);
  CHECK(text.find("  share.inst-c             0.3333  0.3333        0\n") != std::string::npos);
  // Unchanged figures beyond the headline ones are counted, not shown.
  CHECK(text.find("\n23 figures not shown: unchanged, or details not flagged") !=
        std::string::npos);
  CHECK(text.find("selections.inst-c") == std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2)) ==
        "\nlbsim diff: 2 of 38 figures beyond tolerance\n");
}

TEST_CASE("the text rendering escapes what the reports hold") {
  TempDir dir;
  const std::string trace = dir.Trace(
      "{\"lbsim_trace\": 1, \"name\": \"t\\u202e\\n\", \"instances\": [{\"id\": \"a\\u001b[31m\\nFLAGGED\"},"
      " {\"id\": \"b\"}], \"events\": [{\"t\": 0, \"type\": \"arrival\"}]}");
  const std::string base = dir.Report({"rr"}, trace);
  const std::string text = RenderDiffText(DiffReports(base, base, DiffOptions{}));
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find("\xe2\x80\xae") == std::string::npos);
  CHECK(text.find("  share.a\\u001b[31m\\nFLAGGED ") != std::string::npos);
  CHECK(text.find("trace     t\\u202e\\n: 1 arrivals, 2 Instances\n") != std::string::npos);
}

}  // namespace
}  // namespace lbsim
