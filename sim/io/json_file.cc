#include "sim/io/json_file.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/json/json_line_parser.h"
#include "base/input/text_file.h"

namespace lbsim {

nlohmann::ordered_json ReadJsonFile(const std::string& path, std::string_view what,
                                    std::size_t max_bytes, std::size_t max_values) {
  return ParseJsonFile(path, ReadTextFile(path, what, max_bytes), max_values);
}

nlohmann::ordered_json ParseJsonFile(const std::string& path, std::string_view text,
                                     std::size_t max_values) {
  nlohmann::ordered_json value;
  JsonTextError error;
  if (ParseBoundedJson(text, max_values, value, error)) return value;
  const std::string wide = WideTextMessage(text);
  if (!wide.empty()) throw InputError(fmt::format("{}: {}", path, wide));
  std::string message = DescribeJsonTextError(text, error);
  // "LINE:COLUMN: ..." joins the path without a space, like a compiler.
  const bool positioned = !message.empty() && message[0] >= '0' && message[0] <= '9';
  throw InputError(fmt::format("{}:{}{}", path, positioned ? "" : " ", message));
}

}  // namespace lbsim
