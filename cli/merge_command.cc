#include "cli/merge_command.h"

#include <utility>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/io/output_file.h"
#include "sim/sweep/sweep.h"
#include "base/input/text_file.h"

namespace lbsim {

int RunMergeCommand(const MergeCommand& command) {
  std::vector<std::pair<std::string, std::string>> slices;
  std::size_t left = kMaxMergeBytes;  // for all the slices together
  for (const std::string& path : command.slices) {
    RefuseOverwrite(command.output, path, "--output", "slice");
    std::string text = ReadTextFile(
        path, "sweep slice", left,
        fmt::format("the slices are larger than the limit of {} MiB for one merge, together",
                    kMaxMergeBytes >> 20));
    left -= text.size();
    slices.emplace_back(path, std::move(text));
  }
  OutputTarget output(command.output);
  output.Write(MergeSweepSlices(slices));
  return 0;
}

}  // namespace lbsim
