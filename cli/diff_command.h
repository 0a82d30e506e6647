#pragma once

#include <string>
#include <vector>

#include "sim/check/report_diff.h"

namespace lbsim {

// What `lbsim diff BASE.json NEW.json` was asked to do.
struct DiffCommand {
  std::string base;
  std::string next;
  DiffTolerances tolerances;
  std::vector<std::string> pairs;  // "BASE_LABEL=NEW_LABEL"
};

// Prints the comparison; returns 1 when any figure moved beyond its
// tolerance, 0 otherwise. Throws InputError/UsageError (exit 2).
int RunDiff(const DiffCommand& command);

}  // namespace lbsim
