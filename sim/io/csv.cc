#include "sim/io/csv.h"

#include "sim/io/printable.h"

namespace lbsim {

std::string CsvField(std::string_view raw) {
  const std::string s = Printable(raw);  // no control byte reaches a cell
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
