// Evaluating expectations: comparison semantics, report paths, properties,
// and the independent dead-choice oracle.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/check/dead_choice_oracle.h"
#include "sim/check/scenario.h"
#include "sim/check/scenario_check.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// inst-a inflight 1, the dotted ids "10.0.0.1" (inflight 5) and
// "10.0.0.1:8000" (load unknown); four arrivals without duration.
// round_robin picks a, 10.0.0.1, 10.0.0.1:8000, a; least_load picks a four
// times (unknown_excluded 4).
const char* kTrace = R"({
  "lbsim_trace": 1,
  "instances": [{"id": "inst-a", "inflight": 1}, {"id": "10.0.0.1", "inflight": 5},
                {"id": "10.0.0.1:8000"}],
  "events": [{"t": 0, "type": "arrival"}, {"t": 1, "type": "arrival"},
             {"t": 2, "type": "arrival"}, {"t": 3, "type": "arrival"}]
})";

ScenarioResult Run(const char* expect, const char* strategies = R"(["rr", "ll"])") {
  ojson doc = {{"lbsim_scenario", 1},
               {"name", "unit"},
               {"trace", ojson::parse(kTrace)},
               {"strategies", ojson::parse(strategies)},
               {"expect", ojson::parse(expect)}};
  return CheckScenario(ParseScenario(doc, "u.json"));
}

// The single result of one expectation.
ExpectationResult One(const char* expectation) {
  std::string list = "[";
  list += expectation;
  list += "]";
  ScenarioResult r = Run(list.c_str());
  REQUIRE(r.expectations.size() == 1);
  return r.expectations[0];
}

std::string Error(const char* expectation) {
  try {
    One(expectation);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("eq compares numbers by value and other scalars exactly") {
  CHECK(One(R"({"path": "round_robin.decisions", "eq": 4})").passed);
  CHECK(One(R"({"path": "round_robin.decisions", "eq": 4.0})").passed);
  CHECK_FALSE(One(R"({"path": "round_robin.decisions", "eq": 3})").passed);
  CHECK_FALSE(One(R"({"path": "round_robin.decisions", "eq": "4"})").passed);
  CHECK(One(R"({"path": "round_robin.status", "eq": "default"})").passed);
  CHECK_FALSE(One(R"({"path": "round_robin.status", "eq": "Default"})").passed);
  // least_load chose only inst-a: the zero minimum makes max_min_ratio null.
  CHECK(One(R"({"path": "least_load.fairness.max_min_ratio", "eq": null})").passed);
  CHECK_FALSE(One(R"({"path": "least_load.fairness.jain", "eq": null})").passed);
}

TEST_CASE("min and max are inclusive, null or non-numbers fail them") {
  ExpectationResult r = One(R"({"path": "least_load.selections.inst-a", "min": 4, "max": 4})");
  CHECK(r.passed);
  CHECK(r.expected == ">= 4 and <= 4");
  CHECK(r.actual == "4");
  CHECK_FALSE(One(R"({"path": "least_load.selections.inst-a", "min": 4.5})").passed);
  CHECK_FALSE(One(R"({"path": "least_load.selections.inst-a", "max": 3.99})").passed);
  r = One(R"({"path": "least_load.fairness.max_min_ratio", "min": 0})");
  CHECK_FALSE(r.passed);
  CHECK(r.actual == "null");
  CHECK_FALSE(One(R"({"path": "round_robin.strategy", "max": 1})").passed);
}

TEST_CASE("above and below are strict, and combine with the other bound") {
  ExpectationResult r = One(R"({"path": "least_load.selections.inst-a", "above": 3, "below": 5})");
  CHECK(r.passed);
  CHECK(r.expected == "> 3 and < 5");
  CHECK_FALSE(One(R"({"path": "least_load.selections.inst-a", "above": 4})").passed);
  CHECK_FALSE(One(R"({"path": "least_load.selections.inst-a", "below": 4})").passed);
  r = One(R"({"path": "least_load.selections.inst-a", "min": 4, "below": 4.5})");
  CHECK(r.passed);
  CHECK(r.expected == ">= 4 and < 4.5");
  CHECK(One(R"({"path": "least_load.selections.inst-a", "above": 3.5, "max": 4})").passed);
  r = One(R"({"path": "least_load.fairness.max_min_ratio", "below": 10})");
  CHECK_FALSE(r.passed);  // null
  CHECK(r.expected == "< 10");
}

TEST_CASE("approx passes within the tolerance, boundary included") {
  // round_robin's share of inst-a is 2/4.
  ExpectationResult r = One(R"({"path": "round_robin.share.inst-a", "approx": 0.4, "tolerance": 0.1})");
  CHECK(r.expected == "within 0.1 of 0.4");
  CHECK(r.actual == "0.5");
  CHECK(One(R"({"path": "round_robin.share.inst-a", "approx": 0.25, "tolerance": 0.25})").passed);
  CHECK_FALSE(One(R"({"path": "round_robin.share.inst-a", "approx": 0.4, "tolerance": 0.09})").passed);
  CHECK_FALSE(One(R"({"path": "least_load.fairness.max_min_ratio", "approx": 0, "tolerance": 1e9})").passed);
}

TEST_CASE("paths: Instance ids with dots, list indices, the trace section") {
  CHECK(One(R"({"path": "round_robin.selections.10.0.0.1", "eq": 1})").passed);
  CHECK(One(R"({"path": "round_robin.selections.10.0.0.1:8000", "eq": 1})").passed);
  CHECK(One(R"({"path": "least_load.unknown_load.decisions.10.0.0.1:8000", "eq": 4})").passed);
  CHECK(One(R"({"path": "trace.instances.2", "eq": "10.0.0.1:8000"})").passed);
  CHECK(One(R"({"path": "trace.arrivals", "eq": 4})").passed);
  CHECK(One(R"({"path": "least_load.params.inflight", "eq": 1})").passed);
}

TEST_CASE("a path the report does not have is an input error naming file and key") {
  CHECK(Error(R"({"path": "least_load.selections.inst-b", "eq": 0})") ==
        "u.json: expect[0].path: \"least_load.selections.inst-b\": the report has no key "
        "\"inst-b\" under least_load.selections; expected one of: inst-a, 10.0.0.1, "
        "10.0.0.1:8000");
  CHECK(Error(R"({"path": "least_load.selections.10.0.0", "eq": 0})").find(
            "has no key \"10\" under least_load.selections") != std::string::npos);
  CHECK(Error(R"({"path": "least_load", "eq": 0})") ==
        "u.json: expect[0].path: \"least_load\" names a whole section; expected a path to "
        "one value, e.g. \"least_load.decisions\"");
  CHECK(Error(R"({"path": "least_load.tie", "eq": 0})") ==
        "u.json: expect[0].path: \"least_load.tie\" names an object (keys: decisions, "
        "selections); expected a path to one value");
  CHECK(Error(R"({"path": "trace.instances.3", "eq": 0})") ==
        "u.json: expect[0].path: \"trace.instances.3\": trace.instances is a list of 3; "
        "expected an index 0 to 2, got \"3\"");
  CHECK(Error(R"({"path": "least_load.decisions.x", "eq": 0})") ==
        "u.json: expect[0].path: \"least_load.decisions.x\": least_load.decisions is a "
        "single value and has no key \"x\"");
  CHECK(Error(R"({"path": "round_robin.reasons.tie", "eq": 0})").find(
            "no key \"tie\" under round_robin.reasons") != std::string::npos);
  CHECK(Error(R"({"path": "ll.decisions", "eq": 0})") ==
        "u.json: expect[0].path: no strategy labelled \"ll\" in the report; expected one "
        "of: round_robin, least_load (paths name strategies by canonical name: least_load)");
  CHECK(Error(R"({"property": "choices", "strategy": "least_load#2", "eq": []})") ==
        "u.json: expect[0].strategy: no strategy labelled \"least_load#2\" in the report; "
        "expected one of: round_robin, least_load");
}

TEST_CASE("repeated strategies are addressed by their report label") {
  ScenarioResult r = Run(R"([{"path": "least_load#2.requested_as", "eq": "ll:qps_1m=0"},
                             {"property": "same_decisions", "strategies": ["least_load#2", "least_load"]}])",
                         R"(["ll", "ll:qps_1m=0"])");
  CHECK(r.expectations[0].passed);
  CHECK(r.expectations[1].passed);
}

TEST_CASE("same_decisions reports the first difference") {
  ExpectationResult r =
      One(R"({"property": "same_decisions", "strategies": ["least_load", "round_robin"]})");
  CHECK_FALSE(r.passed);
  CHECK(r.subject == "least_load same_decisions round_robin");
  CHECK(r.actual ==
        "different at 2 of 4 arrivals; first: arrival 2 (t=1, request r2): least_load chose "
        "inst-a, round_robin chose 10.0.0.1");
}

TEST_CASE("choices compares the whole sequence") {
  ExpectationResult r = One(
      R"({"property": "choices", "strategy": "round_robin", "eq": ["inst-a", "10.0.0.1", "10.0.0.1:8000", "inst-a"]})");
  CHECK(r.passed);
  CHECK(r.actual == "the same 4 choices");
  r = One(R"({"property": "choices", "strategy": "round_robin", "eq": ["inst-a", "10.0.0.1"]})");
  CHECK_FALSE(r.passed);
  CHECK(r.actual ==
        R"(["inst-a","10.0.0.1","10.0.0.1:8000","inst-a"]; 4 arrivals, expected 2)");
  r = One(R"({"property": "choices", "strategy": "least_load", "eq": ["inst-a", "inst-a", null, "inst-a"]})");
  CHECK_FALSE(r.passed);
  CHECK(r.actual ==
        R"(["inst-a","inst-a","inst-a","inst-a"]; first difference at arrival 3 (t=2, request r3))");
}

TEST_CASE("every_alive_chosen lists the Instances below the minimum") {
  ExpectationResult r =
      One(R"({"property": "every_alive_chosen", "strategy": "round_robin", "min": 2})");
  CHECK_FALSE(r.passed);
  CHECK(r.actual == "10.0.0.1 chosen 1 time, 10.0.0.1:8000 chosen 1 time");
  r = One(R"({"property": "every_alive_chosen", "strategy": "round_robin", "min": 1})");
  CHECK(r.passed);
  CHECK(r.actual == "fewest: 10.0.0.1 chosen 1 time");
}

TEST_CASE("never_chose_dead holds for the simulator's decisions") {
  ExpectationResult r = One(R"({"property": "never_chose_dead", "strategy": "least_load"})");
  CHECK(r.passed);
  CHECK(r.actual == "none of 4 decisions that chose an Instance did");
}

TEST_CASE("an inline trace is validated exactly like a trace file") {
  auto error = [](const char* trace) {
    ojson doc = {{"lbsim_scenario", 1},
                 {"name", "unit"},
                 {"trace", ojson::parse(trace)},
                 {"expect", ojson::parse(R"([{"path": "round_robin.decisions", "eq": 0}])")}};
    try {
      CheckScenario(ParseScenario(doc, "u.json"));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error(R"({"lbsim_trace": 1})") ==
        "u.json: trace: header: field \"events\": expected an array of events, but it is missing");
  CHECK(error(R"({"lbsim_trace": 1, "events": {}})") ==
        "u.json: trace: header: field \"events\": expected an array of events");
  CHECK(error(R"({"lbsim_trace": 2, "events": []})").rfind("u.json: trace: header: field \"lbsim_trace\"", 0) == 0);
  CHECK(error(R"({"lbsim_trace": 1, "events": [{"t": 1, "type": "arrival"}, {"t": 0, "type": "arrival"}]})")
            .rfind("u.json: trace: events[1]: field \"t\": expected a time >= 1", 0) == 0);
  CHECK(error(R"({"lbsim_trace": 1, "events": [{"t": 0, "type": "down", "instance": "x"}]})")
            .rfind("u.json: trace: events[0]: field \"instance\"", 0) == 0);
}

// Feeds the oracle decisions written by hand, as a broken simulator might.
TEST_CASE("the dead-choice oracle catches a choice of a down or removed Instance") {
  const char* trace = R"({"lbsim_trace": 1,
    "instances": [{"id": "a"}, {"id": "b", "alive": false}],
    "events": [{"t": 0, "type": "arrival"},
               {"t": 1, "type": "up", "instance": "b"}, {"t": 1, "type": "arrival"},
               {"t": 2, "type": "remove", "instance": "a"}, {"t": 2, "type": "arrival"},
               {"t": 3, "type": "up", "instance": "a"}, {"t": 3, "type": "arrival"}]})";
  auto record = [](DecisionRecorder& r, std::uint64_t seq, const std::string* id) {
    TraceTime t{static_cast<double>(seq - 1), true, seq - 1};
    r.Write(DecisionRecord{"x", seq, &t, "req", id, id ? "round_robin" : "no_instances", 1});
  };
  const std::string a = "a", b = "b";
  std::vector<DecisionRecorder> recorders(2);
  // Strategy 0 behaves: a, b, b, a. Strategy 1 picks b while down, a while removed.
  for (auto [seq, id] : {std::pair{1, &a}, {2, &b}, {3, &b}, {4, &a}}) record(recorders[0], seq, id);
  for (auto [seq, id] : {std::pair{1, &b}, {2, &a}, {3, &a}, {4, nullptr}}) record(recorders[1], seq, id);

  DeadChoiceOracle oracle(recorders);
  InstanceTable table;
  ReadTraceValue("oracle", nlohmann::json::parse(trace), table, oracle);
  const auto& f = oracle.findings();
  CHECK(f[0].violations == 0);
  CHECK(f[0].chose == 4);
  CHECK(f[1].violations == 2);
  CHECK(f[1].chose == 3);
  REQUIRE(f[1].first);
  CHECK(f[1].first->seq == 1);
  CHECK(*f[1].first->instance == "b");
}

}  // namespace
}  // namespace lbsim
