#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/replay/sim_options.h"
#include "strategies/hint.h"

namespace lbsim {

// One strategy run cut into windows of trace time: window k covers
// [k*width, (k+1)*width). Counts decisions, fallbacks and picks per window,
// and accumulates the area under each Instance's outstanding-request level
// (mean inflight = area / covered time). Memory grows with the number of
// windows times Instances, never with the number of arrivals.
// The index k of the window [k x width, (k+1) x width) holding `t` >= 0;
// a UsageError naming --window when k would pass 2^53.
std::int64_t WindowIndex(double t, double width);

// The refusals of a --window of `width` that needs more windows, or more
// window x Instance figures, than `limit`: a UsageError naming --window.
[[noreturn]] void RefuseWindows(double width, std::uint64_t limit);
[[noreturn]] void RefuseWindowFigures(double width, std::uint64_t limit);

class WindowSeries {
 public:
  struct Window {
    std::uint64_t decisions = 0;  // arrivals decided, no_instances ones included
    std::uint64_t no_instances = 0;
    std::uint64_t fallback = 0;   // decisions with reason "fallback"
    std::vector<std::uint64_t> selections;  // by InstanceIndex; may be short
    std::vector<double> inflight_area;      // by InstanceIndex; may be short
  };

  // The most windows one run may have; more is a usage error (a window far
  // too narrow for the trace).
  static constexpr std::size_t kMaxWindows = 1'000'000;

  // `width` > 0. The first window is the one holding `start`. At most
  // `max_figures` windows x Instances are kept. Every limit (those two, and
  // window indexes within 2^53 of 0, where they stay exact) is checked
  // before a window is made or walked over; past one, a UsageError names
  // --window.
  WindowSeries(double width, double start, std::uint64_t max_figures = kMaxWindowFigures);

  // One decision at `t`: `chosen` is nullptr for no_instances.
  void RecordDecision(double t, const InstanceIndex* chosen, bool fallback);
  // Adds `level` x the part of [from, to) inside each window to Instance
  // `i`'s area.
  void AddArea(InstanceIndex i, double from, double to, double level);
  // Makes the windows reach the end of a run that ends at `t`.
  void ExtendTo(double t);
  // A report lists `n` Instances in every window, those without figures
  // too: checks windows x `n` against the limit.
  void ListInstances(std::size_t n) {
    if (n > 0) Instance(static_cast<InstanceIndex>(n - 1));
  }

  double width() const { return width_; }
  // Window k of windows() covers [Start(k), End(k)).
  double Start(std::size_t k) const;
  double End(std::size_t k) const { return Start(k + 1); }
  const std::vector<Window>& windows() const { return windows_; }
  // The position in windows() of the window holding `t` (at or after the
  // first window's start; it may lie past the last window kept).
  std::size_t Position(double t) const { return static_cast<std::size_t>(IndexOf(t) - first_); }

 private:
  // The window index holding `t`, consistent with Start(): Start(k) <= t < Start(k+1).
  std::int64_t IndexOf(double t) const;
  Window& At(std::int64_t index);

  // Throw the UsageError for a run that needs more than the limits.
  [[noreturn]] void TooManyFigures() const;
  // Notes that Instance `i` has figures, checking the limit.
  void Instance(InstanceIndex i);

  double width_;
  std::uint64_t max_figures_;
  std::size_t instances_ = 1;  // the most Instances a window may have figures for
  std::int64_t first_;  // absolute index of windows_[0]
  std::vector<Window> windows_;
};

}  // namespace lbsim
