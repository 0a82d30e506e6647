#include "traces/instance_table.h"

namespace lbsim {

InstanceIndex InstanceTable::Intern(std::string_view id) {
  if (std::optional<InstanceIndex> known = Find(id)) return *known;
  InstanceIndex index = static_cast<InstanceIndex>(ids_.size());
  index_.emplace(std::string(id), index);
  ids_.emplace_back(id);
  return index;
}

std::optional<InstanceIndex> InstanceTable::Find(std::string_view id) const {
  auto it = index_.find(id);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

}  // namespace lbsim
