// `lbsim sweep TRACE...`: every combination of strategies, varied values,
// traces and seeds, one row each.

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "cli/commands/command.h"
#include "cli/option_checks.h"
#include "cli/output_format.h"
#include "cli/proxy_options.h"
#include "cli/queue_options.h"
#include "cli/what_if_options.h"
#include "sim/io/output_file.h"
#include "sim/sweep/sweep.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim sweep -s rr,ll --vary ll.qps_1m=0,0.01 -j 4 a.ndjson b.ndjson
  lbsim sweep -s p2c --seeds 1,2,3 -f json -o p2c.json day.ndjson
  lbsim sweep --shard 2/8 -s ll --vary ll.inflight=1,2,4 -o part2.csv day.ndjson
  lbsim merge -o all.csv part*.csv

One row per cell: trace x strategy x varied values x seed (docs/sweeps.md).
Exit status: 0 written; 2 bad grid or trace (nothing is written).)";

// What `lbsim sweep [OPTIONS] TRACE...` was asked to do.
struct SweepCommand {
  std::vector<std::string> traces;
  std::vector<std::string> strategies;  // specs; empty: the default strategy
  std::vector<std::string> settings;    // NAME.KEY=VALUE for every run; sim.KEY=VALUE
  std::vector<std::string> vary;        // NAME.KEY=V1,V2,... or sim.KEY=V1,V2,...
  WhatIfOptions what_if;                // --slots, --stale-*, --window, --cache-blocks,
                                        // --speed, --seeds, --engine, --signal-*
  unsigned jobs = 0;                    // 0: one per hardware thread
  std::string shard;                    // "I/N"
  bool shard_given = false;             // else the whole sweep
  // csv | json | html; when -f was not given, from --output's extension, else csv.
  std::string format = "csv";
  bool format_given = false;
  std::string output;                   // empty or "-": standard output
  std::string trace_format = "auto";
  ProxyOptions proxy;  // --proxy, --python
  QueueOptions queue;  // --proxy-queue and its settings
  std::string scatter;      // html: "X,Y" figures to plot; empty: the default
};

// Runs the sweep (or its shard) and writes one row per cell. The output
// file appears only complete. Returns the exit status; throws
// UsageError/InputError.
int RunSweepCommand(const SweepCommand& command) {
  SweepGrid grid;
  grid.traces = command.traces;
  grid.strategies = command.strategies;
  grid.sim = command.what_if.sim;
  grid.sim.proxy_queue = command.queue.Resolve();
  for (const std::string& s : command.what_if.speeds) grid.sim.speeds.push_back(ParseSpeedAssignment(s, "--speed"));
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
  grid.seeds = command.what_if.seeds;
  grid.encoding = ParseTraceEncoding(command.trace_format);
  grid.proxy = command.proxy.Choice();
  grid.sim.engine = command.what_if.engine.Resolve();
  std::optional<SweepShard> shard;
  // Given empty is given: Parse refuses it as it refuses any other text.
  if (command.shard_given) shard = SweepShard::Parse(command.shard);
  constexpr std::string_view kFormats[] = {"csv", "json", "html"};
  const std::string format =
      ChooseFormat(command.format_given ? std::optional(command.format) : std::nullopt,
                   command.output, kFormats, "csv");
  if (!command.scatter.empty() && format != "html")
    throw UsageError("--scatter: only the html format draws a scatter (-f html)");
  // Checked before any work: a bad figure name fails at once.
  auto varied = [&](std::string_view key) {
    return std::any_of(grid.axes.begin(), grid.axes.end(),
                       [&](const SweepAxis& a) { return a.IsSim() && a.key == key; });
  };
  const bool service = grid.sim.service() || varied("slots");
  const bool queue = grid.sim.proxy_queue.on || varied("proxy_queue");
  const SweepScatter scatter = command.scatter.empty()
                                   ? DefaultSweepScatter(service, queue)
                                   : ParseSweepScatter(command.scatter, service, queue);
  for (const std::string& trace : command.traces) RefuseOverwrite(command.output, trace, "--output");
  if (!grid.sim.engine.config_file.empty())
    RefuseOverwrite(command.output, grid.sim.engine.config_file, "--output", "engine configuration");

  OutputTarget output(command.output);
  unsigned jobs = command.jobs ? command.jobs
                               : std::clamp(std::thread::hardware_concurrency(), 1u, kMaxSweepJobs);
  SweepResult result = RunSweep(grid, StrategyRegistry::Builtin(), shard, jobs);
  output.Write(format == "json"   ? RenderSweepJson(result)
               : format == "html" ? RenderSweepHtml(result, scatter)
                                  : RenderSweepCsv(result));
  return 0;
}

class SweepCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    using Help = WhatIfOptions::Help;
    cmd_ = app.add_subcommand(
        "sweep",
        "Run every combination of strategies x varied parameter values x traces x seeds, "
        "one result row per combination");
    cmd_->footer(kFooter);
    cmd_->add_option("traces", sweep_.traces, "Traces to replay")->required();
    cmd_->add_option("-s,--strategy", sweep_.strategies,
                     "Strategy spec (repeat or separate with commas; default: round_robin)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->type_name("SPEC");
    cmd_->add_option("--set", sweep_.settings, "Set a parameter for every run of a strategy")
        ->allow_extra_args(false)
        ->type_name("NAME.KEY=VALUE");
    cmd_->add_option("--vary", sweep_.vary,
                     "Run strategy NAME once with each value of parameter KEY, or every "
                     "strategy once with each value of what-if option sim.KEY (slots, "
                     "stale_interval, stale_delay, stale_jitter, window, seed, cache_blocks, "
                     "speed.ID, proxy_queue, ready_concurrency, prepare_concurrency); repeat to "
                     "vary several: every combination runs")
        ->allow_extra_args(false)
        ->type_name("NAME.KEY=V1,V2,...");
    const std::string what_if = "What-if simulation (every cell; --set sim.KEY=VALUE too)";
    sweep_.what_if.AddModelTo(*cmd_, what_if, Help::kSweep);
    sweep_.what_if.AddWindowTo(*cmd_, what_if, Help::kSweep);
    sweep_.what_if.AddCacheBlocksTo(*cmd_, what_if, Help::kSweep);
    sweep_.what_if.AddSeedsTo(*cmd_, Help::kSweep);
    cmd_->add_option("-j,--jobs", sweep_.jobs, "Threads to use (default: all cores)")
        ->check(IntegerFrom(1, kMaxSweepJobs));
    cmd_->add_option("--shard", sweep_.shard,
                     "Run only slice I of N of the cells (join the slices with lbsim merge)")
        ->type_name("I/N");
    cmd_->add_option("-f,--format", sweep_.format,
                     "Output format; html draws heatmaps and a scatter with the Pareto front "
                     "(default: from --output's extension, .json .csv .html, else csv)")
        ->check(CLI::IsMember({"csv", "json", "html"}))
        ->default_str("csv");
    cmd_->add_option("--scatter", sweep_.scatter,
                     "html: the two figures to plot against each other, x first (default "
                     "client_ttft_p99,jain with --proxy-queue, latency_p99,jain with --slots, "
                     "else herded_decisions,jain)")
        ->type_name("X,Y");
    cmd_->add_option("-o,--output", sweep_.output,
                     "Write to FILE (atomically) instead of standard output")
        ->type_name("FILE");
    cmd_->add_option("--trace-format", sweep_.trace_format,
                     "Trace encoding when the file names do not tell")
        ->check(CLI::IsMember({"auto", "document", "lines"}))
        ->default_str("auto");
    sweep_.proxy.AddTo(*cmd_);
    sweep_.what_if.AddEngineTo(*cmd_, "What-if simulation");
    sweep_.queue.AddTo(*cmd_, "What-if simulation");
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--output", &sweep_.output}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    sweep_.format_given = cmd_->get_option("--format")->count() > 0;
    sweep_.shard_given = cmd_->get_option("--shard")->count() > 0;
    unwritten = NamedOutput(sweep_.output);
    return RunSweepCommand(sweep_);
  }

 private:
  SweepCommand sweep_;
};

}  // namespace

std::unique_ptr<Command> MakeSweepCommand() { return std::make_unique<SweepCli>(); }

}  // namespace lbsim
