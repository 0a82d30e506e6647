#include "sim/replay/window_series.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

WindowSeries::WindowSeries(double width, double start, std::uint64_t max_figures)
    : width_(width), max_figures_(max_figures), first_(0) {
  first_ = IndexOf(start);
  At(first_);
}

double WindowSeries::Start(std::size_t k) const {
  return static_cast<double>(first_ + static_cast<std::int64_t>(k)) * width_;
}

void RefuseWindows(double width, std::uint64_t limit) {
  throw UsageError(fmt::format(
      "--window {}: the run needs more than {} windows; choose a wider window", width, limit));
}

void RefuseWindowFigures(double width, std::uint64_t limit) {
  throw UsageError(fmt::format(
      "--window {}: the run needs more than {} window x Instance figures (the limit of one "
      "replay, shared by its strategy runs and seeds); choose a wider window",
      width, limit));
}

void WindowSeries::TooManyFigures() const { RefuseWindowFigures(width_, max_figures_); }

std::int64_t WindowIndex(double t, double width) {
  // Windows are counted from 0; past 2^53 their boundaries are no longer
  // exact (and the count no longer fits): refused before any is walked.
  const double q = std::floor(t / width);
  constexpr double kExact = 9007199254740992.0;  // 2^53
  if (!(q < kExact))
    throw UsageError(fmt::format(
        "--window {}: time {} lies past window 2^53 (windows are counted from time 0; past "
        "2^53 their bounds are no longer exact); choose a wider window",
        width, t));
  // Division can land one off at a boundary; settle it against the
  // boundaries as Start() computes them.
  auto k = static_cast<std::int64_t>(q);
  while (static_cast<double>(k + 1) * width <= t) ++k;
  while (static_cast<double>(k) * width > t) --k;
  return k;
}

std::int64_t WindowSeries::IndexOf(double t) const { return WindowIndex(t, width_); }

WindowSeries::Window& WindowSeries::At(std::int64_t index) {
  if (index < first_)
    throw std::logic_error("window series: time went backwards");
  const auto k = static_cast<std::uint64_t>(index - first_);
  if (k >= kMaxWindows) RefuseWindows(width_, kMaxWindows);
  if (windows_.size() <= k) {
    if ((k + 1) * instances_ > max_figures_) TooManyFigures();
    windows_.resize(k + 1);
  }
  return windows_[k];
}

void WindowSeries::Instance(InstanceIndex i) {
  if (i < instances_) return;
  instances_ = static_cast<std::size_t>(i) + 1;
  if (windows_.size() * instances_ > max_figures_) TooManyFigures();
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
  Instance(*chosen);
  if (w.selections.size() <= *chosen) w.selections.resize(*chosen + 1, 0);
  ++w.selections[*chosen];
}

void WindowSeries::AddArea(InstanceIndex i, double from, double to, double level) {
  if (!(to > from) || level == 0.0) return;
  Instance(i);
  const std::int64_t last = IndexOf(to);
  // The windows before `last` all get figures (`last` too, unless `to` is
  // its start): the limits, checked before walking them.
  const auto reach = static_cast<std::uint64_t>(last - first_);
  if (reach > kMaxWindows) RefuseWindows(width_, kMaxWindows);
  if (reach * instances_ > max_figures_) TooManyFigures();
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
