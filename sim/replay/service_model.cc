#include "sim/replay/service_model.h"

namespace lbsim {

ServiceModel::Started ServiceModel::Begin(InstanceIndex i, double now,
                                          const Waiter& w, double speed) {
  const double wait = now - w.arrival;
  const double service = w.duration / speed;
  busy_.Add(i, now, +1);
  latencies_.Record(i, wait, wait + service, w.arrival);
  return {now + service, w.registration};
}

std::optional<ServiceModel::Started> ServiceModel::Admit(
    InstanceIndex i, double t, double duration, double speed,
    std::uint64_t registration) {
  if (queues_.size() <= i) queues_.resize(i + 1);
  const Waiter w{t, duration, registration};
  if (busy_.Level(i) < static_cast<std::int64_t>(slots_)) return Begin(i, t, w, speed);
  queues_[i].push_back(w);
  return std::nullopt;
}

std::optional<ServiceModel::Started> ServiceModel::Release(InstanceIndex i, double t,
                                                           double speed) {
  busy_.Add(i, t, -1);
  if (i >= queues_.size() || queues_[i].empty()) return std::nullopt;
  const Waiter w = queues_[i].front();
  queues_[i].pop_front();
  return Begin(i, t, w, speed);
}

void ServiceModel::CloseAt(double t) {
  busy_.CloseAt(t, [](InstanceIndex, const LevelTracker::Stretch&) {});
}

}  // namespace lbsim
