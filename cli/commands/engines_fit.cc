// `lbsim engines fit FILE... [-o CONFIG]`: fits an LLM engine configuration
// to benchmark measurements (docs/engine-fit.md) and writes it as a file
// that --engine reads; the fit report goes to standard error.

#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "base/split_text.h"
#include "cli/commands/command.h"
#include "cli/engine_options.h"
#include "cli/option_checks.h"
#include "sim/fit/engine_fit.h"
#include "sim/fit/fit_report.h"
#include "sim/fit/measurement_files.h"
#include "sim/io/output_file.h"
#include "sim/io/printable.h"
#include "sim/replay/engine_config.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim engines fit log-bs*.txt tpot_benchmark_table.json -o my-engine.json
  lbsim engines fit --hold-out 3,5 measurements.csv -o /dev/null
  lbsim -s rr,ll --engine my-engine.json trace.ndjson

Formats (told from each file's content, or --from): warmup-log (CacheRoute's
"[TTFT] BS=.., PL=.., ttft=..ms" lines), ttft-table and tpot-table
(CacheRoute's ttft_benchmark_table.json, tpot_benchmark_table.json), csv
(batch_size,prompt_tokens,output_tokens and ttft_ms, tpot_ms or e2e_ms).
How the fit works and how good it is: docs/engine-fit.md.
Exit status: 0 written; 2 bad file or option (one line naming it; nothing is
written).)";

struct FitCommand {
  std::vector<std::string> files;
  std::string output;
  std::string from;
  std::string base = "llama-3.1-8b-h100";
  std::string name = "fitted";
  std::uint64_t template_tokens = 25;
  std::string hold_out;
  bool quiet = false;
};

std::vector<std::uint64_t> Batches(const std::string& text) {
  std::vector<std::uint64_t> out;
  if (text.empty()) return out;
  for (std::string_view item : SplitAt(text, ',')) {
    std::uint64_t b = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), b);
    if (ec != std::errc() || end != item.data() + item.size() || b < 1 || b > kMaxFitBatch)
      throw UsageError(fmt::format(
          "--hold-out: expected batch sizes from 1 to {} separated by commas, got \"{}\"",
          kMaxFitBatch, Printable(text)));
    out.push_back(b);
  }
  return out;
}

int RunFit(const FitCommand& c) {
  std::optional<MeasurementFormat> from;
  if (!c.from.empty()) {
    from = MeasurementFormatNamed(c.from);
    if (!from)
      throw UsageError(fmt::format("--from: expected one of {}, got \"{}\"",
                                   MeasurementFormatNames(), Printable(c.from)));
  }
  EngineFitOptions options{.base = *ResolveEngine(c.base, "--base"), .held_out = Batches(c.hold_out)};
  for (const std::string& file : c.files) RefuseOverwrite(c.output, file, "--output", "measurement file");
  if (!FindBuiltinEngine(c.base))
    RefuseOverwrite(c.output, c.base, "--output", "base engine configuration");
  OutputTarget out(c.output);  // an unwritable output fails before the work

  std::vector<MeasurementFile> files;
  std::vector<Measurement> points;
  for (const std::string& path : c.files) {
    files.push_back(ReadMeasurementFile(path, from, c.template_tokens));
    points.insert(points.end(), files.back().points.begin(), files.back().points.end());
  }
  EngineFit fit = FitEngine(points, options);
  fit.config.name = c.name;
  fit.config.description = FitDescription(fit, files, options);
  out.Write(EngineConfigJson(fit.config));
  if (!c.quiet) {
    const std::string report = FitReportText(fit, files, options);
    std::fwrite(report.data(), 1, report.size(), stderr);
  }
  return 0;
}

class EnginesFitCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "fit", "Fit an engine configuration to benchmark measurements (TTFT, TPOT, E2E)");
    cmd_->footer(kFooter);
    cmd_->add_option("files", fit_.files, "Measurement files (gzip or zstd too)")
        ->required()
        ->type_name("FILE");
    cmd_->add_option("-o,--output", fit_.output,
                     "Write the configuration to CONFIG (atomically) instead of standard output")
        ->type_name("CONFIG");
    cmd_->add_option("--from", fit_.from, "The files' format, when not told from their content")
        ->check(Offers(MeasurementFormatNameList()))
        ->type_name("FORMAT");
    cmd_->add_option("--base", fit_.base,
                     "The KV cache and scheduler limits, and what the measurements do not "
                     "determine, from this built-in engine or configuration file")
        ->type_name("NAME|FILE")
        ->default_str(fit_.base);
    cmd_->add_option("--name", fit_.name, "The configuration's name")->type_name("NAME")
        ->default_str(fit_.name);
    cmd_->add_option("--template-tokens", fit_.template_tokens,
                     "Tokens a chat template adds to a warmup log's prompt length PL")
        ->type_name("N")
        ->check(IntegerFrom(0, 4096))
        ->default_str("25");
    cmd_->add_option("--hold-out", fit_.hold_out,
                     "Leave these batch sizes out of the fit and report how well it predicts them")
        ->type_name("B,B...");
    cmd_->add_flag("-q,--quiet", fit_.quiet, "No fit report on standard error");
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--output", &fit_.output}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    unwritten = NamedOutput(fit_.output);
    return RunFit(fit_);
  }

 private:
  FitCommand fit_;
};

}  // namespace

std::unique_ptr<Command> MakeEnginesFitCommand() { return std::make_unique<EnginesFitCli>(); }

}  // namespace lbsim
