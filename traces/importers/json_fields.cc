#include "traces/importers/json_fields.h"

#include <cstdint>

#include <fmt/format.h>

#include "base/json/json_line_parser.h"
#include "traces/trace_reader.h"

namespace lbsim {

const nlohmann::json* Member(const nlohmann::json& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

void BadField(std::string_view field, std::string_view expected, const nlohmann::json* got) {
  if (!got)
    throw FieldError(fmt::format("field \"{}\": expected {}, but it is missing", field,
                                 expected));
  throw FieldError(
      fmt::format("field \"{}\": expected {}, got {}", field, expected, ShortJson(*got)));
}

bool IsCount(const nlohmann::json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
}

}  // namespace lbsim
