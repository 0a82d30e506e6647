#include "sim/replay/pool.h"

#include <algorithm>

namespace lbsim {

bool Pool::Up(InstanceIndex i) {
  Reserve(i + 1);
  Entry& e = entries_[i];
  alive_dirty_ = true;
  ++version_;
  if (registered_[i]) {
    e.alive = true;
    return false;
  }
  e = Entry{};
  registered_[i] = 1;
  e.alive = true;
  e.registration = ++registrations_;
  order_.push_back(i);
  return true;
}

void Pool::Down(InstanceIndex i) {
  entries_[i].alive = false;
  alive_dirty_ = true;
  ++version_;
}

void Pool::Remove(InstanceIndex i) {
  registered_[i] = 0;
  entries_[i].alive = false;
  order_.erase(std::find(order_.begin(), order_.end(), i));
  alive_dirty_ = true;
  ++version_;
}

const std::vector<InstanceIndex>& Pool::Alive() const {
  if (alive_dirty_) {
    alive_.clear();
    for (InstanceIndex i : order_)
      if (entries_[i].alive) alive_.push_back(i);
    alive_dirty_ = false;
  }
  return alive_;
}

}  // namespace lbsim
