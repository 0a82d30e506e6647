#pragma once

// Parses one line of JSON into a nlohmann value through a SAX builder that
// refuses nesting deeper than kMaxNestingDepth and more than kMaxEventValues
// values, so that a hostile line can exhaust neither the stack nor memory. Only files that parse JSON lines
// include this header (it pulls in nlohmann/json.hpp).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "traces/json_value_builder.h"

namespace lbsim {

// `value` as compact JSON for an error message, cut to about 40 characters.
std::string ShortJson(const nlohmann::json& value);

class JsonLineParser {
 public:
  JsonLineParser();

  // Parses `line`. On failure returns false and error() says why in one
  // phrase: "invalid JSON at column N: ..." or the limit it went past.
  bool Parse(std::string_view line);

  // The value of the last successful Parse.
  nlohmann::json& value() { return sax_.builder.value(); }
  const std::string& error() const { return error_; }

 private:
  BoundedJsonSax<nlohmann::json> sax_;
  std::string error_;
};

}  // namespace lbsim
