#include "cli/import_command.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "traces/importers/field_text.h"
#include "traces/importers/trace_import.h"
#include "base/input/input_file.h"
#include "base/errors.h"
#include "sim/io/output_file.h"
#include "sim/io/printable.h"
#include "sim/io/write_stream.h"
#include "traces/gen/trace_line_writer.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

// "N" gives inst-1 .. inst-N; anything else is a comma-separated id list.
std::vector<std::string> InstanceIds(const std::string& text) {
  if (text.empty())
    throw UsageError("import: --instances is required: a count N (inst-1 .. inst-N) or "
                     "a comma-separated list of Instance ids");
  std::vector<std::string> ids;
  if (std::optional<std::uint64_t> n = ParseCount(text)) {
    if (*n == 0 || *n > kMaxInstances)
      throw UsageError(fmt::format(
          "--instances: expected a count from 1 to {} (the most Instances a trace may have), "
          "got {}",
          kMaxInstances, text));
    for (std::uint64_t i = 1; i <= *n; ++i) ids.push_back(fmt::format("inst-{}", i));
    return ids;
  }
  std::unordered_set<std::string> seen;
  std::string_view rest = text;
  for (;;) {
    std::size_t comma = rest.find(',');
    std::string id(TrimBlanks(rest.substr(0, comma)));
    if (id.empty())
      throw UsageError(fmt::format("--instances: empty Instance id in '{}'", text));
    if (!seen.insert(id).second)
      throw UsageError(fmt::format("--instances: Instance id '{}' appears twice", id));
    if (id.size() > kMaxIdBytes)
      throw UsageError(fmt::format("--instances: an Instance id of {} bytes; at most {} (the limit)",
                                   id.size(), kMaxIdBytes));
    ids.push_back(std::move(id));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (ids.size() > kMaxInstances)
    throw UsageError(fmt::format(
        "--instances: at most {} Instances (the most a trace may have), got {}", kMaxInstances,
        ids.size()));
  return ids;
}

void RequireFinite(double value, double min, bool exclusive, std::string_view flag) {
  bool ok = std::isfinite(value) && (exclusive ? value > min : value >= min);
  if (!ok)
    throw UsageError(fmt::format("{}: expected a finite number {} {}, got {}", flag,
                                 exclusive ? ">" : ">=", min, value));
}

// The input's file name without directories and extension.
std::string DefaultName(const std::string& input) {
  if (input == "-") return "stdin";
  std::string name = input.substr(input.rfind('/') + 1);
  std::size_t dot = name.find('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name;
}

// "1 arrival", "2 arrivals".
std::string Counted(std::uint64_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

}  // namespace

int RunImport(const ImportCommand& c) {
  const ImportFormat& format = RequireImportFormat(c.format);
  ImportOptions options;
  options.instances = InstanceIds(c.instances);
  RequireFinite(c.prefill_ms_per_token, 0, false, "--prefill-ms-per-token");
  RequireFinite(c.decode_ms_per_token, 0, false, "--decode-ms-per-token");
  RequireFinite(c.rate_scale, 0, true, "--rate-scale");
  options.prefill_ms_per_token = c.prefill_ms_per_token;
  options.decode_ms_per_token = c.decode_ms_per_token;
  options.rate_scale = c.rate_scale;
  options.limit = c.limit;
  options.skip_bad = c.skip_bad;
  if (!c.failed.empty()) {
    if (!format.marks_failures)
      throw UsageError(fmt::format("--failed: the {} format marks no request as failed",
                                   format.name));
    options.keep_failed = c.failed == "keep";
  }
  RefuseOverwrite(c.output, c.input, "-o");

  const bool from_stdin = c.input == "-";
  const std::string display_path = from_stdin ? "<stdin>" : c.input;
  InputFile in = InputFile::Open(c.input, "input");
  std::optional<OutputFile> out_file;
  std::optional<WriteStream> out;  // standard output, streamed
  if (IsStandardOutputPath(c.output)) out.emplace(STDOUT_FILENO);
  else out_file.emplace(c.output);
  const std::string_view out_name = out_file ? out_file->Name() : "standard output";

  std::unique_ptr<RequestSource> source = format.open(in.get(), display_path, &in);
  ImportStats stats;
  try {
    stats = ImportTrace(format, *source, display_path,
                        c.name.empty() ? DefaultName(c.input) : c.name, options,
                        out ? out->get() : out_file->stream());
  } catch (const TraceWriteError& e) {
    throw UsageError(fmt::format("{}: cannot write output: {}", out_name, e.what()));
  }
  if (out_file) out_file->Commit();
  else if (const int err = out->Flush())
    throw UsageError(fmt::format("{}: cannot write output: {}", out_name, std::strerror(err)));

  std::string summary = fmt::format("lbsim: imported {} from {} ({})",
                                    Counted(stats.arrivals, "arrival"), display_path,
                                    format.name);
  if (c.skip_bad) {
    summary += fmt::format("; skipped {}", Counted(stats.skipped, "malformed row"));
    if (stats.skipped) summary += fmt::format(" (first: {})", stats.first_skipped);
  }
  if (!options.keep_failed)
    summary += fmt::format("; dropped {}", Counted(stats.failed_dropped, "failed request"));
  // The path and the first skipped row's message hold text from the input.
  std::fprintf(stderr, "%s\n", Printable(summary).c_str());
  return 0;
}

}  // namespace lbsim
