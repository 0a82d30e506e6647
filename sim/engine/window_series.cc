#include "sim/engine/window_series.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

WindowSeries::WindowSeries(double width, double start) : width_(width), first_(0) {
  first_ = IndexOf(start);
  At(first_);
}

double WindowSeries::Start(std::size_t k) const {
  return static_cast<double>(first_ + static_cast<std::int64_t>(k)) * width_;
}

std::int64_t WindowSeries::IndexOf(double t) const {
  // Division can land one off at a boundary; settle it against the
  // boundaries as Start() computes them.
  auto k = static_cast<std::int64_t>(std::floor(t / width_));
  while (static_cast<double>(k + 1) * width_ <= t) ++k;
  while (static_cast<double>(k) * width_ > t) --k;
  return k;
}

WindowSeries::Window& WindowSeries::At(std::int64_t index) {
  if (index < first_)
    throw std::logic_error("window series: time went backwards");
  const auto k = static_cast<std::size_t>(index - first_);
  if (k >= kMaxWindows)
    throw UsageError(fmt::format(
        "--window {}: the run needs more than {} windows; choose a wider window",
        width_, kMaxWindows));
  if (windows_.size() <= k) windows_.resize(k + 1);
  return windows_[k];
}

void WindowSeries::RecordDecision(double t, const InstanceIndex* chosen,
                                  bool fallback) {
  Window& w = At(IndexOf(t));
  ++w.decisions;
  if (fallback) ++w.fallback;
  if (!chosen) {
    ++w.no_instances;
    return;
  }
  if (w.selections.size() <= *chosen) w.selections.resize(*chosen + 1, 0);
  ++w.selections[*chosen];
}

void WindowSeries::AddArea(InstanceIndex i, double from, double to, double level) {
  if (!(to > from) || level == 0.0) return;
  const std::int64_t last = IndexOf(to);
  for (std::int64_t k = IndexOf(from); k <= last; ++k) {
    const double lo = std::max(from, static_cast<double>(k) * width_);
    const double hi = std::min(to, static_cast<double>(k + 1) * width_);
    if (!(hi > lo)) continue;
    Window& w = At(k);
    if (w.inflight_area.size() <= i) w.inflight_area.resize(i + 1, 0.0);
    w.inflight_area[i] += level * (hi - lo);
  }
}

}  // namespace lbsim

namespace lbsim {

void WindowSeries::ExtendTo(double t) {
  std::int64_t k = IndexOf(t);
  if (static_cast<double>(k) * width_ == t && k > first_) --k;  // ends on a boundary
  At(k);
}

}  // namespace lbsim
