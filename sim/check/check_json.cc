// Check results for machines: one JSON object, scenarios in the order they
// ran, expectations in file order.

#include <nlohmann/json.hpp>

#include "sim/check/scenario_check.h"

namespace lbsim {

std::string RenderCheckJson(const std::vector<ScenarioResult>& results) {
  using ojson = nlohmann::ordered_json;
  ojson scenarios = ojson::array();
  for (const ScenarioResult& s : results) {
    ojson expectations = ojson::array();
    for (const ExpectationResult& r : s.expectations)
      expectations.push_back({{"key", r.key},
                              {"subject", r.subject},
                              {"passed", r.passed},
                              {"expected", r.expected},
                              // A report value typed; a property's outcome as text.
                              {"actual", r.actual_json.empty() ? ojson(r.actual)
                                                               : ojson::parse(r.actual_json)},
                              {"why", r.why}});
    scenarios.push_back({{"file", s.path},
                         {"name", s.name},
                         {"proxy", {{"profile", s.proxy},
                                    {"python", s.python.empty() ? ojson(nullptr) : ojson(s.python)}}},
                         {"passed", s.expectations.size() - s.failed()},
                         {"failed", s.failed()},
                         {"expectations", std::move(expectations)}});
  }
  const CheckSummary sum = Summarize(results);
  ojson j;
  j["lbsim_check"] = 1;
  j["scenarios"] = std::move(scenarios);
  j["summary"] = {{"scenarios", sum.scenarios},
                  {"expectations", sum.expectations},
                  {"passed", sum.expectations - sum.failed},
                  {"failed", sum.failed}};
  return j.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace lbsim
