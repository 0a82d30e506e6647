#include "sim/fit/measurement_files.h"

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/input/text_file.h"
#include "base/json/json_limits.h"
#include "base/number_text.h"
#include "sim/io/printable.h"
#include "sim/replay/engine_config.h"

namespace lbsim {
namespace {

constexpr std::array<std::pair<MeasurementFormat, std::string_view>, 4> kNames = {{
    {MeasurementFormat::kWarmupLog, "warmup-log"},
    {MeasurementFormat::kTtftTable, "ttft-table"},
    {MeasurementFormat::kTpotTable, "tpot-table"},
    {MeasurementFormat::kCsv, "csv"},
}};

// The text less a UTF-8 byte order mark and leading white space.
std::string_view Body(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

// The format the content shows, or nullopt.
std::optional<MeasurementFormat> Recognise(std::string_view text) {
  const std::string_view body = Body(text);
  if (body.starts_with("{")) {
    // The key names the table: the first of the two to appear.
    const std::size_t ttft = body.find("\"ttft_unit\"");
    const std::size_t tpot = body.find("\"tpot_unit\"");
    if (ttft == tpot) return std::nullopt;
    return ttft < tpot ? MeasurementFormat::kTtftTable : MeasurementFormat::kTpotTable;
  }
  if (body.starts_with("[TTFT]") || body.find("\n[TTFT]") != std::string_view::npos)
    return MeasurementFormat::kWarmupLog;
  // A CSV's header: its first line that is not a '#' comment.
  std::string_view rest = body;
  while (rest.starts_with('#')) {
    const std::size_t end = rest.find('\n');
    rest = end == std::string_view::npos ? std::string_view() : Body(rest.substr(end + 1));
  }
  const std::string_view first = rest.substr(0, rest.find('\n'));
  if (first.find("batch_size") != std::string_view::npos &&
      first.find(',') != std::string_view::npos)
    return MeasurementFormat::kCsv;
  return std::nullopt;
}

}  // namespace

std::string_view MeasurementFormatName(MeasurementFormat format) {
  for (const auto& [f, name] : kNames)
    if (f == format) return name;
  return "?";
}

std::optional<MeasurementFormat> MeasurementFormatNamed(std::string_view name) {
  for (const auto& [f, n] : kNames)
    if (n == name) return f;
  return std::nullopt;
}

std::vector<std::string> MeasurementFormatNameList() {
  std::vector<std::string> out;
  for (const auto& [f, name] : kNames) out.emplace_back(name);
  return out;
}

std::string MeasurementFormatNames() {
  std::string out;
  for (const auto& [f, name] : kNames) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string LineExcerpt(std::string_view line) {
  constexpr std::size_t kMax = 100;
  if (line.size() <= kMax) return Printable(line);
  return Printable(line.substr(0, kMax)) + "...";
}

void CheckMeasurementLimits(const Measurement& m) {
  auto fail = [&](std::string_view what, std::uint64_t limit, std::uint64_t got) {
    throw InputError(fmt::format("{}: {}: expected at most {}, got {}", m.where, what, limit, got));
  };
  if (m.batch > kMaxFitBatch) fail("batch size", kMaxFitBatch, m.batch);
  if (m.input_tokens > kMaxFitInputTokens) fail("prompt tokens", kMaxFitInputTokens, m.input_tokens);
  if (m.output_tokens > kMaxFitOutputTokens)
    fail("output tokens", kMaxFitOutputTokens, m.output_tokens);
  if (m.batch * m.output_tokens > kMaxFitDecodeTokens)
    fail("batch size x output tokens", kMaxFitDecodeTokens, m.batch * m.output_tokens);
  // In its unit a time may look small and still pass what a double of
  // microseconds holds, or what a step may take (2^53 us).
  if (!(std::isfinite(m.value_us) && m.value_us > 0.0 && m.value_us <= kMaxEngineTermUs))
    throw InputError(fmt::format(
        "{}: {}: expected a time > 0 and at most 2^53 us (285 years), got {} us", m.where,
        MeasuredFigureName(m.figure), NumberText(m.value_us)));
}

MeasurementFile ReadMeasurementFile(const std::string& path,
                                    std::optional<MeasurementFormat> from,
                                    std::uint64_t template_tokens) {
  const std::string text = ReadTextFile(path, "measurement file", kMaxJsonFileBytes);
  if (!from) from = Recognise(text);
  if (!from)
    throw InputError(fmt::format(
        "{}: expected measurements lbsim knows (a CacheRoute warmup log of \"[TTFT] BS=..\" "
        "lines, its ttft_benchmark_table.json or tpot_benchmark_table.json, or a CSV with a "
        "batch_size,prompt_tokens,output_tokens header), got none of them (--from names the "
        "format: {})",
        path, MeasurementFormatNames()));
  switch (*from) {
    case MeasurementFormat::kWarmupLog: return ReadWarmupLog(path, text, template_tokens);
    case MeasurementFormat::kTtftTable:
    case MeasurementFormat::kTpotTable: return ReadBenchmarkTable(path, text, *from);
    case MeasurementFormat::kCsv: return ReadMeasurementCsv(path, text);
  }
  return {};
}

}  // namespace lbsim
