#pragma once

#include <string>
#include <vector>

#include "cli/engine_options.h"
#include "cli/proxy_options.h"
#include "cli/queue_options.h"
#include "sim/engine/sim_options.h"

namespace lbsim {

// What `lbsim [OPTIONS] TRACE` was asked to do.
struct ReplayCommand {
  std::string trace;
  std::vector<std::string> strategies;  // --strategy values; empty: the default
  std::vector<std::string> settings;    // NAME.KEY=VALUE
  // table | json | csv | html; when -f was not given, from --output's extension
  // (report.json: json), else table.
  std::string format = "table";
  bool format_given = false;
  std::string output;                   // empty or "-": standard output
  std::string decisions;                // decision log path, empty: none
  std::string trace_format = "auto";
  ProxyOptions proxy;  // --proxy, --python
  // What-if options (all off by default).
  SimOptions sim;
  std::vector<std::string> speeds;  // ID=SPEED
  std::string window_csv;           // per-window CSV path, empty: none
  EngineOptions engine;             // --engine, --signal-*
  std::string engine_log;           // engine log path, empty: none
  QueueOptions queue;               // --proxy-queue and its settings
  std::string request_log;          // request log path, empty: none
  std::string exec_timeout;  // seconds for exec strategies; empty: their default
  unsigned threads = 0;      // --threads: threads a replay may use; 0: one per usable CPU
  bool progress = false;                // show a progress line on stderr
  bool seed_given = false;              // --seed was given
  std::vector<std::uint64_t> seeds;     // --seeds: replay once per seed
  std::vector<std::string> fail_on;     // --fail-on values: exit 1 on these warnings
};

// Replays and writes the report and decision log. Every output file appears
// only complete, and only when the whole run succeeds: when this throws,
// no output file was written. Returns the exit status: 0, or 1 when a
// warning --fail-on names was raised (each is printed on standard error,
// after the outputs are written); throws UsageError/InputError.
int RunReplay(const ReplayCommand& command);

// The output files `command` names, as "--output FILE", "--decisions FILE",
// "--window-csv FILE", "--engine-log FILE" and "--request-log FILE", for the note that a failed
// run wrote none of them.
std::vector<std::string> NamedOutputFiles(const ReplayCommand& command);

// Prints the strategy registry, as the Proxy `run` runs it, as a table to
// standard output.
int RunListStrategies(const ProxyRun& run);

}  // namespace lbsim
