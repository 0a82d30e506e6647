// Joins the slices that the shards of one sweep wrote.

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/io/csv.h"
#include "sim/io/json_file.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;
using Slice = std::pair<std::string, std::string>;

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

[[noreturn]] void Bad(const std::string& slice, const std::string& what) {
  throw InputError(fmt::format("{}: {}", slice, what));
}

// Checks that `present` (keyed by cell) holds every cell of a `cells`-cell sweep.
template <typename Row>
void CheckComplete(const std::map<std::size_t, Row>& present, std::size_t cells) {
  if (cells == 0)
    throw InputError(
        "sweep merge: no slice holds a row, so none says how many cells the sweep has; give "
        "the slices of the shards that ran cells");
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

// A sweep's cell count, as a slice states it: at most kMaxSweepCells.
std::size_t CellCount(const std::string& slice, std::size_t cells, std::string_view where) {
  if (cells > kMaxSweepCells)
    Bad(slice, fmt::format("{}: a sweep of {} cells, more than lbsim sweeps (at most {})", where,
                           cells, kMaxSweepCells));
  return cells;
}

// Whether `text` holds a control character other than the line end of a
// record: lbsim writes none into a CSV cell.
bool HasControl(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b < 0x20 || b == 0x7F;
  });
}

std::string MergeCsv(const std::vector<Slice>& slices) {
  constexpr std::string_view kExpected =
      "not a sweep CSV slice (expected a header row \"cell,cells,sweep,...\" as lbsim sweep "
      "writes it)";
  std::string header;
  std::string fingerprint;  // of the first row's sweep
  std::string fingerprint_from;
  std::size_t cells = 0;
  std::map<std::size_t, std::string> rows;  // cell -> record text
  for (const auto& [name, content] : slices) {
    std::vector<CsvRecord> records;
    if (!SplitCsv(content, records) || records.empty() || records[0].fields.size() < 3 ||
        records[0].fields[0] != "cell" || records[0].fields[1] != "cells" ||
        records[0].fields[2] != "sweep" || HasControl(records[0].text))
      Bad(name, std::string(kExpected));
    if (header.empty()) header = records[0].text;
    else if (records[0].text != header)
      Bad(name, "its header differs from the first slice's: not the same sweep");
    const std::size_t columns = records[0].fields.size();
    for (std::size_t r = 1; r < records.size(); ++r) {
      const CsvRecord& record = records[r];
      const std::string where = fmt::format("row {}", r + 1);
      if (HasControl(record.text))
        Bad(name, fmt::format("{}: a control character, which lbsim never writes in a cell",
                              where));
      std::size_t cell = 0, of = 0;
      if (record.fields.size() != columns || !ParseIndex(record.fields[0], cell) ||
          !ParseIndex(record.fields[1], of) || cell >= of)
        Bad(name, fmt::format("{}: expected {} fields starting with a cell number and the "
                              "sweep's cell count",
                              where, columns));
      CellCount(name, of, where);
      // The sweep's fingerprint (third column): slices of another grid with
      // the same columns and cell count are not this sweep.
      if (fingerprint.empty()) {
        fingerprint = record.fields[2];
        fingerprint_from = name;
        cells = of;
      }
      if (record.fields[2] != fingerprint)
        Bad(name, fmt::format("{}: a row of sweep {}, but {} is of sweep {}: not the same sweep "
                              "(other traces, strategies, values, seeds, options or Proxy)",
                              where, record.fields[2], fingerprint_from, fingerprint));
      if (of != cells)
        Bad(name, fmt::format("{}: a sweep of {} cells, not {}: not the same sweep", where, of,
                              cells));
      if (!rows.emplace(cell, std::string(record.text)).second)
        Bad(name, fmt::format("cell {} appears in more than one slice", cell));
    }
  }
  CheckComplete(rows, cells);
  std::string out = header;
  for (const auto& [cell, text] : rows) out += text;
  return out;
}

// `text` (JSON as dump(2) writes it) indented by `spaces` more on every
// line: JSON strings hold no raw line break, so this is what dump(2)
// writes for the value nested that much deeper.
std::string Indented(const std::string& text, std::size_t spaces) {
  const std::string pad(spaces, ' ');
  std::string out = pad;
  for (char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

std::string MergeJson(const std::vector<Slice>& slices) {
  ojson grid;
  ojson sweep;
  std::size_t cells = 0;
  std::map<std::size_t, std::string> rows;  // cell -> the row as dump(2) writes it
  for (const auto& [name, content] : slices) {
    ojson doc = ParseJsonFile(name, content, kMaxSliceValues);
    if (!doc.is_object() || doc.value("lbsim_sweep", 0) != 1 || !doc.contains("grid") ||
        !doc.contains("cells") || !doc["cells"].is_number_unsigned() ||
        !doc.contains("results") || !doc["results"].is_array())
      Bad(name, "not a sweep JSON document (expected \"lbsim_sweep\": 1 with grid, cells and results)");
    const std::size_t slice_cells = CellCount(name, doc["cells"].get<std::size_t>(), "cells");
    if (grid.is_null()) {
      grid = doc["grid"];
      sweep = doc.value("sweep", ojson(nullptr));
      cells = slice_cells;
    } else if (doc["grid"] != grid || slice_cells != cells ||
               doc.value("sweep", ojson(nullptr)) != sweep) {
      Bad(name, "its grid differs from the first slice's: not the same sweep");
    }
    for (const ojson& row : doc["results"]) {
      if (!row.is_object() || !row.contains("cell") || !row["cell"].is_number_unsigned() ||
          row["cell"].get<std::size_t>() >= cells)
        Bad(name, "a result without a valid \"cell\" number");
      std::size_t cell = row["cell"].get<std::size_t>();
      if (!rows.emplace(cell, row.dump(2)).second)
        Bad(name, fmt::format("cell {} appears in more than one slice", cell));
    }
  }
  CheckComplete(rows, cells);
  ojson out;
  out["lbsim_sweep"] = 1;
  out["sweep"] = sweep;
  out["grid"] = grid;
  out["cells"] = cells;
  out["results"] = ojson::array();
  // What dump(2) writes for the whole, the rows nested in "results".
  std::string text = out.dump(2);
  constexpr std::string_view kEmpty = "[]\n}";
  text.resize(text.size() - kEmpty.size());
  text += "[\n";
  bool first = true;
  for (const auto& [cell, row] : rows) {
    if (!first) text += ",\n";
    first = false;
    text += Indented(row, 4);
  }
  return text + "\n  ]\n}\n";
}

bool LooksLikeJson(std::string_view content) {
  std::size_t first = content.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && content[first] == '{';
}

}  // namespace

std::string MergeSweepSlices(const std::vector<Slice>& given) {
  if (given.empty()) throw UsageError("merge: no slice given");
  // A byte order mark (a slice saved by a spreadsheet) is not content.
  std::vector<Slice> slices = given;
  for (auto& [name, content] : slices)
    if (std::string_view(content).starts_with(kByteOrderMark)) content.erase(0, kByteOrderMark.size());
  const bool json = LooksLikeJson(slices.front().second);
  for (const auto& [name, content] : slices)
    if (LooksLikeJson(content) != json)
      Bad(name, json ? "CSV, but the first slice is JSON" : "JSON, but the first slice is CSV");
  return json ? MergeJson(slices) : MergeCsv(slices);
}

}  // namespace lbsim
