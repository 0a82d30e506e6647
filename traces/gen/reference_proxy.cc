#include "traces/gen/reference_proxy.h"

#include <algorithm>

namespace lbsim {

ReferenceProxy::ReferenceProxy(const std::vector<std::string>& initial_ids,
                               double qps_window)
    : qps_window_(qps_window) {
  for (const std::string& id : initial_ids) Register(Intern(id));
}

std::uint32_t ReferenceProxy::Intern(const std::string& id) {
  auto [it, fresh] = index_.emplace(id, static_cast<std::uint32_t>(instances_.size()));
  if (fresh) {
    instances_.emplace_back();
    instances_.back().id = id;
  }
  return it->second;
}

void ReferenceProxy::Register(std::uint32_t i) {
  Instance& inst = instances_[i];
  inst.registered = inst.alive = true;
  inst.registration = ++registrations_;
  inst.inflight = 0;
  inst.recent.clear();
  order_.push_back(i);
  alive_dirty_ = true;
}

void ReferenceProxy::Apply(const InstanceChange& c) {
  const std::uint32_t i = Intern(c.instance);
  Instance& inst = instances_[i];
  alive_dirty_ = true;
  switch (c.kind) {
    case InstanceEventKind::kUp:
      if (inst.registered) inst.alive = true;
      else Register(i);
      return;
    case InstanceEventKind::kDown:
      inst.alive = false;
      return;
    case InstanceEventKind::kRemove:
      inst.registered = inst.alive = false;
      order_.erase(std::find(order_.begin(), order_.end(), i));
      return;
  }
}

void ReferenceProxy::Arrive(double t, double duration) {
  if (alive_dirty_) {
    alive_.clear();
    for (std::uint32_t i : order_)
      if (instances_[i].alive) alive_.push_back(i);
    alive_dirty_ = false;
  }
  if (alive_.empty()) return;
  const std::uint32_t i = alive_[counter_++ % alive_.size()];
  Instance& inst = instances_[i];
  ++inst.inflight;
  if (qps_window_ > 0.0) inst.recent.push_back(t);
  departures_.push(Departure{t + duration, i, inst.registration});
}

void ReferenceProxy::AdvanceTo(double t) {
  while (!departures_.empty() && departures_.top().end <= t) {
    const Departure d = departures_.top();
    departures_.pop();
    Instance& inst = instances_[d.instance];
    if (inst.registered && inst.registration == d.registration && inst.inflight > 0)
      --inst.inflight;
  }
  for (Instance& inst : instances_)
    while (!inst.recent.empty() && inst.recent.front() < t - qps_window_)
      inst.recent.pop_front();
}

double ReferenceProxy::Qps(std::uint32_t i) const {
  // Per second whatever the unit: the window is always one minute.
  return static_cast<double>(instances_[i].recent.size()) / 60.0;
}

}  // namespace lbsim
