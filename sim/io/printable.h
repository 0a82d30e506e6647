#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// `text` made safe to print on one terminal line: control characters
// (C0, DEL and C1) become escapes (\n, \t, \u001b, \u009b), so do format
// characters (bidi overrides and isolates such as U+202E and U+2066,
// zero-width characters, U+FEFF) and the line and paragraph separators
// (\u202e, \U000e0001), and bytes that are not part of valid UTF-8 become
// \xNN; everything else, including valid non-ASCII text, is kept. Used for
// everything a terminal or a CI log shows of hostile input: error
// messages, the table report, check and diff results, JUnit messages, CSV
// cells.
std::string Printable(std::string_view text);

}  // namespace lbsim
