#include "cli/sweep_command.h"

#include <algorithm>
#include <thread>

#include "base/errors.h"
#include "cli/output_format.h"
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
  grid.slots = command.slots;
  std::optional<SweepShard> shard;
  if (!command.shard.empty()) shard = SweepShard::Parse(command.shard);
  const std::string format = OutputFormat(command.format, command.output, "csv");
  if (!command.scatter.empty() && format != "html")
    throw UsageError("--scatter: only the html format draws a scatter (-f html)");
  // Checked before any work: a bad figure name fails at once.
  const SweepScatter scatter = command.scatter.empty()
                                   ? DefaultSweepScatter(grid.slots > 0)
                                   : ParseSweepScatter(command.scatter, grid.slots > 0);
  for (const std::string& trace : command.traces) RefuseOverwrite(command.output, trace, "--output");

  OutputTarget output(command.output);
  unsigned jobs = command.jobs ? command.jobs : std::max(1u, std::thread::hardware_concurrency());
  SweepResult result = RunSweep(grid, StrategyRegistry::Builtin(), shard, jobs);
  output.Write(format == "json"   ? RenderSweepJson(result)
               : format == "html" ? RenderSweepHtml(result, scatter)
                                  : RenderSweepCsv(result));
  return 0;
}

}  // namespace lbsim
