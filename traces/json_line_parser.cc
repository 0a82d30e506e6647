#include "traces/json_line_parser.h"

#include <fmt/format.h>

#include "traces/trace_stream.h"

namespace lbsim {

std::string ShortJson(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

bool JsonLineParser::Parse(std::string_view line) {
  builder_.Reset();
  error_.clear();
  if (nlohmann::json::sax_parse(line.begin(), line.end(), this)) return true;
  if (error_.empty())  // a builder callback refused: the nesting limit
    error_ = fmt::format("nesting deeper than the limit of {} levels", kMaxNestingDepth);
  return false;
}

bool JsonLineParser::parse_error(std::size_t position, const std::string&,
                                 const nlohmann::detail::exception& ex) {
  error_ = fmt::format("invalid JSON at column {}: {}", position,
                       ParseErrorDetail(ex.what()));
  return false;
}

}  // namespace lbsim
