#pragma once

#include <string_view>
#include <vector>

#include "traces/json_view.h"

namespace lbsim {

// The fast path for the common shape of a JSON Lines event: one object
// whose members are all scalars (strings of printable ASCII without
// escapes, numbers without an exponent, true, false, null). When `line`
// is such an object, optionally surrounded by whitespace, sets `value` and
// `members` exactly as JsonScanner::ScanText would and returns true.
// Otherwise returns false without deciding anything: the line may still be
// valid JSON (nested, escaped, non-ASCII, an exponent) or may be invalid,
// and JsonScanner must read it. As for JsonScanner, line.data()[line.size()]
// must be a readable NUL byte.
bool ScanFlatObject(std::string_view line, JsonView& value, std::vector<JsonMember>& members);

}  // namespace lbsim
