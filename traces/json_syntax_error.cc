#include "traces/json_syntax_error.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "traces/json_line_parser.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

using json = nlohmann::json;

// Accepts every value without keeping it and records the first syntax
// error, so that a whole document can be checked in constant memory.
struct SyntaxErrorSax : nlohmann::json_sax<json> {
  std::string what;
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
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    what = ex.what();
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

std::string DescribeDocumentSyntaxError(std::FILE* file) {
  std::rewind(file);
  SyntaxErrorSax sax;
  json::sax_parse(file, &sax);
  if (!sax.failed) Disagree();
  return ParseErrorWithPosition(sax.what);
}

}  // namespace lbsim
