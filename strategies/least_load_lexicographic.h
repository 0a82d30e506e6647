#pragma once

#include "strategies/registry.h"

namespace lbsim {

// least_load as Proxy versions df8382d, 2f1019a and 55b32e9 define it (L1,
// lexicographic: see least_load_lexicographic.cc), built from the spec's
// `least_load` entry: same names, no parameters.
StrategyInfo LexicographicLeastLoadInfo(const StrategyInfo& least_load);

}  // namespace lbsim
