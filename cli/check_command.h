#pragma once

#include <string>
#include <vector>

namespace lbsim {

// What `lbsim check PATH... [--junit FILE] [--format text|json]` was asked
// to do.
struct CheckCommand {
  std::vector<std::string> paths;  // scenario files or folders
  std::string junit;               // JUnit XML path, empty: none
  std::string html;                // HTML page path, empty: none
  std::string format = "text";     // text | json
  bool quiet = false;              // text: failed expectations only
  std::vector<std::string> fail_on;  // --fail-on values
  bool allow_exec = false;         // run exec:COMMAND strategies of scenarios
};

// Runs every scenario and prints one line per expectation and a summary.
// Returns 0 when every expectation holds and 1 when one fails; throws
// InputError/UsageError (exit 2) before printing or writing anything: also
// for a scenario with an exec:COMMAND strategy, unless allow_exec.
int RunCheck(const CheckCommand& command);

}  // namespace lbsim
