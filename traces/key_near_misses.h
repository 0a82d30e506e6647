#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace lbsim {

// Finds, among the keys the trace readers pass over, those one or two
// edits from an event key of the format ("durration"): each once, in the
// order noted, at most kMaxNearMisses (traces/trace_reader.h). Cheap on
// the readers' paths: a key is judged once, and the keys a trace repeats
// line after line are recognised by a comparison.
class KeyNearMisses {
 public:
  // A key an event holds that is no event key.
  void Note(std::string_view key);

  // {key, the event key it resembles}, in the order found.
  const std::vector<std::pair<std::string, std::string>>& found() const { return found_; }

 private:
  std::vector<std::pair<std::string, std::string>> found_;
  std::unordered_set<std::string> judged_;  // keys already judged (bounded)
  std::array<std::string, 8> recent_;        // the last keys noted, judged
  std::size_t next_recent_ = 0;
};

}  // namespace lbsim
