#include "cli/sweep_command.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

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
  grid.sim = command.sim;
  for (const std::string& s : command.speeds) grid.sim.speeds.push_back(ParseSpeedAssignment(s, "--speed"));
  // "sim.KEY=VALUE" sets a what-if option of every cell, as the flags do.
  for (const std::string& setting : command.settings) {
    if (setting.rfind("sim.", 0) != 0) {
      grid.settings.push_back(setting);
      continue;
    }
    const std::size_t eq = setting.find('=');
    if (eq == std::string::npos)
      throw UsageError(fmt::format("--set {}: expected sim.KEY=VALUE", setting));
    SetSimOption(grid.sim, std::string_view(setting).substr(4, eq - 4),
                 std::string_view(setting).substr(eq + 1), fmt::format("--set {}", setting));
  }
  for (const std::string& axis : command.vary) grid.axes.push_back(SweepAxis::Parse(axis));
  grid.seeds = command.seeds;
  grid.encoding = ParseTraceEncoding(command.trace_format);
  grid.proxy = command.proxy.Choice();
  grid.sim.engine = command.engine.Resolve();
  std::optional<SweepShard> shard;
  if (!command.shard.empty()) shard = SweepShard::Parse(command.shard);
  constexpr std::string_view kFormats[] = {"csv", "json", "html"};
  const std::string format =
      ChooseFormat(command.format_given ? std::optional(command.format) : std::nullopt,
                   command.output, kFormats, "csv");
  if (!command.scatter.empty() && format != "html")
    throw UsageError("--scatter: only the html format draws a scatter (-f html)");
  // Checked before any work: a bad figure name fails at once.
  const bool service =
      grid.sim.service() || std::any_of(grid.axes.begin(), grid.axes.end(), [](const SweepAxis& a) {
        return a.IsSim() && a.key == "slots";
      });
  const SweepScatter scatter = command.scatter.empty()
                                   ? DefaultSweepScatter(service)
                                   : ParseSweepScatter(command.scatter, service);
  for (const std::string& trace : command.traces) RefuseOverwrite(command.output, trace, "--output");

  OutputTarget output(command.output);
  unsigned jobs = command.jobs ? command.jobs
                               : std::clamp(std::thread::hardware_concurrency(), 1u, kMaxSweepJobs);
  SweepResult result = RunSweep(grid, StrategyRegistry::Builtin(), shard, jobs);
  output.Write(format == "json"   ? RenderSweepJson(result)
               : format == "html" ? RenderSweepHtml(result, scatter)
                                  : RenderSweepCsv(result));
  return 0;
}

}  // namespace lbsim
