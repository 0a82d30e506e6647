// A plain CSV of measurements: a header naming batch_size, prompt_tokens,
// output_tokens and at least one of ttft_, tpot_, e2e_ with a unit suffix
// (ms, s, us); then one row per configuration, a value cell empty when not
// measured. prompt_tokens counts the tokens the engine reads (a chat
// template's included). Lines starting with '#' and empty lines are skipped.

#include <charconv>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/time_units.h"
#include "sim/fit/measurement_files.h"

namespace lbsim {
namespace {

std::string_view Trim(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    const std::size_t comma = line.find(',', at);
    out.push_back(Trim(line.substr(at, comma == std::string_view::npos ? comma : comma - at)));
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

// A value column: its figure and microseconds per unit.
struct ValueColumn {
  std::size_t index = 0;
  MeasuredFigure figure = MeasuredFigure::kTtft;
  double scale = 1.0;
};

std::optional<ValueColumn> ValueColumnNamed(std::string_view name, std::size_t index) {
  constexpr std::pair<MeasuredFigure, std::string_view> kPrefixes[] = {
      {MeasuredFigure::kTtft, "ttft_"}, {MeasuredFigure::kTpot, "tpot_"}, {MeasuredFigure::kE2e, "e2e_"}};
  for (const auto& [figure, prefix] : kPrefixes) {
    if (!name.starts_with(prefix)) continue;
    const std::string_view unit = name.substr(prefix.size());
    const double scale = MicrosecondsPer(unit);
    if (scale == 0.0) return std::nullopt;
    return ValueColumn{index, figure, scale};
  }
  return std::nullopt;
}

}  // namespace

MeasurementFile ReadMeasurementCsv(const std::string& path, std::string_view text) {
  MeasurementFile file;
  file.path = path;
  file.format = MeasurementFormat::kCsv;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  constexpr std::string_view kHeader =
      "a header of batch_size, prompt_tokens, output_tokens and ttft_, tpot_ or e2e_ columns "
      "with a unit (ms, s, us)";
  std::vector<std::string_view> names;
  std::size_t batch = 0, prompt = 0, output = 0;
  std::vector<ValueColumn> values;
  std::size_t rows = 0;
  ForEachLine(text, [&](std::string_view line, std::size_t number) {
    if (Trim(line).empty() || Trim(line).starts_with('#')) return;
    const std::string where = fmt::format("{}:{}", path, number);
    if (line.find('"') != std::string_view::npos)
      throw InputError(fmt::format("{}: expected plain cells (numbers and column names), got a "
                                   "quote in \"{}\"", where, LineExcerpt(line)));
    const std::vector<std::string_view> fields = Fields(line);
    if (names.empty()) {
      names = fields;
      std::optional<std::size_t> b, p, o;
      bool seen[3] = {false, false, false};
      for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string_view n = names[i];
        std::optional<std::size_t>* slot = n == "batch_size" ? &b : n == "prompt_tokens" ? &p
                                           : n == "output_tokens" ? &o : nullptr;
        if (slot && !*slot) {
          *slot = i;
          continue;
        }
        const std::optional<ValueColumn> v = ValueColumnNamed(n, i);
        if (slot || !v || seen[static_cast<int>(v->figure)])
          throw InputError(fmt::format("{}: column \"{}\": expected {}, each once", where,
                                       LineExcerpt(n), kHeader));
        seen[static_cast<int>(v->figure)] = true;
        values.push_back(*v);
      }
      if (!b || !p || !o || values.empty())
        throw InputError(fmt::format("{}: expected {}, got \"{}\"", where, kHeader,
                                     LineExcerpt(line)));
      batch = *b, prompt = *p, output = *o;
      return;
    }
    if (fields.size() != names.size())
      throw InputError(fmt::format("{}: expected {} cells as the header has, got {}", where,
                                   names.size(), fields.size()));
    auto integer = [&](std::size_t i, std::uint64_t min, std::uint64_t max) {
      std::uint64_t x = 0;
      const std::string_view cell = fields[i];
      const auto [e, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
      if (ec != std::errc() || e != cell.data() + cell.size() || cell.empty() || x < min || x > max)
        throw InputError(fmt::format("{}: {}: expected an integer from {} to {}, got \"{}\"", where,
                                     names[i], min, max, LineExcerpt(cell)));
      return x;
    };
    const std::uint64_t b = integer(batch, 1, kMaxFitBatch);
    const std::uint64_t p = integer(prompt, 1, kMaxFitInputTokens);
    const std::uint64_t o = integer(output, 1, kMaxFitOutputTokens);
    ++rows;
    for (const ValueColumn& v : values) {
      const std::string_view cell = fields[v.index];
      if (cell.empty()) continue;
      double x = 0.0;
      const auto [e, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
      if (ec != std::errc() || e != cell.data() + cell.size() || !std::isfinite(x) || !(x > 0.0))
        throw InputError(fmt::format("{}: {}: expected a time > 0 or an empty cell, got \"{}\"",
                                     where, names[v.index], LineExcerpt(cell)));
      if (v.figure == MeasuredFigure::kTpot && o < 2)
        throw InputError(fmt::format("{}: {}: expected output_tokens >= 2 for a time per output "
                                     "token, got {}", where, names[v.index], o));
      Measurement m{.figure = v.figure, .batch = b, .input_tokens = p, .output_tokens = o,
                    .value_us = x * v.scale, .where = where};
      CheckMeasurementLimits(m);
      file.points.push_back(std::move(m));
    }
  });
  if (names.empty()) throw InputError(fmt::format("{}: expected {}, got an empty file", path, kHeader));
  file.summary = fmt::format("{} measurements in {} rows", file.points.size(), rows);
  return file;
}

}  // namespace lbsim
