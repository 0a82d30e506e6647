#pragma once

// The measurement files `lbsim engines fit` reads (docs/engine-fit.md), each
// into Measurements of sim/fit/measurement.h.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fit/measurement.h"

namespace lbsim {

enum class MeasurementFormat {
  kWarmupLog,  // CacheRoute's warmup benchmark log: "[TTFT] BS=.., PL=.., ..." lines
  kTtftTable,  // CacheRoute's ttft_benchmark_table.json
  kTpotTable,  // CacheRoute's tpot_benchmark_table.json
  kCsv,        // batch_size,prompt_tokens,output_tokens and ttft/tpot/e2e columns
};

// The format's name for --from: "warmup-log", "ttft-table", "tpot-table", "csv".
std::string_view MeasurementFormatName(MeasurementFormat format);
// The format `name` names, or nullopt.
std::optional<MeasurementFormat> MeasurementFormatNamed(std::string_view name);
// Every format's name, in that order: what --from takes.
std::vector<std::string> MeasurementFormatNameList();
// "warmup-log, ttft-table, tpot-table, csv" for messages.
std::string MeasurementFormatNames();

// Limits on one measurement, so that its schedule stays small: at most
// kMaxFitBatch requests of at most kMaxFitInputTokens and kMaxFitOutputTokens
// tokens, and batch x output tokens at most kMaxFitDecodeTokens.
inline constexpr std::uint64_t kMaxFitBatch = 4096;
inline constexpr std::uint64_t kMaxFitInputTokens = 1u << 20;
inline constexpr std::uint64_t kMaxFitOutputTokens = 1u << 16;
inline constexpr std::uint64_t kMaxFitDecodeTokens = 1u << 22;

// The measurements of one file.
struct MeasurementFile {
  std::string path;
  MeasurementFormat format = MeasurementFormat::kCsv;
  std::vector<Measurement> points;
  std::string summary;  // what was read and what was left out, for the fit report
};

// Reads the measurement file at `path` (gzip or zstd too) in the format
// `from`, or the one its content shows when nullopt. `template_tokens` are
// added to a warmup log's prompt lengths (PL counts the user's text; the
// engine also reads the chat template's tokens); the tables' lengths and the
// CSV's prompt_tokens already count them. Throws InputError "PATH[:LINE]:
// what was expected, got what".
MeasurementFile ReadMeasurementFile(const std::string& path,
                                    std::optional<MeasurementFormat> from,
                                    std::uint64_t template_tokens);

// The parsers, on text already read from `path`.
MeasurementFile ReadWarmupLog(const std::string& path, std::string_view text,
                              std::uint64_t template_tokens);
MeasurementFile ReadBenchmarkTable(const std::string& path, std::string_view text,
                                   MeasurementFormat format);
MeasurementFile ReadMeasurementCsv(const std::string& path, std::string_view text);

// Calls `f(line, number)` for each line of `text` (1-based numbers), a
// final '\r' removed: measurement files come with CRLF line ends.
template <class F>
void ForEachLine(std::string_view text, F f) {
  std::size_t number = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line.ends_with('\r')) line.remove_suffix(1);
    f(line, ++number);
  }
}

// A line of a measurement file as an error message quotes it: printable,
// at most 100 bytes of it and "..." when longer.
std::string LineExcerpt(std::string_view line);

// Checks the limits above for one measurement; throws InputError naming
// `m.where`.
void CheckMeasurementLimits(const Measurement& m);

}  // namespace lbsim
