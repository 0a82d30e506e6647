#pragma once

// Builds one nlohmann::json value from SAX events, refusing nesting deeper
// than kMaxNestingDepth. Used by both trace readers so that a hostile input
// cannot exhaust the stack or memory through nesting.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "traces/trace_reader.h"

namespace lbsim {

class JsonValueBuilder {
 public:
  using json = nlohmann::json;

  // Starts a new value; the previous one is discarded.
  void Reset() {
    root_ = json();
    stack_.clear();
    has_key_ = false;
    done_ = false;
  }
  bool done() const { return done_; }
  json& value() { return root_; }
  int depth() const { return static_cast<int>(stack_.size()); }
  bool too_deep() const { return too_deep_; }

  bool Scalar(json v) {
    Place(std::move(v));
    return true;
  }
  bool StartContainer(json empty) {
    if (stack_.size() >= kMaxNestingDepth) {
      too_deep_ = true;
      return false;
    }
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
};

}  // namespace lbsim
