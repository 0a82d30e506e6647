#pragma once

// Builds one nlohmann::json value from SAX events, refusing nesting deeper
// than kMaxNestingDepth and, when asked, more than a number of values. Used
// by the trace readers and for scenario and report files, so that a hostile
// input cannot exhaust the stack or memory through nesting, nor through
// many small values (a DOM node costs far more than the text "0," that
// makes it).

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "traces/trace_reader.h"

namespace lbsim {

// `Json` is nlohmann::json or nlohmann::ordered_json (keeps key order).
template <typename Json>
class BasicJsonValueBuilder {
 public:
  using json = Json;

  // Starts a new value; the previous one is discarded.
  void Reset() {
    root_ = json();
    stack_.clear();
    has_key_ = false;
    done_ = false;
    values_ = 0;
    too_deep_ = false;
    limit_error_.clear();
  }
  // Refuses values with more than `n` JSON values (unlimited by default).
  void set_max_values(std::size_t n) { max_values_ = n; }
  bool done() const { return done_; }
  json& value() { return root_; }
  int depth() const { return static_cast<int>(stack_.size()); }
  bool too_deep() const { return too_deep_; }
  // Why the builder refused the value (a limit), or empty.
  const std::string& limit_error() const { return limit_error_; }

  bool Scalar(json v) {
    if (!Count()) return false;
    Place(std::move(v));
    return true;
  }
  bool StartContainer(json empty) {
    if (stack_.size() >= kMaxNestingDepth) {
      too_deep_ = true;
      limit_error_ = fmt::format("nesting deeper than the limit of {} levels", kMaxNestingDepth);
      return false;
    }
    if (!Count()) return false;
    json* slot = Place(std::move(empty));
    stack_.push_back(slot);
    done_ = false;
    return true;
  }
  bool Key(std::string& key) {
    key_ = std::move(key);
    has_key_ = true;
    return true;
  }
  bool EndContainer() {
    stack_.pop_back();
    if (stack_.empty()) done_ = true;
    return true;
  }

 private:
  bool Count() {
    if (++values_ <= max_values_) return true;
    limit_error_ = fmt::format("more than the limit of {} JSON values", max_values_);
    return false;
  }

  // Puts `v` where the parser is: the root, the end of an array, or under
  // the pending key of an object (a repeated key keeps the last value).
  json* Place(json v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      done_ = true;
      return &root_;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    json& slot = parent[key_];
    slot = std::move(v);
    has_key_ = false;
    return &slot;
  }

  json root_;
  std::vector<json*> stack_;
  std::string key_;
  bool has_key_ = false;
  bool done_ = false;
  bool too_deep_ = false;
  std::size_t values_ = 0;
  std::size_t max_values_ = std::numeric_limits<std::size_t>::max();
  std::string limit_error_;
};

using JsonValueBuilder = BasicJsonValueBuilder<nlohmann::json>;

// A nlohmann SAX handler that builds one whole value with a builder and
// keeps the parse error, if any, for the caller to word.
template <typename Json>
struct BoundedJsonSax {
  using json = Json;
  BasicJsonValueBuilder<Json> builder;
  std::string error;              // the parser's exception text
  std::size_t error_position = 0;  // byte offset of the error

  bool null() { return builder.Scalar(nullptr); }
  bool boolean(bool v) { return builder.Scalar(v); }
  bool number_integer(typename json::number_integer_t v) { return builder.Scalar(v); }
  bool number_unsigned(typename json::number_unsigned_t v) { return builder.Scalar(v); }
  bool number_float(typename json::number_float_t v, const std::string&) {
    return builder.Scalar(v);
  }
  bool string(std::string& v) { return builder.Scalar(std::move(v)); }
  bool binary(typename json::binary_t&) { return false; }
  bool start_object(std::size_t) { return builder.StartContainer(json::object()); }
  bool key(std::string& k) { return builder.Key(k); }
  bool end_object() { return builder.EndContainer(); }
  bool start_array(std::size_t) { return builder.StartContainer(json::array()); }
  bool end_array() { return builder.EndContainer(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) {
    error = ex.what();
    error_position = position;
    return false;
  }
};

}  // namespace lbsim
