#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traces/importers/request_source.h"
#include "traces/line_source.h"

namespace lbsim {

// Splits one CSV line into `fields`: comma-separated, RFC 4180 quoting
// ("a,b" and "" inside quotes), no line breaks inside a field, a trailing
// '\r' dropped. Throws FieldError for an unterminated or misplaced quote.
void SplitCsvLine(std::string_view line, std::vector<std::string>& fields);

// A RequestSource over a CSV file whose first non-blank line is a header
// naming the columns. The columns a format needs are found by name
// (case-insensitive, any order, other columns ignored); every row must
// have as many fields as the header. Blank lines are skipped.
class CsvRequestSource : public RequestSource {
 public:
  bool Next(SourceRequest& out) final;
  std::uint64_t line() const final { return lines_.number(); }

 protected:
  // `columns`: the names of the columns ParseRow receives, in that order.
  CsvRequestSource(std::FILE* file, std::string display_path, const InputFile* input,
                   std::vector<std::string_view> columns);

  // Fills `out` from the needed fields of one row, given in the order of
  // `columns`; throws FieldError naming the column.
  virtual void ParseRow(std::span<const std::string_view> values,
                        SourceRequest& out) = 0;

  // The token count in `value` (an integer >= 0), or FieldError naming
  // `column`.
  static std::uint64_t TokenCount(std::string_view column, std::string_view value);

  // FieldError "column "NAME": expected WHAT, got "VALUE"".
  [[noreturn]] static void BadValue(std::string_view column, std::string_view expected,
                                    std::string_view value);

 private:
  void ReadHeader();

  LineSource lines_;
  std::vector<std::string_view> columns_;
  std::vector<std::size_t> positions_;  // of `columns_` in a row
  std::size_t header_size_ = 0;
  std::vector<std::string> fields_;
  std::vector<std::string_view> values_;
};

}  // namespace lbsim
