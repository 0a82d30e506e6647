// `lbsim import --from FORMAT IN`: a public LLM serving trace as a v1 trace.

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "base/input/input_file.h"
#include "cli/commands/command.h"
#include "cli/option_checks.h"
#include "sim/io/output_file.h"
#include "sim/io/printable.h"
#include "sim/io/write_stream.h"
#include "traces/gen/trace_line_writer.h"
#include "traces/importers/field_text.h"
#include "traces/importers/import_format.h"
#include "traces/importers/cacheroute_record.h"
#include "traces/importers/trace_import.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Formats (field mappings in docs/import.md):
  mooncake  JSON Lines: timestamp (ms), input_length, output_length, hash_ids
  azure     CSV: TIMESTAMP (date-time), ContextTokens, GeneratedTokens
  burstgpt  CSV: Timestamp (s), Model, Request tokens, Response tokens, ...
  cacheroute-record  a recording of the CacheRoute Proxy by lbsim's recorder
Every request becomes an arrival: t in ms, duration from the token-time
model, prefix_blocks from hash_ids. A malformed row stops the import with
exit status 2 and no output file, unless --skip-bad. A recording keeps the
Proxy's pool, hints, request ends and choices (docs/record-proxy.md) and
takes no --instances or token-time options.)";

// What `lbsim import --from FORMAT IN [-o OUT]` was asked to do.
struct ImportCommand {
  std::string format;  // --from
  std::string input;   // a path, or "-" for standard input
  std::string output;  // -o; empty or "-": standard output
  std::string instances;  // --instances: a count N, or comma-separated ids
  std::string name;       // --name; empty: the input's file name
  double prefill_ms_per_token = 0.1;
  double decode_ms_per_token = 20.0;
  double rate_scale = 1.0;
  std::uint64_t limit = 0;  // 0: every request
  bool skip_bad = false;
  std::string failed;  // --failed keep|drop (burstgpt); empty: keep
  std::vector<std::string> given;  // the long names of the options given
};

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


// The summary line of a request import.
std::string RequestsSummary(const ImportCommand& c, const ImportFormat& format,
                            const ImportOptions& options, const ImportStats& stats,
                            const std::string& display_path) {
  std::string summary = fmt::format("lbsim: imported {} from {} ({})",
                                    Counted(stats.arrivals, "arrival"), display_path,
                                    format.name);
  if (c.skip_bad) {
    summary += fmt::format("; skipped {}", Counted(stats.skipped, "malformed row"));
    if (stats.skipped) summary += fmt::format(" (first: {})", stats.first_skipped);
  }
  if (!options.keep_failed)
    summary += fmt::format("; dropped {}", Counted(stats.failed_dropped, "failed request"));
  return summary;
}

// The summary of a recording's import: what it holds, the Proxy it names,
// and what the replay cannot take from it.
std::string RecordingSummary(const RecordImportStats& s, const std::string& display_path) {
  std::string summary = fmt::format(
      "lbsim: imported {} from {} (cacheroute-record): {} refused, {} found no Instance, {} "
      "still in flight at the end, {} expired",
      Counted(s.arrivals, "arrival"), display_path, s.refused, s.no_instances, s.in_flight,
      Counted(s.expired, "Instance"));
  if (!s.requests_counted && s.arrivals > s.refused + s.no_instances)
    summary += " (no begin_request recorded: arrivals carry no duration)";
  summary += "; proxy ";
  if (s.profile) summary += fmt::format("{}", s.profile->name);
  else if (!s.commit.empty())
    summary += fmt::format("commit {} is no pinned version: the trace names none, so it "
                           "replays as latest unless --proxy says otherwise",
                           s.commit);
  else summary += "commit not recorded: the trace names none";
  if (!s.strategy.empty()) summary += fmt::format(", strategy {}", s.strategy);
  if (s.lost)
    summary += fmt::format("; warning: the recorder lost {}, so decisions after the loss may "
                           "not replay as recorded",
                           Counted(s.lost, "event"));
  if (s.gaps)
    summary += fmt::format("; warning: {} where the recording does not explain itself (first: "
                           "{})",
                           Counted(s.gaps, "place"), s.first_gap);
  return summary;
}

// Converts the input to a v1 JSON Lines trace, written atomically when an
// output file is named, and prints one summary line on stderr. Returns the
// exit status; throws UsageError/InputError.
int RunImport(const ImportCommand& c) {
  const ImportFormat& format = RequireImportFormat(c.format);
  ImportOptions options;
  if (format.proxy_recording) {
    // A recording holds its own pool, times and request ends.
    for (const std::string& flag : c.given)
      if (flag != "--from" && flag != "--output" && flag != "--name")
        throw UsageError(fmt::format("{}: does not apply to --from {}: a recording holds its "
                                     "own Instances, times and request ends",
                                     flag, format.name));
  } else {
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
  std::FILE* const stream = out ? out->get() : out_file->stream();
  const TraceEncoding encoding = out ? TraceEncoding::kLines : WrittenEncoding(c.output);
  const std::string name = c.name.empty() ? DefaultName(c.input) : c.name;

  std::string summary;
  try {
    if (format.proxy_recording) {
      summary = RecordingSummary(ImportCacheRouteRecord(in, display_path, name, stream, encoding),
                                 display_path);
    } else {
      std::unique_ptr<RequestSource> source = format.open(in.get(), display_path, &in);
      const ImportStats stats =
          ImportTrace(format, *source, display_path, name, options, stream, encoding);
      summary = RequestsSummary(c, format, options, stats, display_path);
    }
  } catch (const TraceWriteError& e) {
    throw UsageError(fmt::format("{}: cannot write output: {}", out_name, e.what()));
  }
  if (out_file) out_file->Commit();
  else if (const int err = out->Flush())
    throw UsageError(fmt::format("{}: cannot write output: {}", out_name, std::strerror(err)));

  // The path and the first skipped row's message hold text from the input.
  std::fprintf(stderr, "%s\n", Printable(summary).c_str());
  return 0;
}

class ImportCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand("import",
                              "Convert a public LLM serving trace, or a recording of the Proxy, "
                              "into a v1 JSON Lines trace");
    cmd_->footer(kFooter);
    std::vector<std::string> formats;
    for (const ImportFormat& f : ImportFormats()) formats.emplace_back(f.name);
    cmd_->add_option("--from", import_.format, "Input format")
        ->required()
        ->check(Offers(formats))
        ->type_name("FORMAT");
    cmd_->add_option("input", import_.input, "The public trace file, or - for standard input")
        ->required()
        ->type_name("IN");
    cmd_->add_option("-o,--output", import_.output,
                     "Write the trace to OUT (atomically) instead of standard output: a JSON "
                     "document when OUT ends in .json, else JSON Lines")
        ->type_name("OUT");
    cmd_->add_option("--instances", import_.instances,
                     "The pool: a count N (inst-1 .. inst-N) or comma-separated ids; "
                     "each starts alive with inflight 0 (required but for a recording)")
        ->type_name("N|IDS");
    cmd_->add_option("--prefill-ms-per-token", import_.prefill_ms_per_token,
                     "Token-time model: milliseconds per input token")
        ->default_str("0.1");
    cmd_->add_option("--decode-ms-per-token", import_.decode_ms_per_token,
                     "Token-time model: milliseconds per output token")
        ->default_str("20");
    cmd_->add_option("--rate-scale", import_.rate_scale,
                     "Divide arrival times by X (2 = twice the request rate)")
        ->default_str("1")
        ->type_name("X");
    cmd_->add_option("--limit", import_.limit, "Write only the first N requests (N >= 1)")
        ->check(IntegerFrom(1, std::numeric_limits<std::uint64_t>::max()))
        ->type_name("N");
    cmd_->add_flag("--skip-bad", import_.skip_bad,
                   "Skip malformed rows and report how many on stderr");
    cmd_->add_option("--failed", import_.failed,
                     "burstgpt: keep (default) or drop failed requests (0 response tokens)")
        ->check(CLI::IsMember({"keep", "drop"}));
    cmd_->add_option("--name", import_.name, "Trace name (default: the input's file name)");
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--output", &import_.output}};
  }
  // A failed import names no unwritten file (its summary goes to stderr).
  int Run(std::vector<std::string>&) override {
    for (const CLI::Option* option : cmd_->get_options())
      if (option->count() > 0 && !option->get_lnames().empty())
        import_.given.push_back("--" + option->get_lnames().front());
    return RunImport(import_);
  }

 private:
  ImportCommand import_;
};

}  // namespace

std::unique_ptr<Command> MakeImportCommand() { return std::make_unique<ImportCli>(); }

}  // namespace lbsim
