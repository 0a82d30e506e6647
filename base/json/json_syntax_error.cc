#include "base/json/json_syntax_error.h"

#include <algorithm>
#include <cstdint>
#include <istream>
#include <streambuf>
#include <utility>
#include <vector>
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

namespace {

// The bytes of a file with every run of JSON whitespace cut to its first
// kKeep bytes. nlohmann's lexer keeps the characters it skips until the
// next string or number, so a long run would cost memory and time; no
// error or message depends on a run's bytes past the first few.
class SqueezedWhitespace : public std::streambuf {
 public:
  static constexpr std::size_t kKeep = 4096;

  explicit SqueezedWhitespace(std::FILE* file) : file_(file) {}

  // The bytes dropped before the first `kept` bytes handed out.
  std::uint64_t DroppedBefore(std::uint64_t kept) const {
    std::uint64_t dropped = 0;
    for (const auto& [at, total] : cuts_) {
      if (at > kept) break;
      dropped = total;
    }
    return dropped;
  }

 protected:
  int_type underflow() override {
    std::size_t n = 0;
    while (n == 0) {
      const std::size_t got = std::fread(in_, 1, sizeof in_, file_);
      if (got == 0) return traits_type::eof();
      for (std::size_t i = 0; i < got; ++i) {
        const char c = in_[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
          if (++run_ > kKeep) {
            if (run_ == kKeep + 1) cuts_.emplace_back(kept_ + n, dropped_);
            cuts_.back().second = ++dropped_;
            continue;
          }
        } else {
          run_ = 0;
        }
        out_[n++] = c;
      }
    }
    kept_ += n;
    setg(out_, out_, out_ + n);
    return traits_type::to_int_type(out_[0]);
  }

 private:
  std::FILE* file_;
  char in_[1 << 16];
  char out_[1 << 16];
  std::size_t run_ = 0;        // whitespace bytes in a row so far
  std::uint64_t kept_ = 0;     // bytes handed out before this buffer
  std::uint64_t dropped_ = 0;  // bytes dropped so far
  // Per cut run: the kept bytes before it, and the bytes dropped up to its end.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cuts_;
};

// nlohmann's "at line L, column C" for the first `total` bytes of `file`,
// counted as its lexer counts them.
std::pair<std::uint64_t, std::uint64_t> LineAndColumn(std::FILE* file, std::uint64_t total) {
  std::rewind(file);
  std::uint64_t lines = 0, column = 0;
  char chunk[1 << 16];
  for (std::size_t n; total > 0; total -= n) {
    n = std::fread(chunk, 1, std::min<std::uint64_t>(sizeof chunk, total), file);
    if (n == 0) break;
    for (std::size_t i = 0; i < n; ++i) {
      ++column;
      if (chunk[i] == '\n') ++lines, column = 0;
    }
  }
  // The lexer counts the end of the input as a character too.
  return {lines + 1, column + total};
}

}  // namespace

std::string DescribeDocumentSyntaxError(std::FILE* file) {
  // nlohmann's parser takes a NUL byte for the end of the input: the error
  // is the NUL, unless the parser finds one before it.
  const std::optional<NulByte> nul = FirstNulByte(file);
  std::rewind(file);
  SyntaxErrorSax sax;
  SqueezedWhitespace squeezed(file);
  std::istream in(&squeezed);
  json::sax_parse(in, &sax);
  // Positions in the file: the parser's plus the whitespace cut before them.
  const std::uint64_t dropped = squeezed.DroppedBefore(sax.position);
  if (nul && (!sax.failed || sax.position == 0 || sax.position + dropped - 1 >= nul->offset))
    return fmt::format("{}:{}: invalid JSON: a NUL byte (JSON text holds none)", nul->line,
                       nul->column);
  if (!sax.failed) Disagree();
  if (dropped == 0) return ParseErrorWithPosition(sax.what);
  const auto [line, column] = LineAndColumn(file, sax.position + dropped);
  return fmt::format("{}:{}: invalid JSON: {}", line, column, ParseErrorDetail(sax.what));
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
