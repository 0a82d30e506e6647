#include "cli/check_command.h"

#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/check/scenario.h"
#include "sim/check/scenario_check.h"
#include "sim/check/scenario_files.h"
#include "sim/io/output_file.h"
#include "sim/report/warning.h"

namespace lbsim {

int RunCheck(const CheckCommand& command) {
  const std::vector<std::string> fail_on = ParseFailOn(command.fail_on, "--fail-on");
  const std::vector<std::string> files = FindScenarioFiles(command.paths);
  // A file written beside the results on standard output must be a file,
  // and not one of the scenarios.
  auto refuse = [&](std::string_view flag, const std::string& path) {
    if (path.empty()) return;
    if (path == "-")
      throw UsageError(fmt::format(
          "{} -: the results already go to standard output; give a file", flag));
    for (const std::string& file : files)
      if (path == file || SameFile(path, file))
        throw UsageError(fmt::format("{} {}: refusing to overwrite a scenario file", flag, path));
  };
  refuse("--junit", command.junit);
  refuse("--html", command.html);
  if (!command.junit.empty() && !command.html.empty() &&
      (command.junit == command.html || SameFile(command.junit, command.html)))
    throw UsageError("--junit and --html name the same file");
  // Opened now, so that one that cannot be written fails before any work.
  std::optional<OutputFile> junit, html;
  if (!command.junit.empty()) junit.emplace(command.junit);
  if (!command.html.empty()) html.emplace(command.html);

  // Everything is computed before anything is printed: bad input leaves
  // no partial output.
  std::vector<ScenarioResult> results;
  for (const std::string& file : files)
    results.push_back(CheckScenario(LoadScenario(file), fail_on));

  const std::string text =
      command.format == "json" ? RenderCheckJson(results) : RenderCheckText(results, command.quiet);
  if (junit) WriteText(RenderCheckJUnit(results), junit->stream(), command.junit + ": cannot write output");
  if (html) WriteText(RenderCheckHtml(results), html->stream(), command.html + ": cannot write output");
  // Both complete on disk before either is put in place.
  if (junit) junit->Finish();
  if (html) html->Finish();
  if (junit) junit->Commit();
  if (html) html->Commit();
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return Summarize(results).failed > 0 ? 1 : 0;
}

}  // namespace lbsim
