#pragma once

// Explains why text the JsonScanner rejected is not JSON, in the words and
// positions lbsim has always used (nlohmann::json's parser messages). Only
// error paths call these, so their speed does not matter.

#include <cstdio>
#include <string>
#include <string_view>

namespace lbsim {

// Extracts the useful part of a nlohmann parse error message.
std::string ParseErrorDetail(const std::string& what);

// "LINE:COLUMN: invalid JSON: DETAIL" from a nlohmann parse error message;
// errors without a line and column (number overflow) get `location` in
// front of "invalid JSON: DETAIL" instead.
std::string ParseErrorWithPosition(const std::string& what, const std::string& location = "");

// "invalid JSON at column N: DETAIL" for one JSON Lines line.
std::string DescribeLineSyntaxError(std::string_view line);

// "LINE:COLUMN: invalid JSON: DETAIL" (or "invalid JSON: DETAIL" when the
// parser gives no position) for the JSON document in `file`, read again from
// its start.
std::string DescribeDocumentSyntaxError(std::FILE* file);

}  // namespace lbsim
