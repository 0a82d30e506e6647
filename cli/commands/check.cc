// `lbsim check PATH...`: runs scenario files and checks their expectations.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "cli/commands/command.h"
#include "sim/check/scenario.h"
#include "sim/check/scenario_check.h"
#include "sim/check/scenario_files.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"
#include "sim/report/warning.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim check scenarios/
  lbsim check scenarios/ties.json --format json
  lbsim check scenarios/ more-scenarios/ --junit lbsim-check.xml

Folders are searched recursively for *.json scenarios (other JSON files, such as
traces or gen specs, are skipped); scenarios run in sorted path order.
A scenario with an exec:COMMAND strategy is refused (exit 2) unless --allow-exec:
COMMAND would run through the shell.
Exit status: 0 every expectation holds; 1 an expectation failed; 2 usage error or
bad scenario/trace (one line on stderr naming the file and key; no JUnit file is
written); 3 internal error.)";

// What `lbsim check PATH... [--junit FILE] [--format text|json]` was asked
// to do.
struct CheckCommand {
  std::vector<std::string> paths;  // scenario files or folders
  std::string junit;               // JUnit XML path, empty: none
  std::string html;                // HTML page path, empty: none
  std::string format = "text";     // text | json
  bool quiet = false;              // text: failed expectations only
  std::vector<std::string> fail_on;  // --fail-on values
  bool allow_exec = false;         // run exec:COMMAND strategies of scenarios
};

// A scenario that runs an exec:COMMAND strategy runs COMMAND through the
// shell: checking a folder of someone else's scenarios must not run code
// unless asked to.
void RefuseExec(const Scenario& scenario) {
  for (std::size_t i = 0; i < scenario.strategies.size(); ++i) {
    const StrategyRequest& r = scenario.strategies[i];
    if (r.info->name != "exec") continue;
    throw UsageError(fmt::format(
        "{}: strategies[{}]: exec:{} would run a shell command; lbsim check runs exec "
        "strategies only with --allow-exec",
        scenario.path, i, r.params.Text("command")));
  }
}


// Runs every scenario and prints one line per expectation and a summary.
// Returns 0 when every expectation holds and 1 when one fails; throws
// InputError/UsageError (exit 2) before printing or writing anything: also
// for a scenario with an exec:COMMAND strategy, unless allow_exec.
int RunCheck(const CheckCommand& command) {
  const std::vector<std::string> fail_on = ParseFailOn(command.fail_on, "--fail-on");
  for (const auto& [flag, path] : {std::pair{"--junit", &command.junit}, std::pair{"--html", &command.html}})
    if (*path == "-")
      throw UsageError(fmt::format(
          "{} -: the results already go to standard output; give a file", flag));
  if (!command.junit.empty() && !command.html.empty() &&
      (command.junit == command.html || SameFile(command.junit, command.html)))
    throw UsageError("--junit and --html name the same file");
  const std::vector<std::string> files = FindScenarioFiles(command.paths);
  // Every scenario is read and validated before anything runs or is
  // written: bad input leaves no partial output.
  std::vector<Scenario> scenarios;
  for (const std::string& file : files) {
    scenarios.push_back(LoadScenario(file));
    if (!command.allow_exec) RefuseExec(scenarios.back());
  }
  // Neither an output file nor standard output may be a file the check
  // reads: a scenario or the trace it names.
  for (const Scenario& s : scenarios) {
    for (const auto& [flag, out] : {std::pair{"--junit", command.junit},
                                    std::pair{"--html", command.html},
                                    std::pair{"", std::string("-")}}) {
      if (out.empty()) continue;
      RefuseOverwrite(out, s.path, flag, "scenario");
      if (!s.inline_trace)
        RefuseOverwrite(out, s.trace_path, flag, fmt::format("trace of {}", s.path));
      if (!s.sim.engine.config_file.empty())
        RefuseOverwrite(out, s.sim.engine.config_file, flag,
                        fmt::format("engine configuration of {}", s.path));
    }
  }
  // Opened now, so that one that cannot be written fails before any work.
  std::optional<OutputFile> junit, html;
  if (!command.junit.empty()) {
    RefuseStandardOutputAs(command.junit, "--junit");
    junit.emplace(command.junit);
  }
  if (!command.html.empty()) {
    RefuseStandardOutputAs(command.html, "--html");
    html.emplace(command.html);
  }

  std::vector<ScenarioResult> results;
  for (const Scenario& scenario : scenarios) results.push_back(CheckScenario(scenario, fail_on));

  const std::string text =
      command.format == "json" ? RenderCheckJson(results) : RenderCheckText(results, command.quiet);
  if (junit) WriteText(RenderCheckJUnit(results), junit->stream(), command.junit + ": cannot write output");
  if (html) WriteText(RenderCheckHtml(results), html->stream(), command.html + ": cannot write output");
  // Both complete on disk before either is put in place.
  if (junit) junit->Finish();
  if (html) html->Finish();
  if (junit) junit->Commit();
  if (html) html->Commit();
  WriteStandardOutput(text, "the results");
  return Summarize(results).failed > 0 ? 1 : 0;
}

class CheckCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "check", "Run scenario files and check their expectations (exit 1 when one fails)");
    cmd_->footer(kFooter);
    cmd_->add_option("paths", check_.paths,
                     "Scenario files, or folders searched recursively for *.json")
        ->required()
        ->type_name("PATH");
    cmd_->add_option("--junit", check_.junit,
                     "Also write the results as JUnit XML to FILE (atomically)")
        ->type_name("FILE");
    cmd_->add_option("--html", check_.html,
                     "Also write the results as an HTML page to FILE (atomically), failed "
                     "expectations first")
        ->type_name("FILE");
    cmd_->add_option("-f,--format", check_.format, "Output format")
        ->check(CLI::IsMember({"text", "json"}))
        ->default_str("text");
    cmd_->add_flag("-q,--quiet", check_.quiet,
                   "Text output: print only the failed expectations and the summary");
    cmd_->add_option("--fail-on", check_.fail_on,
                     "Also fail (exit 1) when a scenario's run raises this warning: warning "
                     "(any) or a warning name; repeatable")
        ->allow_extra_args(false)
        ->type_name("NAME");
    cmd_->add_flag("--allow-exec", check_.allow_exec,
                   "Run the exec:COMMAND strategies scenarios name (COMMAND runs through "
                   "the shell: give it only for scenarios you trust)");
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--junit", &check_.junit, false}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    if (!check_.junit.empty()) unwritten.push_back("--junit " + check_.junit);
    if (!check_.html.empty()) unwritten.push_back("--html " + check_.html);
    return RunCheck(check_);
  }

 private:
  CheckCommand check_;
};

}  // namespace

std::unique_ptr<Command> MakeCheckCommand() { return std::make_unique<CheckCli>(); }

}  // namespace lbsim
