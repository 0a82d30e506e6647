#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// Interns Instance ids: each id ever registered gets a dense index, in the
// order of first registration. Reports list Instances in this order.
class InstanceTable {
 public:
  // The index of `id`, adding it when new.
  InstanceIndex Intern(std::string_view id);
  // The index of `id` if it was ever interned.
  std::optional<InstanceIndex> Find(std::string_view id) const;

  const std::string& Id(InstanceIndex i) const { return ids_[i]; }
  std::size_t size() const { return ids_.size(); }
  const std::vector<std::string>& Ids() const { return ids_; }

 private:
  // A place of the open-addressed index: an id's index, and 32 bits of
  // its hash, so that a probe compares ids only when those agree.
  struct Slot {
    std::uint32_t tag = 0;
    InstanceIndex index = kEmpty;
  };
  static constexpr InstanceIndex kEmpty = ~InstanceIndex{0};

  // The place of `id`, whose hash is `hash`, or the empty place where it
  // would go (the index is never full).
  std::size_t Place(std::string_view id, std::uint64_t hash) const;
  // Doubles the index's places and puts every id back.
  void Grow();

  std::vector<std::string> ids_;
  // Linear probing from hash & (size - 1), at most three quarters full; a
  // power of two places, none before the first id.
  std::vector<Slot> slots_;
};

}  // namespace lbsim
