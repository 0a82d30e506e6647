#include "traces/json_line_parser.h"

#include <fmt/format.h>

#include "traces/trace_stream.h"

namespace lbsim {

std::string ShortJson(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

JsonLineParser::JsonLineParser() { sax_.builder.set_max_values(kMaxEventValues); }

bool JsonLineParser::Parse(std::string_view line) {
  sax_.builder.Reset();
  sax_.error.clear();
  if (nlohmann::json::sax_parse(line.begin(), line.end(), &sax_)) return true;
  if (!sax_.builder.limit_error().empty())  // a builder callback refused: a limit
    error_ = sax_.builder.limit_error();
  else
    error_ = fmt::format("invalid JSON at column {}: {}", sax_.error_position,
                         ParseErrorDetail(sax_.error));
  return false;
}

}  // namespace lbsim
