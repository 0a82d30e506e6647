#include "base/json/json_syntax_error.h"

#include <cstdint>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/json/json_line_parser.h"

namespace lbsim {
namespace {

using json = nlohmann::json;

// Accepts every value without keeping it and records the first syntax
// error, so that a whole document can be checked in constant memory.
struct SyntaxErrorSax : nlohmann::json_sax<json> {
  std::string what;
  std::size_t position = 0;  // bytes read when the error showed
  bool failed = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    what = ex.what();
    position = at;
    failed = true;
    return false;
  }
};

[[noreturn]] void Disagree() {
  throw std::logic_error("the JSON scanner rejected text that nlohmann::json accepts");
}

}  // namespace

std::string DescribeLineSyntaxError(std::string_view line) {
  JsonLineParser parser;
  if (parser.Parse(line)) Disagree();
  return parser.error();
}

namespace {

// Where the first NUL byte of `file` is (offset, line and column), if any.
struct NulByte {
  std::uint64_t offset = 0, line = 1, column = 1;
};
std::optional<NulByte> FirstNulByte(std::FILE* file) {
  std::rewind(file);
  NulByte at;
  char chunk[1 << 16];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;) {
    for (std::size_t i = 0; i < n; ++i, ++at.offset) {
      if (chunk[i] == '\0') return at;
      if (chunk[i] == '\n') ++at.line, at.column = 1;
      else ++at.column;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string DescribeDocumentSyntaxError(std::FILE* file) {
  // nlohmann's parser takes a NUL byte for the end of the input: the error
  // is the NUL, unless the parser finds one before it.
  const std::optional<NulByte> nul = FirstNulByte(file);
  std::rewind(file);
  SyntaxErrorSax sax;
  json::sax_parse(file, &sax);
  if (nul && (!sax.failed || sax.position == 0 || sax.position - 1 >= nul->offset))
    return fmt::format("{}:{}: invalid JSON: a NUL byte (JSON text holds none)", nul->line,
                       nul->column);
  if (!sax.failed) Disagree();
  return ParseErrorWithPosition(sax.what);
}

std::string ParseErrorDetail(const std::string& what) {
  // nlohmann messages read "[json.exception.ID] parse error at line 1,
  // column 5: DETAIL" or, without a position, "[json.exception.ID] DETAIL".
  std::string detail = what;
  std::size_t column = what.find("column ");
  std::size_t colon = column == std::string::npos ? column : what.find(": ", column);
  std::size_t id_end = what.starts_with("[json.exception.") ? what.find("] ") : std::string::npos;
  if (colon != std::string::npos) detail = what.substr(colon + 2);
  else if (id_end != std::string::npos) detail = what.substr(id_end + 2);
  if (detail.size() > 160) detail = detail.substr(0, 157) + "...";
  return detail;  // control characters are escaped where the message is printed
}

std::string ParseErrorWithPosition(const std::string& what, const std::string& location) {
  unsigned long line = 0, column = 0;
  std::size_t at = what.find("at line ");
  if (at != std::string::npos &&
      std::sscanf(what.c_str() + at, "at line %lu, column %lu", &line, &column) == 2)
    return fmt::format("{}:{}: invalid JSON: {}", line, column, ParseErrorDetail(what));
  return fmt::format("{}invalid JSON: {}", location, ParseErrorDetail(what));
}

}  // namespace lbsim
