#include "base/json/json_line_parser.h"

#include <fmt/format.h>

#include "base/json/json_syntax_error.h"

namespace lbsim {

namespace {

// `text` cut to about 40 characters for an error message.
std::string Shorten(std::string text) {
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// `text` without the whitespace between its tokens.
std::string StripTokenSpace(std::string_view text) {
  std::string out;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      out.push_back(c);
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
      out.push_back(c);
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string ShortJson(const nlohmann::json& value) {
  return Shorten(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string CompactJson(std::string_view text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!value.is_discarded())
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return StripTokenSpace(text);
}

std::string ShortJsonText(std::string_view text) { return Shorten(CompactJson(text)); }

bool JsonLineParser::Parse(std::string_view line) {
  JsonTextError e;
  if (ParseBoundedJson(line, kMaxEventValues, value_, e)) return true;
  switch (e.kind) {
    case JsonTextError::Kind::kSyntax:
      error_ = fmt::format("invalid JSON at column {}: {}", e.offset + 1, ParseErrorDetail(e.what));
      break;
    case JsonTextError::Kind::kNul:
      error_ = fmt::format("invalid JSON at column {}: {}", e.offset + 1, e.what);
      break;
    case JsonTextError::Kind::kLimit:
      error_ = e.what;
      break;
  }
  return false;
}

std::pair<std::size_t, std::size_t> LineAndColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return {line, offset - line_start + 1};
}

std::string DescribeJsonTextError(std::string_view text, const JsonTextError& error) {
  if (error.kind == JsonTextError::Kind::kSyntax) return ParseErrorWithPosition(error.what);
  const auto [line, column] = LineAndColumn(text, error.offset);
  return fmt::format("{}:{}: {}", line, column, error.what);
}

}  // namespace lbsim
