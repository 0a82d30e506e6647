#include "cli/sweep_command.h"

#include <algorithm>
#include <thread>

#include "sim/io/output_file.h"
#include "sim/sweep/sweep.h"
#include "strategies/registry.h"

namespace lbsim {

int RunSweepCommand(const SweepCommand& command) {
  SweepGrid grid;
  grid.traces = command.traces;
  grid.strategies = command.strategies;
  grid.settings = command.settings;
  for (const std::string& axis : command.vary) grid.axes.push_back(SweepAxis::Parse(axis));
  grid.seeds = command.seeds;
  grid.encoding = ParseTraceEncoding(command.trace_format);
  grid.proxy = command.proxy.Choice();
  std::optional<SweepShard> shard;
  if (!command.shard.empty()) shard = SweepShard::Parse(command.shard);
  for (const std::string& trace : command.traces) RefuseOverwrite(command.output, trace, "--output");

  OutputTarget output(command.output);
  unsigned jobs = command.jobs ? command.jobs
                               : std::clamp(std::thread::hardware_concurrency(), 1u, kMaxSweepJobs);
  SweepResult result = RunSweep(grid, StrategyRegistry::Builtin(), shard, jobs);
  output.Write(command.format == "json" ? RenderSweepJson(result) : RenderSweepCsv(result));
  return 0;
}

}  // namespace lbsim
