#pragma once

// Parses one line of JSON into a nlohmann value through a SAX builder that
// refuses nesting deeper than kMaxNestingDepth, so that a hostile line can
// exhaust neither the stack nor memory. Only files that parse JSON lines
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
  // Parses `line`. On failure returns false and error() says why in one
  // phrase: "invalid JSON at column N: ..." or the nesting limit.
  bool Parse(std::string_view line);

  // The value of the last successful Parse.
  nlohmann::json& value() { return builder_.value(); }
  const std::string& error() const { return error_; }

  // nlohmann SAX interface; forwards to the builder.
  using json = nlohmann::json;
  bool null() { return builder_.Scalar(nullptr); }
  bool boolean(bool v) { return builder_.Scalar(v); }
  bool number_integer(json::number_integer_t v) { return builder_.Scalar(v); }
  bool number_unsigned(json::number_unsigned_t v) { return builder_.Scalar(v); }
  bool number_float(json::number_float_t v, const std::string&) { return builder_.Scalar(v); }
  bool string(std::string& v) { return builder_.Scalar(std::move(v)); }
  bool binary(json::binary_t&) { return false; }
  bool start_object(std::size_t) { return builder_.StartContainer(json::object()); }
  bool key(std::string& k) { return builder_.Key(k); }
  bool end_object() { return builder_.EndContainer(); }
  bool start_array(std::size_t) { return builder_.StartContainer(json::array()); }
  bool end_array() { return builder_.EndContainer(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex);

 private:
  JsonValueBuilder builder_;
  std::string error_;
};

}  // namespace lbsim
