#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "base/json/json_limits.h"

namespace lbsim {

// Reads the whole JSON file at `path` (a scenario, a report), keeping key
// order. `what` names the kind of file in errors. Refuses (InputError, one
// line naming the file and, when it has one, the line and column) what
// ReadTextFile refuses (more than `max_bytes`, a NUL byte, UTF-16 text, a
// directory), invalid JSON, nesting deeper than kMaxNestingDepth, more than
// `max_values` values and a key repeated in one object.
nlohmann::ordered_json ReadJsonFile(const std::string& path, std::string_view what,
                                    std::size_t max_bytes = kMaxJsonFileBytes,
                                    std::size_t max_values = kMaxJsonFileValues);

// The same for JSON text already read from the file `path`.
nlohmann::ordered_json ParseJsonFile(const std::string& path, std::string_view text,
                                     std::size_t max_values = kMaxJsonFileValues);

}  // namespace lbsim
