#include "cli/diff_command.h"

#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/io/output_file.h"
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
  std::optional<OutputFile> junit;
  if (!command.junit.empty()) {
    if (command.junit == "-")
      throw UsageError("--junit -: the comparison already goes to standard output; give a file");
    for (const std::string* report : {&command.base, &command.next})
      if (command.junit == *report || SameFile(command.junit, *report))
        throw UsageError(fmt::format("--junit {}: refusing to overwrite a report", command.junit));
    junit.emplace(command.junit);  // fails now, before any work, if it cannot be written
  }
  const ReportDiff diff = DiffReports(command.base, command.next, options);
  const std::string text = command.format == "json" ? RenderDiffJson(diff) : RenderDiffText(diff);
  if (junit) {
    const std::string xml = RenderDiffJUnit(diff);
    WriteText(xml, junit->stream(), command.junit + ": cannot write output");
    junit->Finish();
    junit->Commit();
  }
  WriteText(text, stdout, "standard output: cannot write the comparison");
  return diff.flagged() > 0 ? 1 : 0;
}

}  // namespace lbsim
