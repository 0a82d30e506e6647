#include "strategies/lexicographic_index.h"

#include <bit>

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
  tiers_.clear();
  groups_.clear();
  free_groups_.clear();
  qps_lists_.clear();
  free_qps_lists_.clear();
  qps_list_of_.clear();
  group_of_.clear();
  inflight_unknown_ = 0;
  for (std::size_t slot = 0; slot < candidates.size(); ++slot) {
    const GroupKey key = KeyOf(candidates[slot]);
    const std::uint32_t list = QpsListOf(key.qps);
    std::uint32_t id = FindGroup(list, key.tier);
    if (id == kNone) id = NewGroup(list, key.tier);
    groups_[id].slots.Insert(static_cast<std::uint32_t>(slot));
    CountIn(groups_[id].tier->second, key);
    group_of_.push_back(id);
  }
}

void LexicographicIndex::Update(std::span<const Candidate> candidates, std::size_t slot) {
  const GroupKey key = KeyOf(candidates[slot]);
  const std::uint32_t from = group_of_[slot];
  const GroupKey old{groups_[from].tier->first, groups_[from].qps};
  if (key == old) return;
  CountOut(groups_[from].tier->second, old);
  const std::uint32_t list = key.qps == old.qps ? groups_[from].list : QpsListOf(key.qps);
  std::uint32_t to = FindGroup(list, key.tier);
  if (to == kNone && list == groups_[from].list && groups_[from].slots.size() == 1) {
    // Alone in its group, whose list has none in the new tier: the group
    // moves with it.
    MoveGroup(from, key.tier);
    to = from;
  } else {
    if (to == kNone) to = NewGroup(list, key.tier);
    groups_[from].slots.Erase(static_cast<std::uint32_t>(slot));
    if (groups_[from].slots.empty()) DropGroup(from);
    groups_[to].slots.Insert(static_cast<std::uint32_t>(slot));
    group_of_[slot] = to;
  }
  CountIn(groups_[to].tier->second, key);
}

std::uint32_t LexicographicIndex::QpsListOf(std::uint64_t qps) {
  const auto [found, fresh] = qps_list_of_.try_emplace(qps, 0);
  if (fresh) {
    if (free_qps_lists_.empty()) {
      found->second = static_cast<std::uint32_t>(qps_lists_.size());
      qps_lists_.emplace_back();
    } else {
      found->second = free_qps_lists_.back();
      free_qps_lists_.pop_back();
    }
    qps_lists_[found->second] = QpsList{qps, kNone};
  }
  return found->second;
}

std::uint32_t LexicographicIndex::FindGroup(std::uint32_t list, std::uint64_t tier_key) const {
  std::uint32_t id = qps_lists_[list].first;
  while (id != kNone && groups_[id].tier->first != tier_key) id = groups_[id].next;
  return id;
}

std::uint32_t LexicographicIndex::NewGroup(std::uint32_t list, std::uint64_t tier_key) {
  std::uint32_t id;
  if (free_groups_.empty()) {
    id = static_cast<std::uint32_t>(groups_.size());
    groups_.emplace_back();
  } else {
    id = free_groups_.back();
    free_groups_.pop_back();
  }
  Group& group = groups_[id];
  group.tier = tiers_.try_emplace(tier_key).first;
  group.qps = qps_lists_[list].qps;
  group.list = list;
  group.next = qps_lists_[list].first;
  qps_lists_[list].first = id;
  HeapPush(group.tier->second, id);
  return id;
}

void LexicographicIndex::MoveGroup(std::uint32_t id, std::uint64_t tier_key) {
  const Tiers::iterator left = groups_[id].tier;
  HeapErase(left->second, groups_[id].at);
  groups_[id].tier = tiers_.try_emplace(tier_key).first;
  HeapPush(groups_[id].tier->second, id);
  if (left->second.heap.empty()) tiers_.erase(left);
}

void LexicographicIndex::DropGroup(std::uint32_t id) {
  const Group& group = groups_[id];
  HeapErase(group.tier->second, group.at);
  QpsList& list = qps_lists_[group.list];
  if (list.first == id) {
    list.first = group.next;
  } else {
    std::uint32_t before = list.first;
    while (groups_[before].next != id) before = groups_[before].next;
    groups_[before].next = group.next;
  }
  if (list.first == kNone) {
    qps_list_of_.erase(list.qps);
    free_qps_lists_.push_back(group.list);
  }
  // A tier goes with its last group, not with its last candidate: one
  // moving to another group of the same tier has left the count already.
  if (group.tier->second.heap.empty()) tiers_.erase(group.tier);
  free_groups_.push_back(id);
}

void LexicographicIndex::CountIn(Tier& tier, const GroupKey& key) {
  ++tier.size;
  tier.qps_unknown += key.qps == kUnknown;
  inflight_unknown_ += key.tier == kUnknown;
}

void LexicographicIndex::CountOut(Tier& tier, const GroupKey& key) {
  --tier.size;
  tier.qps_unknown -= key.qps == kUnknown;
  inflight_unknown_ -= key.tier == kUnknown;
}

void LexicographicIndex::HeapPush(Tier& tier, std::uint32_t id) {
  tier.heap.push_back(id);
  SiftUp(tier, tier.heap.size() - 1);
}

void LexicographicIndex::HeapErase(Tier& tier, std::size_t at) {
  // The last group takes the place left.
  const std::uint32_t last = tier.heap.back();
  tier.heap.pop_back();
  if (at == tier.heap.size()) return;
  tier.heap[at] = last;
  SiftDown(tier, at);
  SiftUp(tier, groups_[last].at);
}

void LexicographicIndex::SiftUp(Tier& tier, std::size_t at) {
  const std::uint32_t id = tier.heap[at];
  const std::uint64_t qps = groups_[id].qps;
  while (at > 0) {
    const std::size_t parent = (at - 1) / 2;
    const std::uint32_t above = tier.heap[parent];
    if (groups_[above].qps <= qps) break;
    tier.heap[at] = above;
    groups_[above].at = static_cast<std::uint32_t>(at);
    at = parent;
  }
  tier.heap[at] = id;
  groups_[id].at = static_cast<std::uint32_t>(at);
}

void LexicographicIndex::SiftDown(Tier& tier, std::size_t at) {
  const std::size_t size = tier.heap.size();
  const std::uint32_t id = tier.heap[at];
  const std::uint64_t qps = groups_[id].qps;
  for (;;) {
    std::size_t child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && groups_[tier.heap[child + 1]].qps < groups_[tier.heap[child]].qps)
      ++child;
    const std::uint32_t below = tier.heap[child];
    if (qps <= groups_[below].qps) break;
    tier.heap[at] = below;
    groups_[below].at = static_cast<std::uint32_t>(at);
    at = child;
  }
  tier.heap[at] = id;
  groups_[id].at = static_cast<std::uint32_t>(at);
}

LexicographicIndex::Front LexicographicIndex::Read() const {
  // The first tier's first group: its members have the tier's lowest
  // qps_1m, or all of them have an unknown one.
  const auto& [tier_key, tier] = *tiers_.begin();
  const Group& first = groups_[tier.heap[0]];
  Front front;
  front.any_inflight = tier_key != kUnknown;
  front.inflight_unknown = inflight_unknown_ > 0;
  front.tier = tier.size;
  front.any_qps = first.qps != kUnknown;
  front.qps_unknown = front.any_qps && tier.qps_unknown > 0;
  front.ties = front.any_qps ? first.slots.size() : tier.size;
  return front;
}

}  // namespace lbsim
