#include "cli/diff_command.h"

#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"
#include "strategies/params.h"

namespace lbsim {

int RunDiff(const DiffCommand& command) {
  DiffOptions options;
  options.tolerances = command.tolerances;
  for (const std::string& t : command.tols) options.tolerances.Set(t);
  for (const std::string& a : command.allow) options.allow.Allow(a);
  for (const std::string& pair : command.pairs)
    options.pairs.push_back(SplitAssignment(pair, "--pair (BASE_LABEL=NEW_LABEL)"));
  options.beyond_spread = command.beyond_spread;
  options.only_worse = command.only_worse;
  // Standard output must not be one of the reports read.
  for (const std::string& input : {command.base, command.next})
    RefuseOverwrite("-", input, "", "report");
  std::optional<OutputFile> junit;
  if (!command.junit.empty()) {
    if (command.junit == "-")
      throw UsageError("--junit -: the comparison already goes to standard output; give a file");
    for (const std::string& input : {command.base, command.next})
      RefuseOverwrite(command.junit, input, "--junit", "report");
    RefuseStandardOutputAs(command.junit, "--junit");
    junit.emplace(command.junit);  // fails now, before any work, if it cannot be written
  }
  const ReportDiff diff = DiffReports(command.base, command.next, options);
  const std::string text = command.format == "json" ? RenderDiffJson(diff) : RenderDiffText(diff);
  if (junit) {
    WriteText(RenderDiffJUnit(diff), junit->stream(), command.junit + ": cannot write output");
    junit->Finish();
    junit->Commit();
  }
  WriteStandardOutput(text, "the comparison");
  return diff.flagged() > 0 ? 1 : 0;
}

}  // namespace lbsim
