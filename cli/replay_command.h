#pragma once

#include <string>
#include <vector>

namespace lbsim {

// What `lbsim [OPTIONS] TRACE` was asked to do.
struct ReplayCommand {
  std::string trace;
  std::vector<std::string> strategies;  // specs; empty: the default strategy
  std::vector<std::string> settings;    // NAME.KEY=VALUE
  std::string format = "table";         // table | json | csv
  std::string output;                   // empty or "-": standard output
  std::string decisions;                // decision log path, empty: none
  std::string trace_format = "auto";
};

// Replays and writes the report and decision log. Every output file appears
// only complete. Returns the exit status; throws UsageError/InputError.
int RunReplay(const ReplayCommand& command);

// Prints the strategy registry as a table to standard output.
int RunListStrategies();

}  // namespace lbsim
