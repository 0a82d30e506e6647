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
  sax_.builder.Reset();
  sax_.error.clear();
  if (nlohmann::json::sax_parse(line.begin(), line.end(), &sax_)) return true;
  if (sax_.error.empty())  // a builder callback refused: the nesting limit
    error_ = fmt::format("nesting deeper than the limit of {} levels", kMaxNestingDepth);
  else
    error_ = fmt::format("invalid JSON at column {}: {}", sax_.error_position,
                         ParseErrorDetail(sax_.error));
  return false;
}

}  // namespace lbsim
