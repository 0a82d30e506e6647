#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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
  // Hashes std::string and std::string_view alike, so that lookups by a
  // view of the trace text need no temporary string.
  struct IdHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };

  std::vector<std::string> ids_;
  std::unordered_map<std::string, InstanceIndex, IdHash, std::equal_to<>> index_;
};

}  // namespace lbsim
