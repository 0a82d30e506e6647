#include "cli/diff_command.h"

#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"
#include "strategies/params.h"

namespace lbsim {

int RunDiff(const DiffCommand& command) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& pair : command.pairs)
    pairs.push_back(SplitAssignment(pair, "--pair (BASE_LABEL=NEW_LABEL)"));
  for (const std::string& input : {command.base, command.next})
    RefuseOverwrite("-", input, "", "report");
  const ReportDiff diff = DiffReports(command.base, command.next, command.tolerances, pairs);
  const std::string text = RenderDiffText(diff);
  WriteStandardOutput(text, "the comparison");
  return diff.flagged() > 0 ? 1 : 0;
}

}  // namespace lbsim
