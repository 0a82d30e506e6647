#include "strategies/lexicographic_index.h"

#include <limits>

namespace lbsim {

LexicographicIndex::Key LexicographicIndex::KeyOf(const Candidate& c, std::size_t slot) {
  return Key{!c.inflight, c.inflight.value_or(0), !c.qps_1m, c.qps_1m.value_or(0.0), slot};
}

void LexicographicIndex::Reset(std::span<const Candidate> candidates) {
  tree_.clear();
  keys_.clear();
  inflight_unknown_ = 0;
  for (std::size_t slot = 0; slot < candidates.size(); ++slot) {
    keys_.push_back(KeyOf(candidates[slot], slot));
    tree_.insert(keys_.back());
    inflight_unknown_ += keys_.back().inflight_unknown;
  }
}

void LexicographicIndex::Update(std::span<const Candidate> candidates, std::size_t slot) {
  Key& key = keys_[slot];
  tree_.erase(key);
  inflight_unknown_ -= key.inflight_unknown;
  key = KeyOf(candidates[slot], slot);
  tree_.insert(key);
  inflight_unknown_ += key.inflight_unknown;
}

LexicographicIndex::Front LexicographicIndex::Read() const {
  constexpr std::size_t kLastSlot = std::numeric_limits<std::size_t>::max();
  const Key& first = *tree_.begin();
  Front front;
  front.any_inflight = !first.inflight_unknown;
  front.inflight_unknown = inflight_unknown_ > 0;
  // The tier: every candidate at the first's inflight (known), or every
  // candidate (none known: all of them share the unknown group).
  front.tier = tree_.order_of_key(Key{first.inflight_unknown, first.inflight, true,
                                      std::numeric_limits<double>::infinity(), kLastSlot});
  front.any_qps = !first.qps_unknown;
  if (!front.any_qps) {
    front.ties = front.tier;
    return front;
  }
  const std::size_t known_qps =
      tree_.order_of_key(Key{first.inflight_unknown, first.inflight, true, 0.0, 0});
  front.qps_unknown = known_qps < front.tier;
  front.ties =
      tree_.order_of_key(Key{first.inflight_unknown, first.inflight, false, first.qps, kLastSlot});
  return front;
}

std::size_t LexicographicIndex::Pick(std::size_t k) const { return tree_.find_by_order(k)->slot; }

}  // namespace lbsim
