#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <unordered_map>
#include <vector>

#include "strategies/candidate.h"
#include "strategies/slot_set.h"

namespace lbsim {

// The candidates of L1 least_load (least_load_lexicographic.cc) as its rule
// reads them: known inflight before unknown, then by inflight, known
// qps_1m before unknown, by qps_1m, and by pool position. The candidates of
// one inflight form a tier; those of a tier with one qps_1m a group, an
// ordered set of slots. Each tier keeps its groups in a binary heap by
// qps_1m, and the tiers are ordered: the rule's tier is the first tier,
// its picks the first tier's first group, whose k-th member in pool order
// is found without a walk however large the pool, where Select scans it.
// The groups of one qps_1m are listed together, so that a candidate whose
// inflight moves, on every decision and completion, finds its new group
// from its old one, and a group of one candidate moves with it to another
// tier's heap (O(1) on average for a heap, without a search).
class LexicographicIndex {
 public:
  // What the rule needs of the current list to decide.
  struct Front {
    bool any_inflight = false;      // some candidate's inflight is known
    bool inflight_unknown = false;  // some candidate's inflight is unknown
    bool any_qps = false;           // some member of the tier has a known qps_1m
    bool qps_unknown = false;       // some member of the tier has an unknown qps_1m
    std::size_t tier = 0;           // the tier's size
    std::size_t ties = 0;           // the picks: the tier's lowest qps_1m, or all of it
  };

  // The list is new.
  void Reset(std::span<const Candidate> candidates);
  // candidates[slot]'s inflight or qps_1m changed.
  void Update(std::span<const Candidate> candidates, std::size_t slot);
  // The front of the list; never called on an empty list.
  Front Read() const;
  // The position in the list of the k-th pick (k < Read().ties), in pool
  // order.
  std::size_t Pick(std::size_t k) const { return FirstGroup().slots.Nth(k); }

 private:
  // A candidate's place in the rule's order but for its pool position, as
  // two words that compare as unsigned integers: the inflight (a known one
  // as its two's complement with the sign bit flipped, below every unknown
  // one, which are all ~0), then the qps_1m (a known one as its double's
  // bits mapped to their order, below every unknown one; -0.0 as 0.0,
  // which the rule takes for equal). A known inflight stays below 2^63 - 1:
  // a trace's is at most 2^53, and counting moves it by the requests in
  // flight.
  struct GroupKey {
    std::uint64_t tier;  // the inflight
    std::uint64_t qps;
    friend bool operator==(const GroupKey&, const GroupKey&) = default;
  };
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  struct Tier {
    std::vector<std::uint32_t> heap;  // its groups (ids), the lowest qps_1m first
    std::size_t size = 0;             // candidates in the tier
    std::size_t qps_unknown = 0;      // of them, with an unknown qps_1m
  };
  using Tiers = std::map<std::uint64_t, Tier>;  // by GroupKey::tier
  struct Group {
    Tiers::iterator tier;        // its tier
    std::uint64_t qps = 0;       // GroupKey::qps (its list's, kept for the heap's compares)
    std::uint32_t list = kNone;  // the list of its qps_1m's groups
    std::uint32_t next = kNone;  // the next group of that list
    std::uint32_t at = 0;        // its place in its tier's heap
    SlotSet slots;
  };
  // The groups of one qps_1m (GroupKey::qps), one per tier holding it.
  struct QpsList {
    std::uint64_t qps = 0;
    std::uint32_t first = kNone;  // a list through Group::next
  };

  static GroupKey KeyOf(const Candidate& c);
  const Group& FirstGroup() const { return groups_[tiers_.begin()->second.heap[0]]; }
  // The list of `qps`, made if there is none.
  std::uint32_t QpsListOf(std::uint64_t qps);
  // The group of qps_1m list `list` in tier `tier_key`, or kNone.
  std::uint32_t FindGroup(std::uint32_t list, std::uint64_t tier_key) const;
  // A new, empty group of qps_1m list `list` in tier `tier_key`, which
  // has none.
  std::uint32_t NewGroup(std::uint32_t list, std::uint64_t tier_key);
  // Moves group `id` to tier `tier_key`, where its list has none.
  void MoveGroup(std::uint32_t id, std::uint64_t tier_key);
  // Takes emptied group `id` out of its tier's heap and its qps_1m's
  // list, and drops a list or tier left without groups.
  void DropGroup(std::uint32_t id);
  // Counts a candidate of `key` in `tier`, or out of it.
  void CountIn(Tier& tier, const GroupKey& key);
  void CountOut(Tier& tier, const GroupKey& key);
  // Heap steps in `tier`: puts group `id` in, takes the one at `at` out,
  // restores the order from `at` up or down.
  void HeapPush(Tier& tier, std::uint32_t id);
  void HeapErase(Tier& tier, std::size_t at);
  void SiftUp(Tier& tier, std::size_t at);
  void SiftDown(Tier& tier, std::size_t at);

  Tiers tiers_;
  std::vector<Group> groups_;  // by id; those in free_groups_ are unused
  std::vector<std::uint32_t> free_groups_;
  std::vector<QpsList> qps_lists_;  // by id; those in free_qps_lists_ are unused
  std::vector<std::uint32_t> free_qps_lists_;
  std::unordered_map<std::uint64_t, std::uint32_t> qps_list_of_;  // by GroupKey::qps
  std::vector<std::uint32_t> group_of_;  // each slot's group
  std::size_t inflight_unknown_ = 0;     // candidates whose inflight is unknown
};

}  // namespace lbsim
