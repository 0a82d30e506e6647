// Joins the slices that the shards of one sweep wrote.

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/io/csv.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;
using Slice = std::pair<std::string, std::string>;

[[noreturn]] void Bad(const std::string& slice, const std::string& what) {
  throw InputError(fmt::format("{}: {}", slice, what));
}

// Checks that `present` (keyed by cell) holds every cell of a `cells`-cell sweep.
template <typename Row>
void CheckComplete(const std::map<std::size_t, Row>& present, std::size_t cells) {
  if (present.size() == cells) return;
  std::size_t missing = 0;
  while (present.count(missing)) ++missing;
  throw InputError(fmt::format(
      "sweep merge: {} of {} cells are missing (the first is cell {}); is a shard's slice "
      "missing?",
      cells - present.size(), cells, missing));
}

bool ParseIndex(const std::string& text, std::size_t& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

std::string MergeCsv(const std::vector<Slice>& slices) {
  std::string header;
  std::size_t cells = 0;
  std::string sweep;  // the sweep id of the first row
  std::map<std::size_t, std::string> rows;  // cell -> record text
  for (const auto& [name, content] : slices) {
    std::vector<CsvRecord> records;
    if (!SplitCsv(content, records) || records.empty() || records[0].fields.empty() ||
        records[0].fields[0] != "cell")
      Bad(name, "not a sweep CSV (expected a header row starting with \"cell,cells\")");
    if (header.empty()) header = records[0].text;
    else if (records[0].text != header)
      Bad(name, "its header differs from the first slice's: not the same sweep");
    for (std::size_t r = 1; r < records.size(); ++r) {
      const CsvRecord& record = records[r];
      std::size_t cell = 0, of = 0;
      if (record.fields.size() < 2 || !ParseIndex(record.fields[0], cell) ||
          !ParseIndex(record.fields[1], of) || cell >= of)
        Bad(name, fmt::format("row {}: expected a cell number and the sweep's cell count", r + 1));
      if (cells == 0) cells = of;
      if (of != cells)
        Bad(name, fmt::format("row {}: a sweep of {} cells, not {}: not the same sweep", r + 1,
                              of, cells));
      // The sweep id (third column): slices of another grid with the same
      // columns and cell count are not this sweep.
      if (record.fields.size() > 2 && records[0].fields.size() > 2 &&
          records[0].fields[2] == "sweep") {
        if (sweep.empty()) sweep = record.fields[2];
        else if (record.fields[2] != sweep)
          Bad(name, fmt::format("row {}: sweep {}, not {}: not the same sweep", r + 1,
                                record.fields[2], sweep));
      }
      if (!rows.emplace(cell, std::string(record.text)).second)
        Bad(name, fmt::format("cell {} appears in more than one slice", cell));
    }
  }
  if (cells == 0 && !slices.empty()) return header;  // a sweep without cells
  CheckComplete(rows, cells);
  std::string out = header;
  for (const auto& [cell, text] : rows) out += text;
  return out;
}

std::string MergeJson(const std::vector<Slice>& slices) {
  ojson grid;
  ojson sweep;
  std::size_t cells = 0;
  std::map<std::size_t, ojson> rows;
  for (const auto& [name, content] : slices) {
    ojson doc = ojson::parse(content, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("lbsim_sweep", 0) != 1 ||
        !doc.contains("grid") || !doc.contains("cells") || !doc["cells"].is_number_unsigned() ||
        !doc.contains("results") || !doc["results"].is_array())
      Bad(name, "not a sweep JSON document (expected \"lbsim_sweep\": 1 with grid, cells and results)");
    if (grid.is_null()) {
      grid = doc["grid"];
      sweep = doc.value("sweep", ojson(nullptr));
      cells = doc["cells"].get<std::size_t>();
    } else if (doc["grid"] != grid || doc["cells"].get<std::size_t>() != cells ||
               doc.value("sweep", ojson(nullptr)) != sweep) {
      Bad(name, "its grid differs from the first slice's: not the same sweep");
    }
    for (ojson& row : doc["results"]) {
      if (!row.is_object() || !row.contains("cell") || !row["cell"].is_number_unsigned() ||
          row["cell"].get<std::size_t>() >= cells)
        Bad(name, "a result without a valid \"cell\" number");
      std::size_t cell = row["cell"].get<std::size_t>();
      if (!rows.emplace(cell, std::move(row)).second)
        Bad(name, fmt::format("cell {} appears in more than one slice", cell));
    }
  }
  CheckComplete(rows, cells);
  ojson out;
  out["lbsim_sweep"] = 1;
  out["sweep"] = sweep;
  out["grid"] = grid;
  out["cells"] = cells;
  ojson results = ojson::array();
  for (auto& [cell, row] : rows) results.push_back(std::move(row));
  out["results"] = std::move(results);
  return out.dump(2) + "\n";
}

bool LooksLikeJson(const std::string& content) {
  std::size_t first = content.find_first_not_of(" \t\r\n");
  return first != std::string::npos && content[first] == '{';
}

}  // namespace

std::string MergeSweepSlices(const std::vector<Slice>& slices) {
  if (slices.empty()) throw UsageError("merge: no slice given");
  const bool json = LooksLikeJson(slices.front().second);
  for (const auto& [name, content] : slices)
    if (LooksLikeJson(content) != json)
      Bad(name, json ? "CSV, but the first slice is JSON" : "JSON, but the first slice is CSV");
  return json ? MergeJson(slices) : MergeCsv(slices);
}

}  // namespace lbsim
