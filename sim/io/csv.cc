#include "sim/io/csv.h"

#include <charconv>

#include "sim/io/printable.h"

namespace lbsim {

namespace {

// True when a spreadsheet would take the cell for a formula: it starts
// with = + - or @ and is not a plain number such as -1.5.
bool LooksLikeFormula(std::string_view s) {
  if (s.empty() || s.find_first_of("=+-@") != 0) return false;
  double number = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), number);
  return error != std::errc() || end != s.data() + s.size();
}

}  // namespace

std::string CsvField(std::string_view raw) {
  std::string s = Printable(raw);  // no control byte reaches a cell
  if (LooksLikeFormula(s)) s.insert(0, 1, '\'');  // shown as text, not run
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

bool SplitCsv(std::string_view text, std::vector<CsvRecord>& records) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    CsvRecord record;
    std::string field;
    bool quoted = false;
    for (;; ++i) {
      if (i == text.size()) {
        if (quoted) return false;
        record.fields.push_back(std::move(field));
        break;
      }
      char c = text[i];
      if (quoted) {
        if (c != '"') field += c;
        else if (i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
        else quoted = false;
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        record.fields.push_back(std::move(field));
        field.clear();
      } else if (c == '\n' || c == '\r') {
        record.fields.push_back(std::move(field));
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        ++i;
        break;
      } else {
        field += c;
      }
    }
    record.text = text.substr(start, i - start);
    records.push_back(std::move(record));
  }
  return true;
}

}  // namespace lbsim
