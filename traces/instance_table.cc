#include "traces/instance_table.h"

namespace lbsim {

InstanceIndex InstanceTable::Intern(std::string_view id) {
  auto [it, inserted] =
      index_.try_emplace(std::string(id), static_cast<InstanceIndex>(ids_.size()));
  if (inserted) ids_.emplace_back(id);
  return it->second;
}

std::optional<InstanceIndex> InstanceTable::Find(std::string_view id) const {
  auto it = index_.find(std::string(id));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

}  // namespace lbsim
