#pragma once

#include <string>
#include <vector>

namespace lbsim {

// What `lbsim merge [OPTIONS] SLICE...` was asked to do.
struct MergeCommand {
  std::vector<std::string> slices;
  std::string output;  // empty or "-": standard output
};

// Joins the slices of one sharded sweep into its whole output.
int RunMergeCommand(const MergeCommand& command);

}  // namespace lbsim
