#include "cli/merge_command.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/io/output_file.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("{}: read error", path));
  return text.str();
}

}  // namespace

int RunMergeCommand(const MergeCommand& command) {
  std::vector<std::pair<std::string, std::string>> slices;
  for (const std::string& path : command.slices) {
    RefuseOverwrite(command.output, path, "--output", "slice");
    slices.emplace_back(path, ReadWholeFile(path));
  }
  OutputTarget output(command.output);
  output.Write(MergeSweepSlices(slices));
  return 0;
}

}  // namespace lbsim
