#pragma once

// Explains why text the JsonScanner rejected is not JSON, in the words and
// positions lbsim has always used (nlohmann::json's parser messages). Only
// error paths call these, so their speed does not matter.

#include <cstdio>
#include <string>
#include <string_view>

namespace lbsim {

// "invalid JSON at column N: DETAIL" for one JSON Lines line.
std::string DescribeLineSyntaxError(std::string_view line);

// "LINE:COLUMN: invalid JSON: DETAIL" (or "invalid JSON: DETAIL" when the
// parser gives no position) for the JSON document in `file`, read again from
// its start.
std::string DescribeDocumentSyntaxError(std::FILE* file);

}  // namespace lbsim
