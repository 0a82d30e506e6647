#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/engine_options.h"
#include "cli/proxy_options.h"
#include "sim/engine/sim_options.h"

namespace lbsim {

// What `lbsim sweep [OPTIONS] TRACE...` was asked to do.
struct SweepCommand {
  std::vector<std::string> traces;
  std::vector<std::string> strategies;  // specs; empty: the default strategy
  std::vector<std::string> settings;    // NAME.KEY=VALUE for every run; sim.KEY=VALUE
  std::vector<std::string> vary;        // NAME.KEY=V1,V2,... or sim.KEY=V1,V2,...
  SimOptions sim;                       // --slots, --stale-*, --window, --cache-blocks
  std::vector<std::string> speeds;      // --speed ID=SPEED
  std::vector<std::uint64_t> seeds;
  unsigned jobs = 0;                    // 0: one per hardware thread
  std::string shard;                    // "I/N", empty: the whole sweep
  // csv | json | html; when -f was not given, from --output's extension, else csv.
  std::string format = "csv";
  bool format_given = false;
  std::string output;                   // empty or "-": standard output
  std::string trace_format = "auto";
  ProxyOptions proxy;  // --proxy, --python
  EngineOptions engine;  // --engine, --signal-*
  std::string scatter;      // html: "X,Y" figures to plot; empty: the default
};

// Runs the sweep (or its shard) and writes one row per cell. The output
// file appears only complete. Returns the exit status; throws
// UsageError/InputError.
int RunSweepCommand(const SweepCommand& command);

}  // namespace lbsim
