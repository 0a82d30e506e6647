#include "traces/importers/csv_source.h"

#include <cctype>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "traces/importers/field_text.h"
#include "base/errors.h"
#include "base/input/text_file.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

bool SameName(std::string_view a, std::string_view b) {
  a = TrimBlanks(a);
  b = TrimBlanks(b);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::string Joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ',';
    out += n;
  }
  return out;
}

// A value shortened for an error message (whose control characters are
// escaped where it is printed).
std::string Shown(std::string_view value) {
  std::string text(value.substr(0, 40));
  if (value.size() > 40) text.replace(37, 3, "...");
  return text;
}

}  // namespace

void SplitCsvLine(std::string_view line, std::vector<std::string>& fields) {
  if (const void* nul = std::memchr(line.data(), '\0', line.size()))
    throw FieldError(fmt::format(
        "a NUL byte at column {} (a CSV file is text and holds none; is this a binary file?)",
        static_cast<const char*>(nul) - line.data() + 1));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  fields.clear();
  fields.emplace_back();
  bool quoted = false;     // inside a quoted field
  bool was_quoted = false; // the current field was quoted and has closed
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = false;
        was_quoted = true;
      }
    } else if (c == ',') {
      fields.emplace_back();
      was_quoted = false;
    } else if (c == '"' && fields.back().empty() && !was_quoted) {
      quoted = true;
    } else if (was_quoted || c == '"') {
      throw FieldError(fmt::format(
          "field {}: a quote may only enclose a whole field", fields.size()));
    } else {
      fields.back() += c;
    }
  }
  if (quoted)
    throw FieldError(fmt::format("field {}: quoted field is not closed on this line",
                                 fields.size()));
}

CsvRequestSource::CsvRequestSource(std::FILE* file, std::string display_path,
                                   const InputFile* input, std::vector<std::string_view> columns)
    : lines_(file, std::move(display_path), input), columns_(std::move(columns)) {}

void CsvRequestSource::BadValue(std::string_view column, std::string_view expected,
                                std::string_view value) {
  throw FieldError(fmt::format("column \"{}\": expected {}, got \"{}\"", column,
                               expected, Shown(value)));
}

std::uint64_t CsvRequestSource::TokenCount(std::string_view column, std::string_view value) {
  std::optional<std::uint64_t> n = ParseCount(value);
  if (!n) BadValue(column, "an integer >= 0", value);
  return *n;
}

void CsvRequestSource::ReadHeader() {
  const std::string& path = lines_.display_path();
  std::string_view line;
  do {
    if (!lines_.Next(line))
      throw InputError(fmt::format("{}: empty file: expected a CSV header line with the "
                                   "columns {}", path, Joined(columns_)));
  } while (IsBlank(line));
  if (lines_.number() == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
    line.remove_prefix(3);  // a UTF-8 byte order mark
  if (lines_.number() == 1) {
    const std::string wide = WideTextMessage(line);
    if (!wide.empty()) throw InputError(fmt::format("{}: {}", path, wide));
  }
  try {
    SplitCsvLine(line, fields_);
  } catch (const FieldError& e) {
    throw InputError(fmt::format("{}:{}: header: {}", path, lines_.number(), e.what()));
  }
  header_size_ = fields_.size();
  for (std::string_view name : columns_) {
    std::size_t i = 0;
    while (i < fields_.size() && !SameName(fields_[i], name)) ++i;
    if (i == fields_.size())
      throw InputError(fmt::format(
          "{}:{}: header: expected a column \"{}\" (needed: {}), got \"{}\"", path,
          lines_.number(), name, Joined(columns_), Shown(line)));
    positions_.push_back(i);
  }
}

bool CsvRequestSource::Next(SourceRequest& out) {
  if (positions_.empty()) ReadHeader();
  std::string_view line;
  do {
    if (!lines_.Next(line)) return false;
  } while (IsBlank(line));
  SplitCsvLine(line, fields_);
  if (fields_.size() != header_size_)
    throw FieldError(fmt::format("expected {} fields as in the header, got {}",
                                 header_size_, fields_.size()));
  values_.clear();
  for (std::size_t p : positions_) values_.push_back(fields_[p]);
  out = SourceRequest{};
  ParseRow(values_, out);
  return true;
}

}  // namespace lbsim
