// Check results for a terminal or a CI log: one self-contained line per
// expectation ("PASS|FAIL FILE: KEY: SUBJECT: expected ..., actual ..."),
// or quietly only the failed ones, then one summary line.

#include <fmt/format.h>

#include "sim/check/scenario_check.h"
#include "sim/io/printable.h"

namespace lbsim {

std::string RenderCheckText(const std::vector<ScenarioResult>& results, bool quiet) {
  std::string out;
  for (const ScenarioResult& s : results) {
    for (const ExpectationResult& r : s.expectations) {
      if (quiet && r.passed) continue;
      // Text from the scenario and the report is escaped: a name or an id
      // cannot start a line of its own (a forged PASS) or drive the terminal.
      out += fmt::format("{} {}: {}: {}: expected {}, actual {}", r.passed ? "PASS" : "FAIL",
                         Printable(s.path), Printable(r.key), Printable(r.subject),
                         Printable(r.expected), Printable(r.actual));
      if (!r.passed && !r.why.empty()) out += fmt::format(" (why: {})", Printable(r.why));
      out += '\n';
    }
  }
  const CheckSummary sum = Summarize(results);
  out += fmt::format("lbsim check: {} scenario{}, {} expectation{}: {} passed, {} failed\n",
                     sum.scenarios, sum.scenarios == 1 ? "" : "s", sum.expectations,
                     sum.expectations == 1 ? "" : "s", sum.expectations - sum.failed,
                     sum.failed);
  return out;
}

}  // namespace lbsim
