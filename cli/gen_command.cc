#include "cli/gen_command.h"

#include <cerrno>
#include <cstdio>
#include <unistd.h>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "traces/gen/gen_flags.h"
#include "traces/gen/gen_spec.h"
#include "traces/gen/trace_generator.h"
#include "base/errors.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"
#include "traces/gen/trace_line_writer.h"

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
  if (!command.spec.empty()) RefuseOverwrite(command.output, command.spec, "--output", "spec");
  std::optional<OutputFile> file;
  std::optional<WriteStream> out;  // standard output, streamed
  if (to_stdout) out.emplace(STDOUT_FILENO);
  else file.emplace(command.output);
  const std::string_view name = file ? file->Name() : "standard output";
  try {
    GenerateTrace(spec, out ? out->get() : file->stream());
  } catch (const TraceWriteError& e) {
    throw UsageError(fmt::format("{}: cannot write output: {}", name, e.what()));
  }
  if (file) file->Commit();
  else if (const int err = out->Flush())
    throw UsageError(fmt::format("{}: cannot write output: {}", name, std::strerror(err)));
  return 0;
}

}  // namespace lbsim
