#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/check/scenario.h"

namespace lbsim {

// The outcome of one expectation.
struct ExpectationResult {
  std::string key;       // where it is in the scenario file, e.g. "expect[2]"
  std::string subject;   // a report path, or "LABEL PROPERTY [LABEL]"
  std::string expected;  // e.g. "== 8", ">= 0.9 and <= 1"
  std::string actual;    // what the run showed
  std::string why;       // the scenario's note, may be empty
  bool passed = false;
  // For a report value: the actual value as JSON text, typed (a number,
  // string, boolean or null; under several seeds that gave different
  // values, {"min": .., "median": .., "max": ..} of numbers or the list
  // of values). Empty for a property.
  std::string actual_json;
};

// The outcomes of one scenario's expectations, in file order.
struct ScenarioResult {
  std::string path;
  std::string name;
  // The Proxy the scenario replayed, as its report names it
  // ("cacheroute@28e857c", "3.12"; the python is empty for spec).
  std::string proxy;
  std::string python;
  std::vector<ExpectationResult> expectations;

  std::size_t failed() const;
};

// Replays the scenario's trace through its strategies, once per seed
// (Scenario::Seeds), builds the same Report a replay prints (paths address
// its JSON keys) and evaluates every expectation: it holds when it holds
// under every seed. Each name of `fail_on` (a warning name, or "warning":
// any) adds a result that fails when a run raised that warning. Throws
// InputError naming the scenario file and key for a path the report does
// not have, a strategy label it does not have, or a bad trace.
ScenarioResult CheckScenario(const Scenario& scenario,
                             const std::vector<std::string>& fail_on = {});

// Evaluates value expectations (a replay's --expect) on the JSON reports
// of one run per seed (`reports[k]`, `lbsim --format json`'s text, under
// `seeds[k]`), as CheckScenario does: each holds when it holds under every
// seed. Throws UsageError, naming the expectation's key, for a path the
// reports do not have.
std::vector<ExpectationResult> CheckReportValues(const std::vector<Expectation>& expectations,
                                                const std::vector<std::string>& reports,
                                                const std::vector<std::uint64_t>& seeds);

// Totals over many scenario results.
struct CheckSummary {
  std::size_t scenarios = 0;
  std::size_t expectations = 0;
  std::size_t failed = 0;
};
CheckSummary Summarize(const std::vector<ScenarioResult>& results);

// Renderings of check results; each is deterministic and ends in "\n".
// One line per expectation, then a summary line; `quiet`: failed ones only.
std::string RenderCheckText(const std::vector<ScenarioResult>& results, bool quiet = false);
// A JSON object: every scenario with its expectations, and the summary.
std::string RenderCheckJson(const std::vector<ScenarioResult>& results);
// JUnit XML: one testsuite per scenario file, one testcase per expectation,
// a <failure> with expected and actual for each failed one.
std::string RenderCheckJUnit(const std::vector<ScenarioResult>& results);
// One self-contained HTML page: the totals, then the failed expectations
// with their expected and actual values, each scenario's counts (failing
// ones first), then the expectations that held.
std::string RenderCheckHtml(const std::vector<ScenarioResult>& results);

}  // namespace lbsim
