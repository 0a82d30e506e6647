#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>

#include "strategies/candidate.h"

namespace lbsim {

// The candidates of L1 least_load (least_load_lexicographic.cc) in the
// order its rule reads them: known inflight before unknown, then by
// inflight, known qps_1m before unknown, by qps_1m, and by pool position.
// The rule's tier and its ties are then runs at the front, and the k-th of
// them in pool order is found in O(log n) however large the pool, where
// Select scans it.
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
  std::size_t Pick(std::size_t k) const;

 private:
  struct Key {
    bool inflight_unknown;
    std::int64_t inflight;  // 0 when unknown
    bool qps_unknown;
    double qps;             // 0 when unknown
    std::size_t slot;
    friend bool operator<(const Key& a, const Key& b) {
      if (a.inflight_unknown != b.inflight_unknown) return b.inflight_unknown;
      if (a.inflight != b.inflight) return a.inflight < b.inflight;
      if (a.qps_unknown != b.qps_unknown) return b.qps_unknown;
      if (a.qps != b.qps) return a.qps < b.qps;
      return a.slot < b.slot;
    }
  };
  using Tree = __gnu_pbds::tree<Key, __gnu_pbds::null_type, std::less<Key>,
                                __gnu_pbds::rb_tree_tag,
                                __gnu_pbds::tree_order_statistics_node_update>;

  static Key KeyOf(const Candidate& c, std::size_t slot);

  Tree tree_;
  std::vector<Key> keys_;  // each slot's key in tree_
  std::size_t inflight_unknown_ = 0;  // candidates whose inflight is unknown
};

}  // namespace lbsim
