// `lbsim gen [SPEC] [FLAGS]`: writes a trace from a gen spec and/or flags.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "cli/commands/command.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"
#include "traces/gen/gen_flags.h"
#include "traces/gen/gen_spec.h"
#include "traces/gen/trace_generator.h"
#include "traces/gen/trace_line_writer.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim gen --instances 4 --rate 20 --arrivals 1000 --durations exponential:0.5 -o t.ndjson
  lbsim gen traces/gen_specs/every_key.gen.json -o t.ndjson
  lbsim gen scenarios/whatif/cold_start.gen.json --seed 9 --proxy spec > t.ndjson

A gen spec (docs/gen.md) describes the workload; flags given too override it.
Exit status: 0 written; 2 bad spec or flag (one line naming the field; nothing
is written).)";

// What `lbsim gen [SPEC] [FLAGS]` was asked to do.
struct GenCommand {
  std::string spec;    // gen spec (a JSON file); empty: defaults and flags only
  std::string output;  // empty or "-": standard output
  // Spec flags in the order given, each as (flag, value).
  std::vector<std::pair<std::string, std::string>> flags;
};

// Builds the spec (defaults, then the file, then the flags), validates it
// and writes the trace; the output file appears only complete. Returns the
// exit status; throws UsageError/InputError.
int RunGen(const GenCommand& command) {
  GenSpec spec;
  std::string origin = "command line";
  if (!command.spec.empty()) {
    ReadGenSpecFile(command.spec, spec);
    origin = command.flags.empty() ? command.spec : command.spec + " with command-line flags";
  }
  for (const auto& [flag, value] : command.flags) ApplyGenFlag(spec, flag, value);
  ValidateGenSpec(spec, origin);

  const bool to_stdout = IsStandardOutputPath(command.output);
  if (!command.spec.empty()) RefuseOverwrite(command.output, command.spec, "--output", "spec");
  std::optional<OutputFile> file;
  std::optional<WriteStream> out;  // standard output, streamed
  if (to_stdout) out.emplace(STDOUT_FILENO);
  else file.emplace(command.output);
  const std::string_view name = file ? file->Name() : "standard output";
  try {
    GenerateTrace(spec, out ? out->get() : file->stream(),
                  to_stdout ? TraceEncoding::kLines : WrittenEncoding(command.output));
  } catch (const TraceWriteError& e) {
    throw UsageError(fmt::format("{}: cannot write output: {}", name, e.what()));
  }
  if (file) file->Commit();
  else if (const int err = out->Flush())
    throw UsageError(fmt::format("{}: cannot write output: {}", name, std::strerror(err)));
  return 0;
}

class GenCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "gen", "Generate a trace (JSON Lines; a JSON document for a .json FILE) from a gen "
               "spec (a JSON file) and/or flags");
    cmd_->footer(kFooter);
    cmd_->add_option("spec", gen_.spec,
                     "Gen spec: a JSON file describing the workload (docs/gen.md); flags "
                     "given too override it")
        ->type_name("GEN_SPEC");
    cmd_->add_option("-o,--output", gen_.output,
                     "Write the trace to FILE (atomically) instead of standard output: a JSON "
                     "document when FILE ends in .json, else JSON Lines")
        ->type_name("FILE");
    // The spec's flags, from the spec's own table (traces/gen/gen_flags.h).
    for (const GenFlagInfo& f : GenFlags()) {
      auto record = [this, name = std::string(f.name)](const std::vector<std::string>& values) {
        for (const std::string& v : values) gen_.flags.emplace_back(name, v);
      };
      CLI::Option* opt = cmd_->add_option_function<std::vector<std::string>>(
          std::string(f.name), record, std::string(f.help));
      opt->type_name(std::string(f.type_name))->allow_extra_args(false);
      if (!f.repeatable) opt->expected(1);
    }
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--output", &gen_.output}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    unwritten = NamedOutput(gen_.output);
    return RunGen(gen_);
  }

 private:
  GenCommand gen_;
};

}  // namespace

std::unique_ptr<Command> MakeGenCommand() { return std::make_unique<GenCli>(); }

}  // namespace lbsim
