#include "sim/replay/load_timeline.h"

namespace lbsim {

void LoadTimeline::Begin(double t) {
  begun_ = true;
  start_ = end_ = t;
  if (window_ > 0.0) windows_.emplace(window_, t, window_figures_);
  if (charts_wanted_) {
    if (window_ > 0.0) charts_.emplace(window_, 0);
    else charts_.emplace(1.0, kFinestChartExponent);
    charts_->Begin(t);
  }
}

void LoadTimeline::Decision(double t, const InstanceIndex* chosen, std::string_view reason,
                            std::size_t candidates) {
  end_ = t;
  if (windows_) windows_->RecordDecision(t, chosen, reason == "fallback");
  if (charts_) charts_->Decision(t, chosen, reason, candidates);
}

void LoadTimeline::Change(InstanceIndex i, double t, std::int64_t delta) {
  end_ = t;
  const LevelTracker::Stretch s = outstanding_.Add(i, t, delta);
  const auto level = static_cast<double>(s.level);
  if (windows_) windows_->AddArea(i, s.from, s.to, level);
  if (charts_) charts_->AddArea(i, s.from, s.to, level);
}

void LoadTimeline::End(double t, std::size_t instances) {
  if (!begun_) return;
  if (t > end_) end_ = t;
  outstanding_.CloseAt(end_, [&](InstanceIndex i, const LevelTracker::Stretch& s) {
    const auto level = static_cast<double>(s.level);
    if (windows_) windows_->AddArea(i, s.from, s.to, level);
    if (charts_) charts_->AddArea(i, s.from, s.to, level);
  });
  if (windows_) {
    windows_->ExtendTo(end_);
    windows_->ListInstances(instances);
  }
  if (charts_) charts_->End(end_);
}

}  // namespace lbsim
