// Scenario files: what is accepted, what it means, and that every malformed
// input is refused with the file and the offending key.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/check/scenario.h"
#include "sim/replay/what_if_keys.h"
#include "what_if_fields.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// A valid scenario with an inline one-arrival trace; `patch` is merged in
// (a null value removes the key).
ojson Doc(const ojson& patch = ojson::object()) {
  ojson doc = ojson::parse(R"({
    "lbsim_scenario": 1,
    "name": "unit",
    "trace": {"lbsim_trace": 1, "instances": [{"id": "inst-a"}],
              "events": [{"t": 0, "type": "arrival"}]},
    "expect": [{"path": "round_robin.decisions", "eq": 1}]
  })");
  doc.merge_patch(patch);
  return doc;
}

// The message of the InputError that parsing `doc` throws ("" if none).
std::string Error(const ojson& doc, const std::string& path = "dir/s.json") {
  try {
    ParseScenario(doc, path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

ojson Expect(const char* expectation) {
  return ojson{{"expect", ojson::array({ojson::parse(expectation)})}};
}

TEST_CASE("a minimal scenario runs the default strategy on an inline trace") {
  Scenario s = ParseScenario(Doc(), "dir/s.json");
  CHECK(s.path == "dir/s.json");
  CHECK(s.name == "unit");
  REQUIRE(s.strategies.size() == 1);
  CHECK(s.strategies[0].info->name == "round_robin");
  CHECK(s.inline_trace != nullptr);
  CHECK(s.trace_path == "dir/s.json: trace");
  REQUIRE(s.expectations.size() == 1);
  CHECK(s.expectations[0].key == "expect[0]");
  CHECK(s.expectations[0].kind == ExpectationKind::kValue);
  CHECK(s.expectations[0].path == "round_robin.decisions");
  REQUIRE(s.expectations[0].eq);
  CHECK(std::get<double>(s.expectations[0].eq->value) == 1.0);
}

TEST_CASE("options: every what-if option, the seed or seeds, cache_blocks") {
  Scenario s = ParseScenario(Doc(ojson::parse(R"({
    "strategies": ["rr", "rand"],
    "options": {"slots": 4, "speeds": {"inst-a": 2.5}, "stale_interval": 2, "stale_delay": 0.5,
                "stale_jitter": 0.25, "window": 10, "seeds": [7, 3], "cache_blocks": 64}})")),
                             "s.json");
  CHECK(s.sim.slots == 4);
  REQUIRE(s.sim.speeds.size() == 1);
  CHECK(s.sim.speeds[0] == std::pair<std::string, double>{"inst-a", 2.5});
  CHECK(s.sim.stale_interval == 2.0);
  CHECK(s.sim.stale_delay == 0.5);
  CHECK(s.sim.stale_jitter == 0.25);
  CHECK(s.sim.window == 10.0);
  CHECK(s.sim.cache_blocks == 64);
  CHECK(s.Seeds() == std::vector<std::uint64_t>{7, 3});
  // The first seed seeds the parsed strategies; each seed its own run.
  CHECK(s.strategies[1].params.Number("seed") == 7);
  CHECK(s.StrategiesFor(3)[1].params.Number("seed") == 3);
  CHECK(s.OptionsFor(3).seed == 3);
  CHECK(s.OptionsFor(3).slots == 4);
  // Without seeds: one run under options.seed (default 1).
  Scenario one = ParseScenario(Doc(ojson::parse(R"({"options": {"seed": 9}})")), "s.json");
  CHECK(one.Seeds() == std::vector<std::uint64_t>{9});
  CHECK(ParseScenario(Doc(), "s.json").Seeds() == std::vector<std::uint64_t>{1});
}

TEST_CASE("strategies: a spec string or an object with params, plus options.set") {
  Scenario s = ParseScenario(
      Doc(ojson::parse(R"({
        "strategies": ["rr", "ll:inflight=2", {"strategy": "LL", "params": {"qps_1m": 0, "queue_depth": 0.5}}],
        "options": {"set": {"least_load.active_ready": 3}}})")),
      "s.json");
  REQUIRE(s.strategies.size() == 3);
  CHECK(s.strategies[0].info->name == "round_robin");
  CHECK(s.strategies[1].requested_as == "ll:inflight=2");
  CHECK(s.strategies[1].params.Number("inflight") == 2);
  CHECK(s.strategies[1].params.Number("active_ready") == 3);  // options.set reaches every run
  CHECK(s.strategies[2].info->name == "least_load");
  CHECK(s.strategies[2].requested_as == "LL:qps_1m=0:queue_depth=0.5");
  CHECK(s.strategies[2].params.Number("qps_1m") == 0);
  CHECK(s.strategies[2].params.Number("queue_depth") == 0.5);
  CHECK(s.strategies[2].params.Number("active_ready") == 3);
}

TEST_CASE("a trace file is resolved against the scenario's folder") {
  Scenario s = ParseScenario(Doc(ojson{{"trace", "../traces/examples/ties.json"}}),
                             "scenarios/x.json");
  CHECK(s.trace_path == "traces/examples/ties.json");
  CHECK(s.inline_trace == nullptr);
  CHECK(Error(Doc(ojson{{"trace", "ties.json"}}), "scenarios/x.json") ==
        "scenarios/x.json: trace: trace file \"ties.json\" not found (looked for "
        "scenarios/ties.json)");
}

TEST_CASE("value comparisons: eq, min and max, approx with tolerance") {
  Scenario s = ParseScenario(
      Doc(ojson::parse(R"({"expect": [
        {"path": "round_robin.status", "eq": "default"},
        {"path": "round_robin.fairness.gini", "eq": null},
        {"path": "round_robin.decisions", "min": 1, "max": 2},
        {"path": "round_robin.share.inst-a", "approx": 1, "tolerance": 0.1, "why": "all"}]})")),
      "s.json");
  REQUIRE(s.expectations.size() == 4);
  CHECK(std::get<std::string>(s.expectations[0].eq->value) == "default");
  CHECK(std::holds_alternative<std::nullptr_t>(s.expectations[1].eq->value));
  CHECK(s.expectations[2].min->value == 1);
  CHECK(s.expectations[2].max->text == "2");
  CHECK(s.expectations[3].approx->value == 1);
  CHECK(s.expectations[3].tolerance->value == 0.1);
  CHECK(s.expectations[3].why == "all");
}

TEST_CASE("properties") {
  Scenario s = ParseScenario(
      Doc(ojson::parse(R"({"expect": [
        {"property": "never_chose_dead", "strategy": "round_robin"},
        {"property": "every_alive_chosen", "strategy": "round_robin", "min": 2},
        {"property": "same_decisions", "strategies": ["round_robin", "round_robin#2"]},
        {"property": "choices", "strategy": "round_robin", "eq": ["inst-a", null]}]})")),
      "s.json");
  CHECK(s.expectations[0].kind == ExpectationKind::kNeverChoseDead);
  CHECK(s.expectations[1].kind == ExpectationKind::kEveryAliveChosen);
  CHECK(s.expectations[1].min_times == 2);
  CHECK(s.expectations[2].strategies == std::vector<std::string>{"round_robin", "round_robin#2"});
  REQUIRE(s.expectations[3].choices.size() == 2);
  CHECK(s.expectations[3].choices[0] == "inst-a");
  CHECK_FALSE(s.expectations[3].choices[1].has_value());
}

TEST_CASE("every keyed what-if option is a scenario's options key, set as a sweep sets it") {
  for (const WhatIfKey& k : WhatIfKeys()) {
    CAPTURE(k.key);
    ojson value;
    switch (k.kind) {
      case WhatIfKey::Kind::kInteger: value = k.range->max; break;
      case WhatIfKey::Kind::kTime: value = 2.5; break;
      case WhatIfKey::Kind::kSwitch: value = true; break;
    }
    // The options an option needs beside it, so that it alone decides.
    ojson options = {{std::string(k.key), value}};
    if (k.key.starts_with("stale_")) options["stale_interval"] = 1;
    if (k.key.starts_with("signal_")) {
      options["engine"] = "llama-3.1-8b-h100";
      options["signal_interval"] = 1;
    }
    if (k.key.ends_with("_concurrency")) options["proxy_queue"] = true;
    options[std::string(k.key)] = value;
    const double number = k.kind == WhatIfKey::Kind::kSwitch ? 1.0 : value.get<double>();
    CHECK(Error(Doc(ojson{{"options", options}})).empty());
    const Scenario with = ParseScenario(Doc(ojson{{"options", options}}), "s.json");
    // The same options without the key, then the key set as the table
    // sets it: the scenario set that field and no other.
    options.erase(std::string(k.key));
    SimOptions expected = ParseScenario(Doc(ojson{{"options", options}}), "s.json").sim;
    k.set(expected, number);
    CHECK(testing::WhatIfFields(with.sim) == testing::WhatIfFields(expected));
    CHECK(testing::WhatIfFields(with.sim) != testing::WhatIfFields(SimOptions{}));
  }
}

TEST_CASE("malformed scenarios name the file and the offending key") {
  struct Case {
    ojson patch;
    const char* error;
  };
  const Case cases[] = {
      {ojson{{"lbsim_scenario", nullptr}}, "s.json: lbsim_scenario: expected 1 (the scenario format version), but it is missing"},
      {ojson{{"lbsim_scenario", "1"}}, "s.json: lbsim_scenario: expected 1 (the scenario format version), got \"1\""},
      {ojson{{"name", ""}}, "s.json: name: expected a non-empty string, got \"\""},
      {ojson{{"descripton", "x"}}, "s.json: descripton: unknown key; expected one of: lbsim_scenario, name, description, trace, strategies, options, expect"},
      {ojson{{"trace", nullptr}}, "s.json: trace: expected a trace file path (relative to the scenario file) or an inline trace object, but it is missing"},
      {ojson{{"trace", 3}}, "s.json: trace: expected a trace file path (relative to the scenario file) or an inline trace object, got 3"},
      {ojson{{"trace", "."}}, "s.json: trace: \".\" is a directory, expected a trace file"},
      {ojson{{"trace", "CMakeLists.txt"}}, "s.json: trace: cannot tell the encoding of \"CMakeLists.txt\" from its name (expected .json, .ndjson or .jsonl); set options.trace_format to \"document\" or \"lines\""},
      {ojson{{"options", {{"trace_format", "lines"}}}}, "s.json: options.trace_format: applies only to a trace file, not to an inline trace"},
      {ojson{{"options", {{"trace_format", "xml"}}}}, "s.json: options.trace_format: expected \"auto\", \"document\" or \"lines\", got \"xml\""},
      {ojson{{"options", {{"sede", 1}}}}, "s.json: options.sede: unknown key; expected one of: trace_format, set, proxy, python, slots, stale_interval, stale_delay, stale_jitter, window, seed, cache_blocks, signal_interval, signal_delay, signal_jitter, proxy_queue, ready_concurrency, prepare_concurrency, speeds, seeds, engine, slo, predictor_coefficients"},
      {ojson{{"options", {{"seed", 1.5}}}}, "s.json: options.seed: expected an integer from 0 to 2^53, got 1.5"},
      {ojson{{"options", {{"seed", -1}}}}, "s.json: options.seed: expected an integer from 0 to 2^53, got -1"},
      {ojson{{"options", {{"slots", 0}}}}, "s.json: options.slots: expected an integer from 1 to 2^30 (slots per Instance), got 0"},
      {ojson{{"options", {{"proxy_queue", 1}}}}, "s.json: options.proxy_queue: expected true or false, got 1"},
      {ojson{{"options", {{"ready_concurrency", 4}}}}, "s.json: options.proxy_queue: options.ready_concurrency, options.prepare_concurrency and options.predictor_coefficients configure the Proxy queue model: add \"proxy_queue\": true"},
      {ojson{{"options", {{"proxy_queue", true}, {"ready_concurrency", 0}}}}, "s.json: options.ready_concurrency: expected an integer from 1 to 4096 (ready workers per Instance), got 0"},
      {ojson{{"options", {{"proxy_queue", true}, {"predictor_coefficients", {1, 2, 3}}}}}, "s.json: options.predictor_coefficients: expected an array of four finite numbers [a, b, c, d], got [1,2,3]"},
      {ojson{{"options", {{"slots", "4"}}}}, "s.json: options.slots: expected an integer from 1 to 2^30 (slots per Instance), got \"4\""},
      {ojson{{"options", {{"speeds", {{"inst-a", 2}}}}}}, "s.json: options.speeds: needs options.slots or options.engine (speeds matter only to a service model)"},
      {ojson{{"options", {{"slots", 2}, {"engine", "llama-3.1-8b-h100"}}}}, "s.json: options.engine: options.slots and options.engine are two service models; choose one"},
      {ojson{{"options", {{"slots", 1}, {"speeds", {{"inst-a", 0}}}}}}, "s.json: options.speeds.inst-a: expected a number > 0 (a service speed), got 0"},
      {ojson{{"options", {{"slots", 1}, {"speeds", ojson::array()}}}}, "s.json: options.speeds: expected an object of \"INSTANCE\": SPEED (numbers > 0), got []"},
      {ojson{{"options", {{"stale_delay", 1}}}}, "s.json: options.stale_delay: needs options.stale_interval (stale metrics)"},
      {ojson{{"options", {{"stale_interval", 0}}}}, "s.json: options.stale_interval: expected a number > 0 (in the trace's time unit), got 0"},
      {ojson{{"options", {{"stale_interval", 1}, {"stale_jitter", -1}}}}, "s.json: options.stale_jitter: expected a number >= 0 (in the trace's time unit), got -1"},
      {ojson{{"options", {{"window", "10"}}}}, "s.json: options.window: expected a finite number, got \"10\""},
      {ojson{{"options", {{"seeds", {1}}}}}, "s.json: options.seeds: expected an array of at least two seeds (integers from 0 to 2^53), got [1]"},
      {ojson{{"options", {{"seeds", {1, 2, 1}}}}}, "s.json: options.seeds[2]: seed 1 is already in the list"},
      {ojson{{"options", {{"seeds", std::vector<int>(1001, 7)}}}}, "s.json: options.seeds: at most 1000 seeds (one replay each), got 1001"},
      {ojson{{"options", {{"seed", 1}, {"seeds", {1, 2}}}}}, "s.json: options.seeds: give either options.seed or options.seeds, not both"},
      {ojson{{"options", {{"cache_blocks", 0}}}}, "s.json: options.cache_blocks: expected an integer from 1 to 2^53 (KV-cache blocks per Instance), got 0"},
      {ojson{{"options", {{"set", {{"qps_1m", 0}}}}}}, "s.json: options.set.qps_1m: expected a key STRATEGY.PARAMETER, e.g. \"least_load.qps_1m\""},
      {ojson{{"options", {{"set", {{"ll.qps_1m", true}}}}}}, "s.json: options.set.ll.qps_1m: expected a number or a string, got true"},
      {ojson{{"options", {{"set", {{"ll.qps_1m", 0}}}}}}, "s.json: options.set.ll.qps_1m: strategy least_load is not among the strategies of this scenario"},
      {ojson{{"strategies", ojson::array()}}, "s.json: strategies: expected a non-empty array of strategies"},
      {ojson{{"strategies", {"rr", "nope"}}}, "s.json: strategies[1]: unknown strategy 'nope'"},
      {ojson{{"strategies", {{{"strategy", "ll"}, {"params", {{"qps", 1}}}}}}}, "s.json: strategies[0]: strategy least_load: unknown parameter 'qps'"},
      {ojson{{"strategies", {{{"strategy", "ll"}, {"params", {{"a:b", 1}}}}}}}, "s.json: strategies[0].params.a:b: expected a parameter name"},
      {ojson{{"strategies", {{{"name", "ll"}}}}}, "s.json: strategies[0].name: unknown key; expected one of: strategy, params"},
      {ojson{{"expect", nullptr}}, "s.json: expect: expected a non-empty array of expectations, but it is missing"},
      {ojson{{"expect", ojson::array()}}, "s.json: expect: expected a non-empty array of expectations, got []"},
      {Expect(R"({"eq": 1})"), "s.json: expect[0]: expected \"path\" (a report value to compare) or \"property\""},
      {Expect(R"({"path": "x", "property": "choices"})"), "s.json: expect[0]: give either \"path\" or \"property\", not both"},
      {Expect(R"({"path": "round_robin.decisions"})"), "s.json: expect[0]: expected a comparison: eq, min, max, above, below, or approx with tolerance"},
      {Expect(R"({"path": "round_robin.decisions", "ge": 1})"), "s.json: expect[0].ge: unknown key"},
      {Expect(R"({"path": "", "eq": 1})"), "s.json: expect[0].path: expected a non-empty string"},
      {Expect(R"({"path": "a.b", "eq": [1]})"), "s.json: expect[0].eq: expected a number, string, boolean or null, got [1]"},
      {Expect(R"({"path": "a.b", "min": "1"})"), "s.json: expect[0].min: expected a finite number, got \"1\""},
      {Expect(R"({"path": "a.b", "eq": 1, "max": 2})"), "s.json: expect[0].eq: cannot be combined with min, max, above, below or approx"},
      {Expect(R"({"path": "a.b", "approx": 1, "min": 0, "tolerance": 1})"), "s.json: expect[0].approx: cannot be combined with min, max, above or below"},
      {Expect(R"({"path": "a.b", "approx": 1, "below": 2, "tolerance": 1})"), "s.json: expect[0].approx: cannot be combined with min, max, above or below"},
      {Expect(R"({"path": "a.b", "min": 1, "above": 0})"), "s.json: expect[0].above: cannot be combined with min (one lower bound)"},
      {Expect(R"({"path": "a.b", "max": 1, "below": 2})"), "s.json: expect[0].below: cannot be combined with max (one upper bound)"},
      {Expect(R"({"path": "a.b", "above": 1, "below": 1})"), "s.json: expect[0].below: expected a number > above (1): no value lies between them, got 1"},
      {Expect(R"({"path": "a.b", "min": 1, "below": 1})"), "s.json: expect[0].below: expected a number > min (1): no value lies between them, got 1"},
      {Expect(R"({"path": "a.b", "below": "1"})"), "s.json: expect[0].below: expected a finite number, got \"1\""},
      {Expect(R"({"path": "a.b", "min": 0, "tolerance": 1})"), "s.json: expect[0].tolerance: applies only to approx"},
      {Expect(R"({"path": "a.b", "approx": 1, "tolerance": -0.5})"), "s.json: expect[0].tolerance: expected a number >= 0, got -0.5"},
      {Expect(R"({"path": "a.b", "min": 3, "max": 2})"), "s.json: expect[0].max: expected a number >= min (3), got 2"},
      {Expect(R"({"path": "a.b", "eq": 1, "why": 2})"), "s.json: expect[0].why: expected a string, got 2"},
      {Expect(R"({"property": "never_chose_dead"})"), "s.json: expect[0].strategy: expected a strategy label from the report, but it is missing"},
      {Expect(R"({"property": "never_chose_dead", "strategy": "rr", "min": 1})"), "s.json: expect[0].min: unknown key"},
      {Expect(R"({"property": "every_alive_chosen", "strategy": "rr", "min": 0})"), "s.json: expect[0].min: expected an integer >= 1 (times each Instance was chosen), got 0"},
      {Expect(R"({"property": "every_alive_chosen", "strategy": "rr", "min": 1.5})"), "s.json: expect[0].min: expected an integer >= 1"},
      {Expect(R"({"property": "same_decisions", "strategies": ["rr"]})"), "s.json: expect[0].strategies: expected two different strategy labels from the report, got [\"rr\"]"},
      {Expect(R"({"property": "same_decisions", "strategies": ["rr", "rr"]})"), "s.json: expect[0].strategies: expected two different strategy labels"},
      {Expect(R"({"property": "choices", "strategy": "rr", "eq": ["inst-a", 2]})"), "s.json: expect[0].eq[1]: expected a non-empty string, got 2"},
      {Expect(R"({"property": "choices", "strategy": "rr"})"), "s.json: expect[0].eq: expected an array with the Instance chosen at each arrival (null: no_instances), but it is missing"},
      {Expect(R"({"property": "fair", "strategy": "rr"})"), "s.json: expect[0].property: expected never_chose_dead, every_alive_chosen, same_decisions, choices or warning, got \"fair\""},
      {Expect(R"({"property": "warning", "strategy": "rr"})"), "s.json: expect[0].name: expected a warning name: any, unknown_starvation, never_chosen, concentration, herding, overload, fallback_burst, no_instances, refused, never_completed, proxy_differs, stuck, parameters_changed, ignored_inflight, ignored_null_qps_1m, engine_rejected, misspelt_key, but it is missing"},
      {Expect(R"({"property": "warning", "name": "herd"})"), "s.json: expect[0].name: expected a warning name: any, unknown_starvation"},
      {Expect(R"({"property": "warning", "name": "herding", "present": "yes"})"), "s.json: expect[0].present: expected true or false, got \"yes\""},
      {Expect(R"({"property": "warning", "name": "herding", "min": 1})"), "s.json: expect[0].min: unknown key; expected one of: property, strategy, name, present, why"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.patch.dump());
    std::string error = Error(Doc(c.patch), "s.json");
    CAPTURE(error);
    CHECK(error.rfind(c.error, 0) == 0);
  }
  CHECK(Error(ojson::array(), "s.json") == "s.json: expected a JSON object (a scenario), got []");
}

TEST_CASE("LoadScenario reports JSON syntax errors with line and column") {
  try {
    LoadScenario("tests/check/malformed/not_json.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).rfind("tests/check/malformed/not_json.json:3:1: invalid JSON: ", 0) == 0);
  }
  CHECK_THROWS_WITH_AS(LoadScenario("tests/check/no_such.json"),
                       "tests/check/no_such.json: cannot read scenario: No such file or directory",
                       InputError);
}

}  // namespace
}  // namespace lbsim
