#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lbsim {

// The Levenshtein distance between `a` and `b` (insertions, deletions and
// substitutions of bytes).
std::size_t EditDistance(std::string_view a, std::string_view b);

// The one of `candidates` closest to `word` when it is close enough to be a
// slip of the fingers (edit distance at most 2, and less than half the
// word), the first of equals; nullopt otherwise.
std::optional<std::string> DidYouMean(std::string_view word,
                                      const std::vector<std::string>& candidates);

}  // namespace lbsim
