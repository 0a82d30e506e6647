#include "cli/check_command.h"

#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/check/scenario.h"
#include "sim/check/scenario_check.h"
#include "sim/check/scenario_files.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"

namespace lbsim {

int RunCheck(const CheckCommand& command) {
  const std::vector<std::string> files = FindScenarioFiles(command.paths);
  std::optional<OutputFile> junit;
  if (!command.junit.empty()) {
    if (command.junit == "-")
      throw UsageError("--junit -: the results already go to standard output; give a file");
    for (const std::string& file : files)
      if (command.junit == file || SameFile(command.junit, file))
        throw UsageError(fmt::format(
            "--junit {}: refusing to overwrite a scenario file", command.junit));
    junit.emplace(command.junit);  // fails now, before any work, if it cannot be written
  }

  // Everything is computed before anything is printed: bad input leaves
  // no partial output.
  std::vector<ScenarioResult> results;
  for (const std::string& file : files) results.push_back(CheckScenario(LoadScenario(file)));

  const std::string text =
      command.format == "json" ? RenderCheckJson(results) : RenderCheckText(results);
  if (junit) {
    WriteText(RenderCheckJUnit(results), junit->stream(), command.junit + ": cannot write output");
    junit->Commit();
  }
  WriteStandardOutput(text, "the results");
  return Summarize(results).failed > 0 ? 1 : 0;
}

}  // namespace lbsim
