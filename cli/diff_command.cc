#include "cli/diff_command.h"

#include <cstdio>

#include "strategies/params.h"

namespace lbsim {

int RunDiff(const DiffCommand& command) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& pair : command.pairs)
    pairs.push_back(SplitAssignment(pair, "--pair (BASE_LABEL=NEW_LABEL)"));
  const ReportDiff diff = DiffReports(command.base, command.next, command.tolerances, pairs);
  const std::string text = RenderDiffText(diff);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return diff.flagged() > 0 ? 1 : 0;
}

}  // namespace lbsim
