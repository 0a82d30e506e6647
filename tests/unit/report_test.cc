// The report model and its JSON form (trace-format.md "Report"): counts per
// reason, selections and shares over every Instance ever registered,
// fallback distribution, unknown_excluded, fairness over the Instances that
// were a candidate, the spec's keys first and in order.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "replay_fixture.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

using testing::ReplayText;
using ojson = nlohmann::ordered_json;
using Strings = std::vector<std::string>;

// a and b tie at 0 while c is unknown (2 decisions), then all are unknown
// (2 fallbacks), then nothing is alive (1 no_instances). d is registered
// dead and e registers after the last arrival: neither is ever a candidate.
const char kProbe[] =
    R"({"lbsim_trace": 1, "name": "report-probe", "description": "what the report counts", "time_unit": "ms", "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 0}, {"id": "c"}, {"id": "d", "alive": false}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "load", "instance": "a", "inflight": null}
{"t": 2, "type": "load", "instance": "b", "inflight": null}
{"t": 2, "type": "arrival"}
{"t": 3, "type": "arrival"}
{"t": 4, "type": "down", "instance": "a"}
{"t": 4, "type": "down", "instance": "b"}
{"t": 4, "type": "down", "instance": "c"}
{"t": 4, "type": "arrival"}
{"t": 5, "type": "up", "instance": "e"}
)";

doctest::Approx Near(double x) { return doctest::Approx(x).epsilon(1e-12); }

Strings Keys(const ojson& object) {
  Strings keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

TEST_CASE("report: least_load's counts, shares and fallback distribution") {
  Report report = BuildReport(ReplayText(kProbe, {"rr", "ll"}).result);
  CHECK(report.trace_name == "report-probe");
  CHECK(report.trace_description == "what the report counts");
  CHECK(report.time_unit == "ms");
  CHECK(report.events == 11);
  CHECK(report.arrivals == 5);
  CHECK(report.instances == Strings{"a", "b", "c", "d", "e"});
  REQUIRE(report.strategies.size() == 2);

  const StrategyReport& ll = report.strategies[1];
  CHECK(ll.strategy == "least_load");
  CHECK(ll.requested_as == "ll");
  CHECK(ll.status == "experimental");
  CHECK(ll.decisions == 5);  // no_instances included
  CHECK(ll.no_instances == 1);
  CHECK(ll.tie_decisions == 2);
  CHECK(ll.fallback_decisions == 2);
  CHECK(ll.unknown_excluded == 2);
  std::vector<std::pair<std::string, std::uint64_t>> reasons{
      {"least", 0}, {"tie", 2}, {"fallback", 2}, {"no_instances", 1}};
  CHECK(ll.reasons == reasons);

  REQUIRE(ll.instances.size() == 5);
  const std::vector<std::uint64_t> selections{2, 1, 1, 0, 0};
  const std::vector<double> shares{0.5, 0.25, 0.25, 0.0, 0.0};  // of 4 that chose
  const std::vector<std::uint64_t> fallback{1, 0, 1, 0, 0};
  const std::vector<std::uint64_t> candidacies{4, 4, 4, 0, 0};
  for (std::size_t i = 0; i < 5; ++i) {
    CAPTURE(i);
    CHECK(ll.instances[i].selections == selections[i]);
    CHECK(ll.instances[i].share == shares[i]);
    CHECK(ll.instances[i].fallback_selections == fallback[i]);
    CHECK(ll.instances[i].candidate_decisions == candidacies[i]);
  }
}

TEST_CASE("report: fairness counts only Instances that were a candidate") {
  Report report = BuildReport(ReplayText(kProbe, {"ll"}).result);
  const Fairness& f = report.strategies[0].fairness;
  // Over a, b, c with counts 2, 1, 1 (d and e with 0 would make
  // max_min_ratio undefined). Each was a candidate 4 times.
  REQUIRE(f.jain);
  CHECK(*f.jain == Near(0.8888888888888888));
  REQUIRE(f.jain_eligible);
  CHECK(*f.jain_eligible == Near(0.8888888888888888));
  REQUIRE(f.cv);
  CHECK(*f.cv == Near(0.3535533905932738));
  CHECK(f.max_min_ratio == 2.0);
  CHECK(f.max_mean_ratio == 1.5);
  REQUIRE(f.gini);
  CHECK(*f.gini == Near(1.0 / 6.0));
}

TEST_CASE("report: jain_eligible weighs each Instance by how often it was a candidate") {
  // a is alive for 4 arrivals and chosen twice; b joins for the last 2 and
  // is chosen twice: equal counts (jain 1), unequal rates 0.5 and 1.
  Report report = BuildReport(ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "up", "instance": "b", "inflight": 0}
{"t": 2, "type": "arrival"}
{"t": 3, "type": "arrival"}
)",
                                         {"ll"})
                                  .result);
  const StrategyReport& ll = report.strategies[0];
  CHECK(ll.instances[0].selections == 2);
  CHECK(ll.instances[1].selections == 2);
  CHECK(ll.fairness.jain == 1.0);
  REQUIRE(ll.fairness.jain_eligible);
  CHECK(*ll.fairness.jain_eligible == Near(0.9));  // 1.5^2 / (2 * 1.25)
}

TEST_CASE("report: round_robin's reasons") {
  Report report = BuildReport(ReplayText(kProbe, {"rr"}).result);
  const StrategyReport& rr = report.strategies[0];
  CHECK(rr.status == "default");
  std::vector<std::pair<std::string, std::uint64_t>> reasons{{"round_robin", 4},
                                                             {"no_instances", 1}};
  CHECK(rr.reasons == reasons);
  CHECK(rr.fallback_decisions == 0);
  CHECK(rr.unknown_excluded == 0);
}

TEST_CASE("report: unknown_excluded counts a decision once however many unknowns it passed over") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b", "inflight": 4}, {"id": "c"}, {"id": "d"}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "load", "instance": "a", "inflight": 1}
{"t": 2, "type": "load", "instance": "c", "inflight": 1}
{"t": 2, "type": "load", "instance": "d", "inflight": 1}
{"t": 2, "type": "arrival"}
)");
  CHECK(run.metrics().unknown_excluded() == 2);
  CHECK(BuildReport(run.result).strategies[0].unknown_excluded == 2);
}

TEST_CASE("report: several runs of one strategy get distinct labels and their own params") {
  Report report = BuildReport(ReplayText(kProbe, {"ll", "ll:qps_1m=0", "least-load"}).result);
  CHECK(report.strategies[0].label == "least_load");
  CHECK(report.strategies[1].label == "least_load#2");
  CHECK(report.strategies[2].label == "least_load#3");
  CHECK(report.strategies[1].requested_as == "ll:qps_1m=0");
}

TEST_CASE("report JSON: the spec's keys come first, in the spec's order") {
  ojson j = ojson::parse(RenderJson(BuildReport(ReplayText(kProbe, {"ll"}).result)));
  Strings top = Keys(j);
  top.resize(3);
  CHECK(top == Strings{"lbsim_report", "trace", "strategies"});
  CHECK(j["lbsim_report"] == 1);
  Strings trace_keys = Keys(j["trace"]);
  trace_keys.resize(5);
  CHECK(trace_keys == Strings{"name", "time_unit", "events", "arrivals", "instances"});
  Strings keys = Keys(j["strategies"][0]);
  keys.resize(11);
  CHECK(keys == Strings{"strategy", "requested_as", "params", "decisions", "no_instances",
                        "selections", "share", "reasons", "fallback", "unknown_excluded",
                        "fairness"});
  CHECK(Keys(j["strategies"][0]["fairness"]) ==
        Strings{"jain", "jain_eligible", "cv", "max_min_ratio", "max_mean_ratio", "gini"});
  CHECK(Keys(j["strategies"][0]["fallback"]) == Strings{"decisions", "selections"});
}

TEST_CASE("report JSON: values") {
  ojson j = ojson::parse(RenderJson(BuildReport(ReplayText(kProbe, {"ll:qps_1m=0"}).result)));
  CHECK(j["trace"]["name"] == "report-probe");
  CHECK(j["trace"]["time_unit"] == "ms");
  CHECK(j["trace"]["events"] == 11);
  CHECK(j["trace"]["arrivals"] == 5);
  CHECK(j["trace"]["instances"] == ojson({"a", "b", "c", "d", "e"}));
  const ojson& s = j["strategies"][0];
  CHECK(s["strategy"] == "least_load");
  CHECK(s["requested_as"] == "ll:qps_1m=0");
  CHECK(Keys(s["params"]) == Strings{"inflight", "queue_depth", "active_prepare",
                                     "active_ready", "prepare_queue_depth",
                                     "ready_queue_depth", "pending_prefill_count",
                                     "active_decode_count", "predicted_total_backlog_ms",
                                     "qps_1m"});
  CHECK(s["params"]["qps_1m"] == 0.0);
  CHECK(s["params"]["queue_depth"] == 0.25);
  CHECK(s["decisions"] == 5);
  CHECK(s["no_instances"] == 1);
  CHECK(s["selections"] == ojson::parse(R"({"a": 2, "b": 1, "c": 1, "d": 0, "e": 0})"));
  CHECK(s["share"] == ojson::parse(R"({"a": 0.5, "b": 0.25, "c": 0.25, "d": 0.0, "e": 0.0})"));
  CHECK(s["share"]["d"].is_number_float());
  CHECK(s["reasons"] ==
        ojson::parse(R"({"least": 0, "tie": 2, "fallback": 2, "no_instances": 1})"));
  CHECK(s["fallback"] ==
        ojson::parse(R"({"decisions": 2, "selections": {"a": 1, "b": 0, "c": 1, "d": 0, "e": 0}})"));
  CHECK(s["unknown_excluded"] == 2);
  CHECK(s["fairness"]["max_min_ratio"] == 2.0);
}

TEST_CASE("report JSON: undefined fairness is null, never NaN") {
  // a always has the lower load: b is a candidate but never chosen, so the
  // minimum count is 0.
  std::string text = RenderJson(BuildReport(ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 5}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival"}
)")
                                                .result));
  CHECK(text.find(R"("max_min_ratio": null)") != std::string::npos);
  ojson fairness = ojson::parse(text)["strategies"][0]["fairness"];
  CHECK(fairness["jain"] == 0.5);
  CHECK(fairness["gini"] == 0.5);
  CHECK(fairness["max_mean_ratio"] == 2.0);

  // No arrivals at all: every figure is null.
  ojson j = ojson::parse(RenderJson(BuildReport(ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}]}
)")
                                                    .result)));
  for (const auto& item : j["strategies"][0]["fairness"].items()) {
    CAPTURE(item.key());
    CHECK(item.value().is_null());
  }
  CHECK(j["strategies"][0]["share"]["a"] == 0.0);
}

TEST_CASE("report JSON: the same replay renders byte-identical text") {
  // Each replay reads its own temporary file: give both the same path.
  Report first_report = BuildReport(ReplayText(kProbe, {"rr", "ll"}).result);
  Report second_report = BuildReport(ReplayText(kProbe, {"rr", "ll"}).result);
  first_report.trace_path = second_report.trace_path = "probe.ndjson";
  std::string first = RenderJson(first_report);
  CHECK(first == RenderJson(second_report));
  CHECK(first.back() == '\n');
}

// Whether `s` carries an unknown-starvation warning naming `id`.
bool WarnsStarvation(const StrategyReport& s, std::string_view id) {
  for (const Warning& w : s.warnings)
    if (w.name == "unknown_starvation" && w.text.starts_with(std::string(id) + " ") &&
        w.text.find("unknown starvation") != std::string::npos)
      return true;
  return false;
}

// a and b report load, c never does: c is contested in every decision.
std::string ContestedTrace(int arrivals) {
  std::string text =
      R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 2}, {"id": "c"}]})"
      "\n";
  for (int i = 0; i < arrivals; ++i)
    text += "{\"t\": " + std::to_string(i) + ", \"type\": \"arrival\"}\n";
  return text;
}

TEST_CASE("report: unknown starvation is warned once a rotation would have reached the Instance") {
  // Three candidates: after 3 contested decisions without a pick, c starved.
  Report three = BuildReport(ReplayText(ContestedTrace(3), {"ll", "rr"}).result);
  CHECK(WarnsStarvation(three.strategies[0], "c"));
  CHECK_FALSE(WarnsStarvation(three.strategies[1], "c"));  // rr chose it
  // Two contested decisions are fewer than the candidates: round_robin would
  // not have reached c yet either, so nothing is claimed.
  Report two = BuildReport(ReplayText(ContestedTrace(2), {"ll", "rr"}).result);
  CHECK_FALSE(WarnsStarvation(two.strategies[0], "c"));
  CHECK_FALSE(WarnsStarvation(two.strategies[1], "c"));
}

}  // namespace
}  // namespace lbsim
