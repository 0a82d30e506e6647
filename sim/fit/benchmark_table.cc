// CacheRoute's benchmark tables (proxy/metrics/): {"ttft_unit" or
// "tpot_unit": "ms", "lengths": [L...], "rows": [{"batch_size": B, "ttft" or
// "tpot": [value per length, or null]}]}. A length counts the tokens the
// engine reads, the chat template's included. A TTFT entry is a batch of B
// requests of L tokens (its slowest request); a TPOT entry is B requests
// decoding at a context of L tokens: the median gap between their tokens,
// one decode step of the batch.

#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/time_units.h"
#include "sim/fit/measurement_files.h"
#include "sim/io/json_file.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

[[noreturn]] void Fail(const std::string& where, std::string_view expected, const ojson* got) {
  throw InputError(fmt::format("{}: expected {}, got {}", where, expected,
                               got ? LineExcerpt(got->dump()) : std::string("nothing (it is missing)")));
}

// An integer from `min` to `max`, or Fail.
std::uint64_t Integer(const ojson* v, const std::string& where, std::uint64_t min,
                      std::uint64_t max) {
  const std::string expected = fmt::format("an integer from {} to {}", min, max);
  if (!v || !v->is_number_integer()) Fail(where, expected, v);
  if (v->is_number_unsigned()) {
    const auto x = v->get<std::uint64_t>();
    if (x >= min && x <= max) return x;
  }
  Fail(where, expected, v);
}

// Refuses a key of `object` not in `keys`.
void OnlyKeys(const ojson& object, const std::string& where, std::initializer_list<std::string_view> keys) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (std::string_view k : keys) known = known || key == k;
    if (!known) {
      std::string list;
      for (std::string_view k : keys) list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
      throw InputError(fmt::format("{}: {}: not a key of the table (expected {})", where,
                                   LineExcerpt(key), list));
    }
  }
}

const ojson* Find(const ojson& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace

MeasurementFile ReadBenchmarkTable(const std::string& path, std::string_view text,
                                   MeasurementFormat format) {
  const bool ttft = format == MeasurementFormat::kTtftTable;
  const std::string figure = ttft ? "ttft" : "tpot";
  const std::string unit_key = figure + "_unit";
  const ojson doc = ParseJsonFile(path, text);
  if (!doc.is_object()) Fail(path, "a JSON object (a benchmark table)", &doc);
  OnlyKeys(doc, path, {unit_key, "lengths", "rows"});

  const ojson* unit = Find(doc, unit_key);
  const double scale = unit && unit->is_string() ? MicrosecondsPer(unit->get<std::string>()) : 0.0;
  if (scale == 0.0) Fail(path + ": " + unit_key, "\"ms\", \"s\" or \"us\"", unit);

  const ojson* lengths = Find(doc, "lengths");
  if (!lengths || !lengths->is_array() || lengths->empty())
    Fail(path + ": lengths", "an array of token counts", lengths);
  std::vector<std::uint64_t> tokens;
  for (std::size_t j = 0; j < lengths->size(); ++j)
    tokens.push_back(Integer(&(*lengths)[j], fmt::format("{}: lengths[{}]", path, j), 1,
                             kMaxFitInputTokens));

  const ojson* rows = Find(doc, "rows");
  if (!rows || !rows->is_array() || rows->empty())
    Fail(path + ": rows", "an array of {\"batch_size\": B, \"" + figure + "\": [...]}", rows);
  MeasurementFile file;
  file.path = path;
  file.format = format;
  std::set<std::uint64_t> batches;
  std::size_t nulls = 0;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const ojson& row = (*rows)[i];
    const std::string where = fmt::format("{}: rows[{}]", path, i);
    if (!row.is_object()) Fail(where, "an object {\"batch_size\": B, \"" + figure + "\": [...]}", &row);
    OnlyKeys(row, where, {"batch_size", figure});
    const std::uint64_t b = Integer(Find(row, "batch_size"), where + ".batch_size", 1, kMaxFitBatch);
    if (!batches.insert(b).second)
      throw InputError(fmt::format("{}.batch_size: expected each batch size once, got {} again", where, b));
    const ojson* values = Find(row, figure);
    if (!values || !values->is_array() || values->size() != tokens.size())
      Fail(where + "." + figure,
           fmt::format("an array of {} values, one per length (a number > 0 or null)", tokens.size()),
           values);
    for (std::size_t j = 0; j < tokens.size(); ++j) {
      const ojson& v = (*values)[j];
      const std::string at = fmt::format("{}.{}[{}]", where, figure, j);
      if (v.is_null()) {
        ++nulls;
        continue;
      }
      if (!v.is_number() || !(std::isfinite(v.get<double>()) && v.get<double>() > 0.0))
        Fail(at, "a time > 0 or null", &v);
      Measurement m{.figure = ttft ? MeasuredFigure::kTtft : MeasuredFigure::kTpot,
                    .batch = b,
                    .input_tokens = tokens[j],
                    .output_tokens = ttft ? 1u : 2u,
                    .value_us = v.get<double>() * scale,
                    .decode_step = !ttft,
                    .where = fmt::format("{} (batch {}, {} tokens)", at, b, tokens[j])};
      CheckMeasurementLimits(m);
      file.points.push_back(std::move(m));
    }
  }
  file.summary = fmt::format("{} {} entries over {} batch sizes and {} lengths{}",
                             file.points.size(), ttft ? "TTFT" : "TPOT", batches.size(),
                             tokens.size(), nulls ? fmt::format(" ({} null)", nulls) : "");
  return file;
}

}  // namespace lbsim
