#include "cli/commands/command.h"

#include <CLI/CLI.hpp>

#include "sim/io/output_file.h"

namespace lbsim {

bool Subcommand::Chosen() const { return cmd_->parsed(); }

std::vector<std::string> NamedOutput(const std::string& path) {
  if (IsStandardOutputPath(path)) return {};
  return {"--output " + path};
}

}  // namespace lbsim
