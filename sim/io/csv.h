#pragma once

// RFC 4180 CSV, as lbsim writes and reads it.

#include <string>
#include <string_view>
#include <vector>

namespace lbsim {

// `s` as one CSV field, made Printable (so no control character, line
// break or bidi override reaches a cell), prefixed with ' when a
// spreadsheet would run it as a formula (it starts with = + - or @ and is
// not a number), then quoted (quotes doubled) only when it needs it.
std::string CsvField(std::string_view s);

// One record of CSV text: its fields (quotes removed) and its exact text,
// line ending included.
struct CsvRecord {
  std::vector<std::string> fields;
  std::string_view text;
};

// Splits `text` into records; a quoted field may hold commas and line
// breaks. Returns false when a quoted field is not closed.
bool SplitCsv(std::string_view text, std::vector<CsvRecord>& records);

}  // namespace lbsim
