#pragma once

// Builds one nlohmann::json value from SAX events, refusing nesting deeper
// than kMaxNestingDepth, a key repeated in one object and, when asked, more
// than a number of values. Used for every JSON lbsim parses into a DOM (scenario,
// report, gen spec and sweep slice files, exec replies, Mooncake rows), so
// that a hostile input can exhaust neither the stack nor memory through
// nesting, nor through many small values (a DOM node costs far more than
// the text "0," that makes it), and so that no reader silently keeps one
// of two values for a key.

#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/json/json_limits.h"

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
  // Why the builder refused the value (a limit, a repeated key), or empty.
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
    std::string name = Where();
    json* slot = Place(std::move(empty));
    if (keys_.size() <= stack_.size()) keys_.resize(stack_.size() + 1);
    keys_[stack_.size()].clear();
    stack_.push_back(Open{slot, std::move(name)});
    done_ = false;
    return true;
  }
  bool Key(std::string& key) {
    if (!keys_[stack_.size() - 1].insert(key).second) {
      limit_error_ = fmt::format("key {} appears twice in the object {}",
                                 json(key).dump(-1, ' ', false, json::error_handler_t::replace),
                                 stack_.back().name.empty() ? "at the top level"
                                                            : "at " + stack_.back().name);
      return false;
    }
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
  struct Open {
    json* container;
    std::string name;  // its path from the root, e.g. "expect[2].strategies"
  };

  bool Count() {
    if (++values_ <= max_values_) return true;
    limit_error_ = fmt::format("more than the limit of {} JSON values", max_values_);
    return false;
  }

  // The path of the value about to be placed ("" for the root).
  std::string Where() const {
    if (stack_.empty()) return "";
    const Open& parent = stack_.back();
    if (parent.container->is_array())
      return fmt::format("{}[{}]", parent.name, parent.container->size());
    return parent.name.empty() ? key_ : parent.name + "." + key_;
  }

  // Puts `v` where the parser is: the root, the end of an array, or under
  // the pending key of an object (new there: Key refused a repeated one).
  json* Place(json v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      done_ = true;
      return &root_;
    }
    json& parent = *stack_.back().container;
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    has_key_ = false;
    if constexpr (std::is_same_v<json, nlohmann::ordered_json>) {
      // ordered_json looks a key up by walking its members: appended
      // directly (Key refused a repeat), an object of n keys costs n, not n^2.
      auto& members =
          static_cast<typename json::object_t::Container&>(parent.template get_ref<typename json::object_t&>());
      members.emplace_back(std::move(key_), std::move(v));
      return &members.back().second;
    } else {
      json& slot = parent[key_];
      slot = std::move(v);
      return &slot;
    }
  }

  json root_;
  std::vector<Open> stack_;
  // The keys seen in each open object, by depth (kept for their buffers).
  std::vector<std::unordered_set<std::string>> keys_;
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

// A pointer into text that counts how far the parser has read, so that an
// error a SAX callback raises can name its place.
class CountingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator() = default;
  CountingIterator(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
  reference operator*() const { return *p_; }
  CountingIterator& operator++() {
    if (++p_ > *furthest_) *furthest_ = p_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) {
    return a.p_ == b.p_;
  }

 private:
  const char* p_ = nullptr;
  const char** furthest_ = nullptr;
};

// Why a JSON text failed to parse, and where.
struct JsonTextError {
  enum class Kind {
    kSyntax,  // not JSON: `what` is nlohmann's parse error message
    kLimit,   // a limit or a repeated key: `what` says which
    kNul,     // a NUL byte
  };
  Kind kind = Kind::kSyntax;
  std::size_t offset = 0;  // byte offset in the text
  std::string what;
};

// Parses `text`, one whole JSON text, into `out` with a BasicJsonValueBuilder
// that refuses more than `max_values` values; also refuses a NUL byte
// (nlohmann's parser would take it as the end of the input and drop what
// follows). On failure returns false and fills `error`.
template <typename Json>
bool ParseBoundedJson(std::string_view text, std::size_t max_values, Json& out,
                      JsonTextError& error) {
  if (const void* nul = std::memchr(text.data(), '\0', text.size())) {
    // The first error in the text: one before the NUL, or the NUL.
    const auto at = static_cast<std::size_t>(static_cast<const char*>(nul) - text.data());
    if (!ParseBoundedJson(text.substr(0, at), max_values, out, error) && error.offset < at)
      return false;
    error = {JsonTextError::Kind::kNul, at, "a NUL byte (JSON text holds none)"};
    return false;
  }
  BoundedJsonSax<Json> sax;
  sax.builder.set_max_values(max_values);
  const char* furthest = text.data();
  if (Json::sax_parse(CountingIterator(text.data(), &furthest),
                      CountingIterator(text.data() + text.size(), &furthest), &sax)) {
    out = std::move(sax.builder.value());
    return true;
  }
  if (!sax.builder.limit_error().empty()) {
    // Raised by a callback, just after the parser read the token (the
    // last byte read).
    const std::size_t read = static_cast<std::size_t>(furthest - text.data());
    error = {JsonTextError::Kind::kLimit, read > 0 ? read - 1 : 0, sax.builder.limit_error()};
    return false;
  }
  error = {JsonTextError::Kind::kSyntax, sax.error_position > 0 ? sax.error_position - 1 : 0,
           sax.error};
  return false;
}

}  // namespace lbsim
