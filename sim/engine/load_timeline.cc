#include "sim/engine/load_timeline.h"

namespace lbsim {

void LoadTimeline::Begin(double t) {
  begun_ = true;
  start_ = end_ = t;
  if (window_ > 0.0) windows_.emplace(window_, t, window_figures_);
}

void LoadTimeline::Decision(double t, const InstanceIndex* chosen, bool fallback) {
  end_ = t;
  if (windows_) windows_->RecordDecision(t, chosen, fallback);
}

void LoadTimeline::Change(InstanceIndex i, double t, std::int64_t delta) {
  end_ = t;
  const LevelTracker::Stretch s = outstanding_.Add(i, t, delta);
  if (windows_) windows_->AddArea(i, s.from, s.to, static_cast<double>(s.level));
}

void LoadTimeline::End(double t) {
  if (!begun_) return;
  if (t > end_) end_ = t;
  outstanding_.CloseAt(end_, [&](InstanceIndex i, const LevelTracker::Stretch& s) {
    if (windows_) windows_->AddArea(i, s.from, s.to, static_cast<double>(s.level));
  });
  if (windows_) windows_->ExtendTo(end_);
}

}  // namespace lbsim
