#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/proxy_options.h"

namespace lbsim {

// What `lbsim sweep [OPTIONS] TRACE...` was asked to do.
struct SweepCommand {
  std::vector<std::string> traces;
  std::vector<std::string> strategies;  // specs; empty: the default strategy
  std::vector<std::string> settings;    // NAME.KEY=VALUE for every run
  std::vector<std::string> vary;        // NAME.KEY=V1,V2,...
  std::vector<std::uint64_t> seeds;
  unsigned jobs = 0;                    // 0: one per hardware thread
  std::string shard;                    // "I/N", empty: the whole sweep
  std::string format;                   // csv | json | html; empty: by --output, else csv
  std::string output;                   // empty or "-": standard output
  std::string trace_format = "auto";
  ProxyOptions proxy;  // --proxy, --python
  std::uint32_t slots = 0;  // service model in every cell; 0: off
  std::string scatter;      // html: "X,Y" figures to plot; empty: the default
};

// Runs the sweep (or its shard) and writes one row per cell. The output
// file appears only complete. Returns the exit status; throws
// UsageError/InputError.
int RunSweepCommand(const SweepCommand& command);

}  // namespace lbsim
