// `lbsim merge SLICE...`: joins the slices of a sharded sweep.

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "base/input/text_file.h"
#include "cli/commands/command.h"
#include "sim/io/output_file.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim merge -o all.csv part1.csv part2.csv part3.csv
  lbsim merge -o all.json part*.json

The slices must make up one whole sweep, each cell once (docs/sweeps.md).
Exit status: 0 written; 2 foreign, overlapping or missing slices (nothing is
written).)";

// What `lbsim merge [OPTIONS] SLICE...` was asked to do.
struct MergeCommand {
  std::vector<std::string> slices;
  std::string output;  // empty or "-": standard output
};

// Joins the slices of one sharded sweep into its whole output.
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

class MergeCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "merge", "Join the slices written by lbsim sweep --shard into the whole sweep's output");
    cmd_->footer(kFooter);
    cmd_->add_option("slices", merge_.slices, "Slice files (all CSV or all JSON)")->required();
    cmd_->add_option("-o,--output", merge_.output,
                     "Write to FILE (atomically) instead of standard output")
        ->type_name("FILE");
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--output", &merge_.output}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    unwritten = NamedOutput(merge_.output);
    return RunMergeCommand(merge_);
  }

 private:
  MergeCommand merge_;
};

}  // namespace

std::unique_ptr<Command> MakeMergeCommand() { return std::make_unique<MergeCli>(); }

}  // namespace lbsim
