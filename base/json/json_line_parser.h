#pragma once

// Parses one line of JSON into a nlohmann value through a SAX builder that
// refuses nesting deeper than kMaxNestingDepth, more than kMaxEventValues
// values, a key repeated in one object and a NUL byte, so that a hostile
// line can exhaust neither the stack nor memory and no value is silently
// dropped. Only files that parse JSON lines include this header (it pulls
// in nlohmann/json.hpp).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/json/json_value_builder.h"

namespace lbsim {

// `value` as compact JSON for an error message, cut to about 40 characters.
std::string ShortJson(const nlohmann::json& value);

// The valid JSON value `text` in nlohmann's compact form; a value nlohmann
// refuses (a number past the double range, which Python reads as inf)
// keeps its own text without the whitespace between tokens.
std::string CompactJson(std::string_view text);

// The valid JSON value `text` as compact JSON for an error message, cut to
// about 40 characters; never throws on a value nlohmann refuses.
std::string ShortJsonText(std::string_view text);

class JsonLineParser {
 public:
  // Parses `line`. On failure returns false and error() says why in one
  // phrase: "invalid JSON at column N: ..." or the limit it went past.
  bool Parse(std::string_view line);

  // The value of the last successful Parse.
  nlohmann::json& value() { return value_; }
  const std::string& error() const { return error_; }

 private:
  nlohmann::json value_;
  std::string error_;
};

// The 1-based line and column (in bytes) of `offset` in `text`.
std::pair<std::size_t, std::size_t> LineAndColumn(std::string_view text, std::size_t offset);

// "LINE:COLUMN: WHAT" for an error ParseBoundedJson found in `text`, a
// whole document ("invalid JSON: DETAIL" when the parser gave no place).
std::string DescribeJsonTextError(std::string_view text, const JsonTextError& error);

}  // namespace lbsim
