#include "traces/key_near_misses.h"

#include <algorithm>
#include <optional>

#include "base/did_you_mean.h"
#include "traces/event_decoder.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// Distinct keys remembered as judged; past it, a key not among the recent
// ones is judged again (cheaply: it is short).
constexpr std::size_t kMaxJudgedKeys = 256;
// No near miss is longer than the longest event key plus two.
constexpr std::size_t kMaxNearMissBytes = 18;

}  // namespace

void KeyNearMisses::Note(std::string_view key) {
  if (found_.size() >= kMaxNearMisses || key.size() > kMaxNearMissBytes) return;
  if (std::find(recent_.begin(), recent_.end(), key) != recent_.end()) return;
  std::string text(key);
  recent_[next_recent_] = text;
  next_recent_ = (next_recent_ + 1) % recent_.size();
  if (judged_.count(text)) return;
  if (judged_.size() < kMaxJudgedKeys) judged_.insert(text);
  if (std::optional<std::string> known = DidYouMean(key, EventKeyNames()))
    found_.emplace_back(std::move(text), std::move(*known));
}

}  // namespace lbsim
