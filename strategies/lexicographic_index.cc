#include "strategies/lexicographic_index.h"

#include <bit>
#include <utility>

namespace lbsim {

LexicographicIndex::GroupKey LexicographicIndex::KeyOf(const Candidate& c) {
  constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
  GroupKey key{kUnknown, kUnknown};
  if (c.inflight) key.tier = static_cast<std::uint64_t>(*c.inflight) ^ kSign;
  if (c.qps_1m) {
    // A double's bits in its order: negatives (never a qps_1m the trace
    // takes) reversed below the rest; + 0.0 makes -0.0 0.0.
    const auto bits = std::bit_cast<std::uint64_t>(*c.qps_1m + 0.0);
    key.qps = bits & kSign ? ~bits : bits | kSign;
  }
  return key;
}

void LexicographicIndex::Reset(std::span<const Candidate> candidates) {
  groups_.clear();
  tiers_.clear();
  keys_.clear();
  group_of_.clear();
  inflight_unknown_ = 0;
  for (std::size_t slot = 0; slot < candidates.size(); ++slot) {
    keys_.push_back(KeyOf(candidates[slot]));
    group_of_.emplace_back();
    Add(static_cast<std::uint32_t>(slot), keys_.back());
  }
}

void LexicographicIndex::Update(std::span<const Candidate> candidates, std::size_t slot) {
  const GroupKey key = KeyOf(candidates[slot]);
  if (key == keys_[slot]) return;
  Remove(static_cast<std::uint32_t>(slot));
  keys_[slot] = key;
  Add(static_cast<std::uint32_t>(slot), key);
}

void LexicographicIndex::Add(std::uint32_t slot, const GroupKey& key) {
  Groups::iterator group = groups_.lower_bound(key);
  if (group == groups_.end() || key < group->first) {
    if (spare_.empty()) {
      group = groups_.emplace_hint(group, key, SlotSet());
    } else {
      spare_.key() = key;
      group = groups_.insert(group, std::move(spare_));
    }
  }
  group->second.Insert(slot);
  group_of_[slot] = group;
  TierCounts& tier = tiers_[key.tier];
  ++tier.size;
  tier.qps_unknown += key.qps == kUnknown;
  inflight_unknown_ += key.tier == kUnknown;
}

void LexicographicIndex::Remove(std::uint32_t slot) {
  const GroupKey& key = keys_[slot];
  const Groups::iterator group = group_of_[slot];
  group->second.Erase(slot);
  if (group->second.empty()) spare_ = groups_.extract(group);
  const auto tier = tiers_.find(key.tier);
  tier->second.qps_unknown -= key.qps == kUnknown;
  if (--tier->second.size == 0) tiers_.erase(tier);
  inflight_unknown_ -= key.tier == kUnknown;
}

LexicographicIndex::Front LexicographicIndex::Read() const {
  // The first group is the first tier's: its members have the tier's
  // lowest qps_1m, or all of them have an unknown one.
  const auto& [first, picks] = *groups_.begin();
  const TierCounts& tier = tiers_.begin()->second;
  Front front;
  front.any_inflight = first.tier != kUnknown;
  front.inflight_unknown = inflight_unknown_ > 0;
  front.tier = tier.size;
  front.any_qps = first.qps != kUnknown;
  front.qps_unknown = front.any_qps && tier.qps_unknown > 0;
  front.ties = front.any_qps ? picks.size() : tier.size;
  return front;
}

}  // namespace lbsim
