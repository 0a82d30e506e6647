#include "cli/gen_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "traces/gen/gen_flags.h"
#include "traces/gen/gen_spec.h"
#include "traces/gen/trace_generator.h"
#include "base/errors.h"
#include "sim/io/output_file.h"

namespace lbsim {

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
  if (!to_stdout && !command.spec.empty() &&
      (command.output == command.spec || SameFile(command.output, command.spec)))
    throw UsageError(fmt::format("--output {}: refusing to overwrite the gen spec", command.output));
  std::optional<OutputFile> file;
  if (!to_stdout) file.emplace(command.output);
  GenerateTrace(spec, to_stdout ? stdout : file->stream());
  if (file) {
    file->Commit();
  } else if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    throw UsageError(fmt::format("standard output: cannot write the trace: {}",
                                 std::strerror(errno ? errno : EIO)));
  }
  return 0;
}

}  // namespace lbsim
