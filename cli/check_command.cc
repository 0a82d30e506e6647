#include "cli/check_command.h"

#include <optional>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/check/scenario.h"
#include "sim/check/scenario_check.h"
#include "sim/check/scenario_files.h"
#include "sim/io/output_file.h"
#include "sim/report/warning.h"
#include "sim/io/write_stream.h"

namespace lbsim {
namespace {

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

}  // namespace

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

}  // namespace lbsim
