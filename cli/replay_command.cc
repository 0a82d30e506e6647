#include "cli/replay_command.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/engine/replay.h"
#include "sim/io/output_file.h"
#include "sim/io/progress_line.h"
#include "sim/io/write_stream.h"
#include "sim/report/report.h"
#include "strategies/registry.h"
#include "traces/read_ahead.h"

namespace lbsim {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using ScratchFile = std::unique_ptr<std::FILE, FileCloser>;

// Appends the scratch decision log `from` to `to`. A write error on either
// shows when `to` is finished; one on `from` (a full disk while the replay
// wrote it) would silently drop decisions, so it throws UsageError.
void AppendFile(std::FILE* from, std::FILE* to, std::string_view path) {
  errno = 0;
  bool ok = std::fflush(from) == 0 && !std::ferror(from);
  std::rewind(from);
  char buffer[1 << 16];
  std::size_t n;
  while (ok && (n = std::fread(buffer, 1, sizeof buffer, from)) > 0)
    if (std::fwrite(buffer, 1, n, to) != n) break;  // Finish() reports it
  if (!ok || std::ferror(from))
    throw UsageError(fmt::format("{}: cannot write output: {}", path,
                                 errno ? std::strerror(errno) : "scratch file error"));
}


}  // namespace

int RunReplay(const ReplayCommand& command) {
  const StrategyRegistry& registry = StrategyRegistry::Builtin();
  std::vector<std::string> specs;
  for (const std::string& value : command.strategies)
    for (std::string& spec : SplitStrategyList(registry, value)) specs.push_back(std::move(spec));
  std::vector<std::string> settings = command.settings;
  if (!command.exec_timeout.empty()) {
    const StrategyInfo& exec = registry.Require("exec");
    bool used = std::any_of(specs.begin(), specs.end(), [&](const std::string& s) {
      return registry.Find(std::string_view(s).substr(0, s.find(':'))) == &exec;
    });
    if (!used)
      throw UsageError("--exec-timeout: no exec:COMMAND strategy in this run");
    settings.push_back(fmt::format("{}.timeout={}", exec.name, command.exec_timeout));
  }
  CheckStrategyRunCount(specs.size());
  std::vector<RunWideParam> run_wide;
  // --seed also seeds every randomized strategy and --cache-blocks sizes
  // kv_aware's cache, unless a strategy sets its own.
  run_wide.emplace_back("seed", fmt::format("{}", command.sim.seed));
  run_wide.emplace_back("cache_blocks", fmt::format("{}", command.sim.cache_blocks));
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs)
    requests.push_back(ParseStrategyRequest(registry, spec, settings, run_wide));
  if (requests.empty())
    requests.push_back(
        ParseStrategyRequest(registry, registry.Default().name, settings, run_wide));
  CheckSettingsUsed(registry, requests, settings);
  const TraceEncoding encoding = ParseTraceEncoding(command.trace_format);

  SimOptions sim = command.sim;
  sim.proxy = command.proxy.Choice();
  // A profile named here is known now: strategies that do not fit it fail
  // before anything is read (one named by the trace header, when read).
  if (sim.proxy.profile)
    for (const StrategyRequest& r : requests) BindToProxy(r, sim.proxy.Resolve(nullptr));
  for (const std::string& s : command.speeds) sim.speeds.push_back(ParseSpeedAssignment(s, "--speed"));
  CheckSimOptions(sim);
  if (!command.window_csv.empty() && !sim.windows())
    throw UsageError("--window-csv needs --window WIDTH");

  RefuseOverwrite(command.output, command.trace, "--output");
  RefuseOverwrite(command.decisions, command.trace, "--decisions");
  RefuseOverwrite(command.window_csv, command.trace, "--window-csv");
  // "-" is standard output, which holds one output: the report unless
  // --output names a file.
  auto refuse_beside_report = [&](std::string_view flag, const std::string& path) {
    if (path == "-" && IsStandardOutputPath(command.output))
      throw UsageError(fmt::format(
          "{} -: the report already goes to standard output; give --output FILE", flag));
  };
  refuse_beside_report("--decisions", command.decisions);
  refuse_beside_report("--window-csv", command.window_csv);
  if (command.decisions == "-" && command.window_csv == "-")
    throw UsageError("--decisions - and --window-csv -: only one of them can go to standard output");
  if (!command.decisions.empty() && !command.output.empty() &&
      (command.decisions == command.output || SameFile(command.decisions, command.output)))
    throw UsageError("--decisions and --output name the same file");
  for (const std::string* other : {&command.output, &command.decisions})
    if (!command.window_csv.empty() && !other->empty() &&
        (command.window_csv == *other || SameFile(command.window_csv, *other)))
      throw UsageError("--window-csv names the same file as --output or --decisions");
  // What goes to standard output must not go into a file an output replaces.
  if (IsStandardOutputPath(command.output) || command.decisions == "-" ||
      command.window_csv == "-") {
    RefuseStandardOutputAs(command.output, "--output");
    RefuseStandardOutputAs(command.decisions, "--decisions");
    RefuseStandardOutputAs(command.window_csv, "--window-csv");
  }

  // Outputs are prepared before reading and committed only after success.
  std::optional<OutputFile> decisions_file;
  std::vector<ScratchFile> scratch;  // decision logs of strategies 2..N
  std::vector<std::unique_ptr<DecisionLogWriter>> writers;
  std::vector<DecisionSink*> logs;
  if (!command.decisions.empty()) {
    decisions_file.emplace(command.decisions);
    for (std::size_t i = 0; i < requests.size(); ++i) {
      std::FILE* out = decisions_file->stream();
      if (i > 0) {
        scratch.emplace_back(ScratchFileNear(command.decisions));
        out = scratch.back().get();
      }
      writers.push_back(std::make_unique<DecisionLogWriter>(out));
      logs.push_back(writers.back().get());
    }
  }
  std::optional<OutputFile> report_file;
  if (!IsStandardOutputPath(command.output))
    report_file.emplace(command.output);
  std::optional<OutputFile> window_file;
  if (!command.window_csv.empty()) window_file.emplace(command.window_csv);

  std::optional<ProgressLine> progress;
  if (command.progress) progress.emplace(stderr);
  // A replay has the machine to itself: with a second CPU, the trace is
  // read on a second thread while the strategies run on this one.
  TraceProgress* shown = progress ? &*progress : nullptr;
  const bool read_ahead = UsableCpus() >= 2;
  ReplayResult result = Replay(
      command.trace,
      [&](InstanceTable& table, TraceVisitor& visitor) {
        return read_ahead ? ReadTraceAhead(command.trace, encoding, table, visitor, shown)
                          : ReadTrace(command.trace, encoding, table, visitor, shown);
      },
      requests, logs, sim);
  if (progress) progress->Finish();

  Report report = BuildReport(result);
  std::string text = command.format == "json"  ? RenderJson(report)
                     : command.format == "csv" ? RenderCsv(report)
                                               : RenderTable(report);
  // Every output is complete on disk before any is put in place.
  if (decisions_file) {
    for (ScratchFile& f : scratch)
      AppendFile(f.get(), decisions_file->stream(), decisions_file->Name());
    decisions_file->Finish();
  }
  if (window_file) {
    WriteText(RenderWindowCsv(report), window_file->stream(),
                command.window_csv + ": cannot write output");
    window_file->Finish();
  }
  if (report_file) {
    WriteText(text, report_file->stream(), command.output + ": cannot write output");
    report_file->Finish();
  }
  if (decisions_file) decisions_file->Commit();
  if (window_file) window_file->Commit();
  if (report_file) report_file->Commit();
  else WriteStandardOutput(text, "the report");
  return 0;
}

std::vector<std::string> NamedOutputFiles(const ReplayCommand& command) {
  std::vector<std::string> named;
  if (!IsStandardOutputPath(command.output))
    named.push_back("--output " + command.output);
  if (!command.decisions.empty()) named.push_back("--decisions " + command.decisions);
  if (!command.window_csv.empty()) named.push_back("--window-csv " + command.window_csv);
  return named;
}

int RunListStrategies(const ProxyRun& run) {
  const StrategyRegistry& registry = StrategyRegistry::For(run);
  std::vector<std::array<std::string, 4>> rows;
  rows.push_back({"STRATEGY", "ALIASES", "STATUS", "DESCRIPTION"});
  for (const StrategyInfo& s : registry.All()) {
    std::string aliases;
    for (std::string_view a : s.aliases) aliases += (aliases.empty() ? "" : ", ") + std::string(a);
    rows.push_back({std::string(s.name), aliases.empty() ? "-" : aliases,
                    std::string(StatusName(s.status)), std::string(s.description)});
  }
  std::array<std::size_t, 4> width{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < 4; ++c) width[c] = std::max(width[c], r[c].size());
  std::string out = fmt::format(
      "As {} runs them{} (lbsim proxies lists every version; --proxy NAME lists another)\n\n",
      run.profile->name,
      run.profile->pinned() ? fmt::format(" on Python {}", PythonVersionName(run.python)) : "");
  for (const auto& r : rows)
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r[0], width[0], r[1], width[1],
                       r[2], width[2], r[3]);
  out += "\nPARAMETERS (set with --strategy NAME:KEY=VALUE or --set NAME.KEY=VALUE)\n";
  for (const StrategyInfo& s : registry.All()) {
    if (s.params.empty()) continue;
    out += fmt::format("{}\n", s.name);
    std::size_t w = 0, dw = 6;
    for (const ParamSpec& p : s.params) {
      w = std::max(w, p.name.size());
      dw = std::max(dw, p.default_text.size());
    }
    for (const ParamSpec& p : s.params)
      out += fmt::format("  {:<{}}  default {:<{}}  {}\n", p.name, w, p.default_text,
                         dw, p.description);
  }
  WriteStandardOutput(out, "the listing");
  return 0;
}

}  // namespace lbsim
