// `lbsim [OPTIONS] TRACE`: replays a trace through strategies and reports
// what each would do.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include "base/background_writer.h"
#include "base/errors.h"
#include "base/usable_cpus.h"
#include "cli/commands/command.h"
#include "cli/option_checks.h"
#include "cli/output_format.h"
#include "cli/proxy_options.h"
#include "cli/queue_options.h"
#include "cli/what_if_options.h"
#include "sim/check/inline_expectation.h"
#include "sim/check/scenario_check.h"
#include "sim/replay/replay.h"
#include "sim/io/output_file.h"
#include "sim/io/progress_line.h"
#include "sim/io/printable.h"
#include "sim/io/write_stream.h"
#include "sim/report/report.h"
#include "sim/report/seed_spread.h"
#include "sim/report/warning.h"
#include "strategies/registry.h"
#include "traces/read_ahead.h"
#include "traces/request_log.h"

namespace lbsim {
namespace {

// What `lbsim [OPTIONS] TRACE` was asked to do.
struct ReplayCommand {
  std::string trace;
  std::vector<std::string> strategies;  // --strategy values; empty: the default
  std::vector<std::string> settings;    // NAME.KEY=VALUE
  // table | json | csv | html; when -f was not given, from --output's extension
  // (report.json: json), else table.
  std::string format = "table";
  bool format_given = false;
  std::string output;                   // the first --output; empty or "-": standard output
  std::vector<std::string> outputs;     // every --output, the first included
  std::vector<std::string> extra_outputs;  // the --output files after the first
  std::string decisions;                // decision log path, empty: none
  std::string trace_format = "auto";
  ProxyOptions proxy;  // --proxy, --python
  // What-if options (all off by default): --slots, --speed, --stale-*,
  // --window, --cache-blocks, --seed, --seeds, --engine, --signal-*.
  WhatIfOptions what_if;
  std::string window_csv;           // per-window CSV path, empty: none
  std::string engine_log;           // engine log path, empty: none
  QueueOptions queue;               // --proxy-queue and its settings
  std::string request_log;          // request log path, empty: none
  std::string exec_timeout;  // seconds for exec strategies; empty: their default
  unsigned threads = 0;      // --threads: threads a replay may use; 0: one per usable CPU
  bool list_strategies = false;         // --list-strategies: list, replay nothing
  bool quiet = false;                   // -q: no progress line
  bool progress = false;                // show a progress line on stderr
  bool seed_given = false;              // --seed was given
  std::vector<std::string> fail_on;     // --fail-on values: exit 1 on these warnings
  std::vector<std::string> expect;      // --expect 'PATH OP VALUE': exit 1 when one fails
  std::string junit;                    // JUnit XML of the expectations, empty: none
};

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


// Prints each warning that `names` select, one line each on standard
// error; 1 when there is one, else 0.
int FailOn(const SeededReports& runs, const std::vector<std::string>& names) {
  const std::vector<std::string> found = SelectedWarnings(runs, names);
  for (const std::string& line : found)
    std::fputs(fmt::format("lbsim: --fail-on: {}\n", Printable(line)).c_str(), stderr);
  return found.empty() ? 0 : 1;
}

// Writes `text`, the whole of `file`, and finishes it (see OutputFile): a
// write error names the file's path.
void WriteWhole(OutputFile& file, const std::string& text) {
  WriteText(text, file.stream(), file.path() + ": cannot write output");
  file.Finish();
}

// The --expect results on the JSON reports of one run per seed, `texts`
// (UsageError for a path they do not have), run under `proxy`, as a check
// result named by the trace.
ScenarioResult CheckExpectations(const ReplayCommand& command,
                                 const std::vector<Expectation>& expects,
                                 const std::vector<std::string>& texts, const ProxyReport& proxy,
                                 const std::vector<std::uint64_t>& seeds) {
  ScenarioResult result;
  result.path = command.trace;
  result.name = "lbsim --expect";
  if (expects.empty()) return result;
  result.proxy = proxy.profile;
  result.python = proxy.python;
  result.expectations = CheckReportValues(expects, texts, seeds);
  return result;
}

// Prints each failed expectation on standard error; 1 when one failed.
int ReportExpectations(const ScenarioResult& result) {
  for (const ExpectationResult& r : result.expectations)
    if (!r.passed)
      std::fputs(fmt::format("lbsim: {} failed: {} is {}\n", Printable(r.key),
                             Printable(r.subject), Printable(r.actual))
                     .c_str(),
                 stderr);
  return result.failed() ? 1 : 0;
}
// Writes engine log lines to a stdio stream in blocks that `background`'s
// thread writes; Flush hands on the last one. A write error shows when the
// stream's file is finished.
class EngineLogWriter final : public EngineLog {
 public:
  EngineLogWriter(std::FILE* out, BackgroundWriter* background)
      : out_(out), background_(background) {}
  void Line(std::string_view json) override {
    block_ += json;
    block_ += '\n';
    if (block_.size() >= BackgroundWriter::kBlockBytes) background_->Submit(out_, block_);
  }
  void Flush() {
    if (!block_.empty()) background_->Submit(out_, block_);
  }

 private:
  std::FILE* out_;
  BackgroundWriter* background_;
  std::string block_;
};

// A log that every strategy run of a replay writes (--decisions,
// --engine-log), run after run in one file: the first run writes into the
// output file, the others into scratch files beside it, appended in run
// order when the replay is done. `Writer` writes one run's lines to a stdio
// stream through a BackgroundWriter, so that the replay's thread does not
// wait for the kernel to copy them; Flush hands on what it holds.
template <typename Writer>
class RunLogs {
 public:
  RunLogs(const std::string& path, std::size_t runs) : file_(path) {
    for (std::size_t i = 0; i < runs; ++i) {
      std::FILE* out = file_.stream();
      if (i > 0) {
        scratch_.emplace_back(ScratchFileNear(path));
        out = scratch_.back().get();
      }
      writers_.push_back(std::make_unique<Writer>(out, &background_));
    }
  }

  // One writer per run, as the interface `Sink` the replay takes.
  template <typename Sink>
  std::vector<Sink*> Sinks() const {
    std::vector<Sink*> out;
    for (const std::unique_ptr<Writer>& w : writers_) out.push_back(w.get());
    return out;
  }
  // Waits for every line to be written, appends the other runs' logs to
  // the file and finishes it.
  void Finish() {
    for (const std::unique_ptr<Writer>& w : writers_) w->Flush();
    background_.Drain();
    for (ScratchFile& f : scratch_) AppendFile(f.get(), file_.stream(), file_.Name());
    file_.Finish();
  }
  void Commit() { file_.Commit(); }

 private:
  OutputFile file_;
  std::vector<ScratchFile> scratch_;  // the logs of runs 2..N
  // Declared after the files, whose streams it writes to until it stops,
  // and before the writers, which hand it blocks.
  BackgroundWriter background_;
  std::vector<std::unique_ptr<Writer>> writers_;
};


// Replays and writes the report and decision log. Every output file appears
// only complete, and only when the whole run succeeds: when this throws,
// no output file was written. Returns the exit status: 0, or 1 when a
// warning --fail-on names was raised (each is printed on standard error,
// after the outputs are written); throws UsageError/InputError.
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
  const std::vector<std::string> fail_on = ParseFailOn(command.fail_on, "--fail-on");
  std::vector<Expectation> expects;
  for (const std::string& text : command.expect) expects.push_back(ParseInlineExpectation(text));
  if (!command.junit.empty() && expects.empty())
    throw UsageError("--junit: no --expect to report; give --expect 'PATH OP VALUE'");
  if (command.junit == "-" && IsStandardOutputPath(command.output))
    throw UsageError("--junit -: the report already goes to standard output; give --output FILE");
  std::vector<std::uint64_t> seeds = command.what_if.seeds;
  if (!seeds.empty() && command.seed_given)
    throw UsageError("--seed and --seeds: give one (--seeds replays once per seed)");
  for (std::size_t k = 0; k < seeds.size(); ++k)
    if (std::find(seeds.begin(), seeds.begin() + k, seeds[k]) != seeds.begin() + k)
      throw UsageError(fmt::format("--seeds: seed {} is given twice", seeds[k]));
  if (seeds.empty()) seeds.push_back(command.what_if.sim.seed);
  constexpr std::string_view kFormats[] = {"table", "json", "csv", "html", "md"};
  if (command.format_given && !command.extra_outputs.empty())
    throw UsageError("--format: with several --output files each takes its format from its "
                     "name (.json, .csv, .html, .md, .txt)");
  const std::string format =
      ChooseFormat(command.format_given ? std::optional(command.format) : std::nullopt,
                   command.output, kFormats, "table");
  // The --output files after the first: each must name its format.
  std::vector<std::string> extra_formats;
  for (const std::string& path : command.extra_outputs) {
    if (path == "-")
      throw UsageError("--output -: standard output takes the first --output only");
    const std::optional<std::string> f = FormatFromExtension(path);
    if (!f || std::find(std::begin(kFormats), std::end(kFormats), *f) == std::end(kFormats))
      throw UsageError(fmt::format(
          "--output {}: cannot tell its format; with several --output files name each .json, "
          ".csv, .html, .md or .txt",
          path));
    extra_formats.push_back(*f);
  }
  std::vector<std::string> formats = extra_formats;
  formats.insert(formats.begin(), format);
  if (seeds.size() > 1) {
    for (const std::string& f : formats)
      if (f != "table" && f != "json")
        throw UsageError("--seeds with several seeds writes a table or JSON (--format table|json)");
    if (!command.decisions.empty())
      throw UsageError("--decisions: one decision log per replay; with --seeds give one seed");
    if (!command.window_csv.empty())
      throw UsageError("--window-csv: one series per replay; with --seeds give one seed");
    if (!command.engine_log.empty())
      throw UsageError("--engine-log: one log per replay; with --seeds give one seed");
    if (!command.request_log.empty())
      throw UsageError("--request-log: one log per replay; with --seeds give one seed");
  }
  // --seed also seeds every randomized strategy and --cache-blocks sizes
  // kv_aware's cache, unless a strategy sets its own.
  auto requests_for = [&](std::uint64_t seed) {
    std::vector<RunWideParam> run_wide;
    run_wide.emplace_back("seed", fmt::format("{}", seed));
    run_wide.emplace_back("cache_blocks", fmt::format("{}", command.what_if.sim.cache_blocks));
    std::vector<StrategyRequest> out;
    for (const std::string& spec : specs)
      out.push_back(ParseStrategyRequest(registry, spec, settings, run_wide));
    if (out.empty())
      out.push_back(ParseStrategyRequest(registry, registry.Default().name, settings, run_wide));
    return out;
  };
  const std::vector<StrategyRequest> requests = requests_for(seeds.front());
  CheckSettingsUsed(registry, requests, settings);
  const TraceEncoding encoding = ParseTraceEncoding(command.trace_format);

  SimOptions sim = command.what_if.sim;
  sim.seed = seeds.front();
  sim.proxy = command.proxy.Choice();
  sim.charts = std::find(formats.begin(), formats.end(), "html") != formats.end();
  // A profile named here is known now: strategies that do not fit it fail
  // before anything is read (one named by the trace header, when read).
  if (sim.proxy.profile)
    for (const StrategyRequest& r : requests) BindToProxy(r, sim.proxy.Resolve(nullptr));
  for (const std::string& s : command.what_if.speeds) sim.speeds.push_back(ParseSpeedAssignment(s, "--speed"));
  sim.engine = command.what_if.engine.Resolve();
  sim.proxy_queue = command.queue.Resolve();
  CheckSimOptions(sim);
  if (!command.request_log.empty() && !sim.proxy_queue.on)
    throw UsageError("--request-log needs the Proxy queue model (--proxy-queue)");
  if (!command.window_csv.empty() && !sim.windows())
    throw UsageError("--window-csv needs --window WIDTH");
  if (!command.engine_log.empty() && !sim.engine_model())
    throw UsageError("--engine-log needs the engine model (--engine)");

  // Every output by its flag, the report first.
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--output", &command.output},         {"--decisions", &command.decisions},
      {"--window-csv", &command.window_csv}, {"--engine-log", &command.engine_log},
      {"--request-log", &command.request_log}, {"--junit", &command.junit}};
  // The further --output files: no input, no other output, each once.
  for (std::size_t k = 0; k < command.extra_outputs.size(); ++k) {
    const std::string& path = command.extra_outputs[k];
    RefuseOverwrite(path, command.trace, "--output");
    if (!sim.engine.config_file.empty())
      RefuseOverwrite(path, sim.engine.config_file, "--output", "engine configuration");
    std::vector<const std::string*> others;
    for (const auto& [flag, other] : outputs) others.push_back(other);
    for (std::size_t j = 0; j < k; ++j) others.push_back(&command.extra_outputs[j]);
    for (const std::string* other : others)
      if (!other->empty() && *other != "-" && (path == *other || SameFile(path, *other)))
        throw UsageError(fmt::format("--output {}: named twice among the outputs", path));
    RefuseStandardOutputAs(path, "--output");
  }
  // No output may replace an input: the trace, then the engine configuration.
  for (const auto& [flag, path] : outputs) RefuseOverwrite(*path, command.trace, flag);
  if (!sim.engine.config_file.empty())
    for (const auto& [flag, path] : outputs)
      RefuseOverwrite(*path, sim.engine.config_file, flag, "engine configuration");
  // "-" is standard output, which holds one output: the report unless
  // --output names a file.
  auto refuse_beside_report = [&](std::string_view flag, const std::string& path) {
    if (path == "-" && IsStandardOutputPath(command.output))
      throw UsageError(fmt::format(
          "{} -: the report already goes to standard output; give --output FILE", flag));
  };
  const std::span<const std::pair<const char*, const std::string*>> beside_report =
      std::span(outputs).subspan(1);
  for (const auto& [flag, path] : beside_report) refuse_beside_report(flag, *path);
  {
    std::vector<std::string> dashes;
    for (const auto& [flag, path] : beside_report)
      if (*path == "-") dashes.push_back(fmt::format("{} -", flag));
    if (dashes.size() > 1) {
      std::string named;
      for (std::size_t i = 0; i < dashes.size(); ++i)
        named += (i == 0 ? "" : i + 1 == dashes.size() ? " and " : ", ") + dashes[i];
      throw UsageError(named + ": only one of them can go to standard output");
    }
  }
  // No two outputs name one file ("-" is standard output, checked above).
  for (std::size_t b = 1; b < std::size(outputs); ++b)
    for (std::size_t a = 0; a < b; ++a) {
      const std::string& first = *outputs[a].second;
      const std::string& second = *outputs[b].second;
      if (first.empty() || second.empty() || first == "-" || second == "-") continue;
      if (first == second || SameFile(first, second))
        throw UsageError(fmt::format("{} and {} name the same file", outputs[b].first,
                                     outputs[a].first));
    }

  // What goes to standard output must not go into a file an output replaces.
  if (IsStandardOutputPath(command.output) || command.decisions == "-" ||
      command.window_csv == "-" || command.engine_log == "-" || command.request_log == "-" ||
      command.junit == "-") {
    for (const auto& [flag, path] : outputs) RefuseStandardOutputAs(*path, flag);
  }

  const unsigned threads = command.threads > 0 ? command.threads : UsableCpus();
  const bool read_ahead = threads >= 2;
  auto feed = [&](InstanceTable& table, TraceVisitor& visitor, TraceProgress* shown) {
    return read_ahead ? ReadTraceAhead(command.trace, encoding, table, visitor, shown)
                      : ReadTrace(command.trace, encoding, table, visitor, shown);
  };
  // With CPUs to spare, a run of several strategies splits them into
  // groups, each visiting the trace read ahead on a thread of its own.
  auto parallel = [&](TraceProgress* shown) {
    ParallelFeed p;
    if (!read_ahead) return p;
    p.threads = threads;
    p.read = [&command, encoding, shown](std::span<const TraceConsumer> consumers) {
      return ReadTraceAhead(command.trace, encoding, consumers, shown);
    };
    return p;
  };
  SeededReports runs;
  if (seeds.size() > 1) {
    // Several seeds: one replay each, then one report of them all.
    std::optional<OutputFile> report_file;
    if (!IsStandardOutputPath(command.output)) report_file.emplace(command.output);
    for (std::uint64_t seed : seeds) {
      SimOptions seeded = sim;
      seeded.seed = seed;
      seeded.replays = seeds.size();  // every seed's report is held to the end
      ReplayResult result = Replay(
          command.trace,
          [&](InstanceTable& table, TraceVisitor& visitor) { return feed(table, visitor, nullptr); },
          requests_for(seed), {}, seeded, {}, parallel(nullptr));
      runs.seeds.push_back(seed);
      runs.reports.push_back(BuildReport(result));
    }
    auto render_seeded = [&runs](const std::string& f) {
      return f == "json" ? RenderSeededJson(runs) : RenderSeededTable(runs);
    };
    const std::string text = render_seeded(format);
    std::deque<OutputFile> extra_files;  // not movable: a deque keeps them in place
    for (std::size_t k = 0; k < command.extra_outputs.size(); ++k) {
      extra_files.emplace_back(command.extra_outputs[k]);
      WriteWhole(extra_files.back(), render_seeded(extra_formats[k]));
    }
    std::vector<std::string> texts;
    if (!expects.empty())
      for (const Report& r : runs.reports) texts.push_back(RenderJson(r));
    const ScenarioResult checked =
        CheckExpectations(command, expects, texts, runs.reports.front().proxy, runs.seeds);
    std::optional<OutputFile> junit_file;
    if (!command.junit.empty() && command.junit != "-") junit_file.emplace(command.junit);
    if (junit_file) WriteWhole(*junit_file, RenderCheckJUnit({checked}));
    if (report_file) WriteWhole(*report_file, text);
    for (OutputFile& f : extra_files) f.Commit();
    if (report_file) {
      report_file->Commit();
    } else {
      WriteStandardOutput(text, "the report");
    }
    if (junit_file) junit_file->Commit();
    else if (command.junit == "-") WriteStandardOutput(RenderCheckJUnit({checked}), "the JUnit report");
    const int expected = ReportExpectations(checked);
    return std::max(FailOn(runs, fail_on), expected);
  }

  // Outputs are prepared before reading and committed only after success.
  std::optional<RunLogs<DecisionLogWriter>> decision_logs;
  std::vector<DecisionSink*> logs;
  if (!command.decisions.empty()) {
    decision_logs.emplace(command.decisions, requests.size());
    logs = decision_logs->Sinks<DecisionSink>();
  }
  std::optional<RunLogs<EngineLogWriter>> engine_log_files;
  std::vector<EngineLog*> engine_logs;
  if (!command.engine_log.empty()) {
    engine_log_files.emplace(command.engine_log, requests.size());
    engine_logs = engine_log_files->Sinks<EngineLog>();
  }
  std::optional<RunLogs<RequestLogWriter>> request_log_files;
  std::vector<RequestSink*> request_logs;
  if (!command.request_log.empty()) {
    request_log_files.emplace(command.request_log, requests.size());
    request_logs = request_log_files->Sinks<RequestSink>();
  }
  std::optional<OutputFile> report_file;
  if (!IsStandardOutputPath(command.output))
    report_file.emplace(command.output);
  std::optional<OutputFile> window_file;
  if (!command.window_csv.empty()) window_file.emplace(command.window_csv);

  std::optional<ProgressLine> progress;
  if (command.progress) progress.emplace(stderr);
  // A replay has the machine to itself: with a second CPU, the trace is
  // read on a second thread while the strategies run on this one (or on
  // several, see above).
  TraceProgress* shown = progress ? &*progress : nullptr;
  ReplayResult result = Replay(
      command.trace,
      [&](InstanceTable& table, TraceVisitor& visitor) { return feed(table, visitor, shown); },
      requests, logs, sim, engine_logs, parallel(shown), request_logs);
  if (progress) progress->Finish();

  Report report = BuildReport(result);
  runs.seeds.push_back(sim.seed);
  // The report as JSON, rendered once for --expect and the JSON outputs.
  std::string json;
  auto report_json = [&]() -> const std::string& {
    if (json.empty()) json = RenderJson(report);
    return json;
  };
  std::vector<std::string> texts;
  if (!expects.empty()) texts.push_back(report_json());
  const ScenarioResult checked =
      CheckExpectations(command, expects, texts, report.proxy, runs.seeds);
  std::optional<OutputFile> junit_file;
  if (!command.junit.empty() && command.junit != "-") junit_file.emplace(command.junit);
  auto render = [&](const std::string& f) {
    return f == "json"   ? report_json()
           : f == "csv"  ? RenderCsv(report)
           : f == "html" ? RenderHtml(report)
           : f == "md"   ? RenderMarkdown(report)
                         : RenderTable(report);
  };
  std::string text = render(format);
  std::deque<OutputFile> extra_files;  // not movable: a deque keeps them in place
  for (const std::string& path : command.extra_outputs) extra_files.emplace_back(path);
  // Every output is complete on disk before any is put in place.
  if (decision_logs) decision_logs->Finish();
  if (window_file) WriteWhole(*window_file, RenderWindowCsv(report));
  if (engine_log_files) engine_log_files->Finish();
  if (request_log_files) request_log_files->Finish();
  if (report_file) WriteWhole(*report_file, text);
  for (std::size_t k = 0; k < extra_files.size(); ++k)
    WriteWhole(extra_files[k], render(extra_formats[k]));
  if (junit_file) WriteWhole(*junit_file, RenderCheckJUnit({checked}));
  if (decision_logs) decision_logs->Commit();
  if (window_file) window_file->Commit();
  if (engine_log_files) engine_log_files->Commit();
  if (request_log_files) request_log_files->Commit();
  if (junit_file) junit_file->Commit();
  for (OutputFile& f : extra_files) f.Commit();
  if (report_file) report_file->Commit();
  else WriteStandardOutput(text, "the report");
  if (command.junit == "-") WriteStandardOutput(RenderCheckJUnit({checked}), "the JUnit report");
  runs.reports.push_back(std::move(report));
  const int expected = ReportExpectations(checked);
  return std::max(FailOn(runs, fail_on), expected);
}

// The output files `command` names, as "--output FILE", "--decisions FILE",
// "--window-csv FILE", "--engine-log FILE" and "--request-log FILE", for the note that a failed
// run wrote none of them.
std::vector<std::string> NamedOutputFiles(const ReplayCommand& command) {
  std::vector<std::string> named;
  if (!IsStandardOutputPath(command.output))
    named.push_back("--output " + command.output);
  for (const std::string& path : command.extra_outputs) named.push_back("--output " + path);
  if (!command.decisions.empty()) named.push_back("--decisions " + command.decisions);
  if (!command.window_csv.empty()) named.push_back("--window-csv " + command.window_csv);
  if (!command.engine_log.empty()) named.push_back("--engine-log " + command.engine_log);
  if (!command.request_log.empty()) named.push_back("--request-log " + command.request_log);
  if (!command.junit.empty() && command.junit != "-") named.push_back("--junit " + command.junit);
  return named;
}

class ReplayCli final : public Command {
 public:
  void Declare(CLI::App& app) override {
    using Help = WhatIfOptions::Help;
    app_ = &app;
    ReplayCommand& r = replay_;
    app.add_option("trace", r.trace,
                   "Trace to replay: .json (document), .ndjson/.jsonl (JSON Lines), - (stdin)");
    app.add_option("-s,--strategy", r.strategies,
                   "Strategy to run, by name or alias, with optional :KEY=VALUE parameters; "
                   "repeat or separate with commas to compare (default: round_robin). "
                   "exec:COMMAND runs an external strategy program (see docs/external-strategies.md); it takes "
                   "the rest of the value, commas included")
        ->allow_extra_args(false)
        ->type_name("SPEC");
    app.add_option("--exec-timeout", r.exec_timeout,
                   "Seconds an exec:COMMAND strategy may take to answer one decision "
                   "(default 10)")
        ->type_name("SECONDS");
    app.add_option("--set", r.settings,
                   "Set a strategy parameter for every run of it, e.g. ll.qps_1m=0")
        ->allow_extra_args(false)
        ->type_name("NAME.KEY=VALUE");
    app.add_option("-f,--format", r.format,
                   "Report format; html writes one self-contained page with charts, md a "
                   "Markdown summary for a pull request "
                   "(default: from --output's extension, .json .csv .html .md .txt, else table)")
        ->check(CLI::IsMember({"table", "json", "csv", "html", "md"}))
        ->default_str("table");
    app.add_option("-o,--output", r.outputs,
                   "Write the report to FILE (atomically) instead of standard output; "
                   "repeatable, each FILE in the format its name says (.json .csv .html .md "
                   ".txt): one replay, every output")
        ->allow_extra_args(false)
        ->type_name("FILE");
    app.add_option("--decisions", r.decisions,
                   "Write the decision log (JSON Lines) to FILE "
                   "(\"-\": standard output, given --output FILE)")
        ->type_name("FILE");
    r.proxy.AddTo(app);
    app.add_option("--trace-format", r.trace_format,
                   "Trace encoding when the file name does not tell")
        ->check(CLI::IsMember({"auto", "document", "lines"}))
        ->default_str("auto");
    // What-if simulation (see docs/what-if.md); times in the trace's unit.
    const std::string what_if = "What-if simulation";
    r.what_if.AddModelTo(app, what_if, Help::kReplay);
    seed_option_ = r.what_if.AddSeedTo(app);
    r.what_if.AddSeedsTo(app, Help::kReplay);
    app.add_option("--fail-on", r.fail_on,
                   "Exit with status 1 when the report raises this warning: warning (any) or "
                   "a warning name (herding, concentration, overload, ...); repeatable")
        ->allow_extra_args(false)
        ->type_name("NAME");
    app.add_option("--expect", r.expect,
                   "Exit with status 1 unless the report meets 'PATH OP VALUE' under every seed: "
                   "PATH as in a check scenario (least_load.fairness.jain), OP <, <=, >, >= or "
                   "==; repeatable")
        ->allow_extra_args(false)
        ->type_name("'PATH OP VALUE'");
    app.add_option("--junit", r.junit,
                   "Write the --expect results as JUnit XML to FILE "
                   "(\"-\": standard output, given --output FILE)")
        ->type_name("FILE");
    app.add_option("--threads", r.threads,
                   "Threads a replay may use: 1 reads and replays on one; with 2 the trace is "
                   "read ahead on the second; with more, three or more strategies are split into "
                   "groups, each replayed on a thread of its own (default: one per usable CPU)")
        ->check(IntegerFrom(1, 256, "256"))
        ->type_name("N");
    r.what_if.AddCacheBlocksTo(app, "", Help::kReplay);
    r.what_if.AddWindowTo(app, what_if, Help::kReplay);
    app.add_option("--window-csv", r.window_csv,
                   "Write the per-window series as CSV to FILE "
                   "(\"-\": standard output, given --output FILE); needs --window")
        ->type_name("FILE")
        ->group(what_if);
    r.what_if.AddEngineTo(app, what_if);
    app.add_option("--engine-log", r.engine_log,
                   "Write every engine step and served request as JSON Lines to FILE "
                   "(\"-\": standard output, given --output FILE); needs --engine")
        ->type_name("FILE")
        ->group(what_if);
    r.queue.AddTo(app, what_if);
    app.add_option("--request-log", r.request_log,
                   "Write each request's arrival, forwarding, first token, end and outcome as "
                   "JSON Lines to FILE (\"-\": standard output, given --output FILE); needs "
                   "--proxy-queue")
        ->type_name("FILE")
        ->group(what_if);
    app.add_flag("--list-strategies", r.list_strategies,
                 "List the registered strategies and their parameters");
    app.add_flag("-q,--quiet", r.quiet,
                 "Show no progress line (shown on a terminal for replays longer than a second)");
  }
  // The replay is what runs when no subcommand is named; --list-strategies
  // lists, also before a subcommand that is not a listing.
  bool Chosen() const override {
    return replay_.list_strategies || app_->get_subcommands().empty();
  }
  std::vector<FileOption> FileOptions() const override {
    return {{app_, "--decisions", &replay_.decisions},
            {app_, "--window-csv", &replay_.window_csv},
            {app_, "--junit", &replay_.junit},
            {app_, "trace", &replay_.trace, false}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    if (replay_.list_strategies) return RunListStrategies(replay_.proxy.Choice().Resolve(nullptr));
    if (replay_.trace.empty())
      throw UsageError("no trace given: lbsim [OPTIONS] TRACE (see lbsim --help)");
    replay_.format_given = app_->get_option("--format")->count() > 0;
    // --output is repeatable: the first is the report as ever, the others
    // further files (an empty name is no name, as for every file option).
    for (const std::string& path : replay_.outputs)
      if (path.empty())
        throw UsageError("--output: expected a file name, got an empty one (- is standard output)");
    replay_.output = replay_.outputs.empty() ? "" : replay_.outputs.front();
    replay_.extra_outputs.assign(replay_.outputs.begin() + (replay_.outputs.empty() ? 0 : 1),
                                 replay_.outputs.end());
    unwritten = NamedOutputFiles(replay_);
    // The progress line redraws itself with "\r" and an erase escape, which a
    // dumb terminal (TERM=dumb: an editor's shell buffer) would show raw.
    const char* term = std::getenv("TERM");
    replay_.progress = !replay_.quiet && ::isatty(STDERR_FILENO) &&
                       !(term != nullptr && std::string_view(term) == "dumb");
    replay_.seed_given = seed_option_->count() > 0;
    return RunReplay(replay_);
  }

 private:
  ReplayCommand replay_;
  CLI::App* app_ = nullptr;
  CLI::Option* seed_option_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> MakeReplayCommand() { return std::make_unique<ReplayCli>(); }

}  // namespace lbsim
