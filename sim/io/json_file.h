#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace lbsim {

// Reads the whole JSON file at `path` (a scenario, a report), keeping key
// order and refusing nesting deeper than the trace readers' limit. `what`
// names the kind of file in errors. Throws InputError with one line:
// "PATH: cannot read WHAT: REASON" or "PATH:LINE:COLUMN: invalid JSON: ...".
nlohmann::ordered_json ReadJsonFile(const std::string& path, std::string_view what);

}  // namespace lbsim
