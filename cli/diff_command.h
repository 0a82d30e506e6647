#pragma once

#include <string>
#include <vector>

#include "sim/check/report_diff.h"

namespace lbsim {

// What `lbsim diff BASE.json NEW.json` was asked to do.
struct DiffCommand {
  std::string base;
  std::string next;
  DiffTolerances tolerances;            // the families, set by the --*-tol flags
  std::vector<std::string> tols;        // --tol NAME=TOL
  std::vector<std::string> allow;       // --allow-different values
  std::vector<std::string> pairs;       // "BASE_LABEL=NEW_LABEL"
  bool beyond_spread = false;
  bool only_worse = false;
  std::string format = "text";          // text | json
  std::string junit;                    // JUnit XML path, empty: none
};

// Prints the comparison (and writes the JUnit file); returns 1 when any
// figure moved beyond its tolerance, 0 otherwise. Throws
// InputError/UsageError (exit 2) before printing or writing anything.
int RunDiff(const DiffCommand& command);

}  // namespace lbsim
