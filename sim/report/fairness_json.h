#pragma once

#include <nlohmann/json_fwd.hpp>

#include "sim/report/fairness.h"

namespace lbsim {

// The six fairness figures as the JSON report and the sweep's JSON rows
// both write them: jain, jain_eligible, cv, max_min_ratio, max_mean_ratio,
// gini, in that order; an undefined figure is null.
nlohmann::ordered_json FairnessJson(const Fairness& fairness);

}  // namespace lbsim
