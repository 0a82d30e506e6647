#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// `text` made safe to print on one terminal line: control characters
// (C0, DEL and C1) become escapes (\n, \t, \u001b, \u009b) and bytes that
// are not part of valid UTF-8 become \xNN; everything else, including valid
// non-ASCII text, is kept. Used for error messages and the table report,
// which show text taken from hostile input.
std::string Printable(std::string_view text);

}  // namespace lbsim
