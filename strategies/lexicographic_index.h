#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "strategies/candidate.h"
#include "strategies/slot_set.h"

namespace lbsim {

// The candidates of L1 least_load (least_load_lexicographic.cc) in the
// order its rule reads them: known inflight before unknown, then by
// inflight, known qps_1m before unknown, by qps_1m, and by pool position.
// Candidates with the same inflight and qps_1m form a group, an ordered
// set of slots; the groups are kept in that order, and the candidates of
// each inflight (a tier) are counted. The rule's tier is then the first
// tier and its picks the first group, whose k-th member in pool order is
// found without a walk, however large the pool, where Select scans it.
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
  std::size_t Pick(std::size_t k) const { return groups_.begin()->second.Nth(k); }

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
    std::uint64_t tier;  // the inflight: candidates of one tier share it
    std::uint64_t qps;
    friend bool operator<(const GroupKey& a, const GroupKey& b) {
      return a.tier < b.tier || (a.tier == b.tier && a.qps < b.qps);
    }
    friend bool operator==(const GroupKey&, const GroupKey&) = default;
  };
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
  struct TierCounts {
    std::size_t size = 0;         // candidates in the tier
    std::size_t qps_unknown = 0;  // of them, with an unknown qps_1m
  };
  using Groups = std::map<GroupKey, SlotSet>;

  static GroupKey KeyOf(const Candidate& c);
  // Puts `slot` in the group of `key` and counts it in its tier.
  void Add(std::uint32_t slot, const GroupKey& key);
  // Takes `slot` out of its group and tier.
  void Remove(std::uint32_t slot);

  Groups groups_;
  std::map<std::uint64_t, TierCounts> tiers_;  // by GroupKey::tier
  std::vector<GroupKey> keys_;              // each slot's key
  std::vector<Groups::iterator> group_of_;  // each slot's group
  // A group emptied, kept with its set's room for the next new group
  // (a candidate's qps_1m is often its own: most moves empty a group and
  // make one).
  Groups::node_type spare_;
  std::size_t inflight_unknown_ = 0;  // candidates whose inflight is unknown
};

}  // namespace lbsim
