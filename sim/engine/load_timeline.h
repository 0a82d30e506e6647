#pragma once

#include <optional>

#include "sim/engine/level_tracker.h"
#include "sim/engine/window_series.h"

namespace lbsim {

// The load one strategy run put on each Instance over time: the number of
// requests routed to it and not yet completed (waiting ones included; the
// quantity the lifecycle counter tracks, whether or not that counter is
// known), its time average and peak, and optionally the same per window
// together with each window's decisions. The run's span is [the first
// event, the last event or completion].
class LoadTimeline {
 public:
  // `window` > 0 also keeps a WindowSeries of that width, of at most
  // `window_figures` windows x Instances.
  LoadTimeline(double window, std::uint64_t window_figures)
      : window_(window), window_figures_(window_figures) {}

  // The run's first event is at `t`.
  void Begin(double t);
  void Decision(double t, const InstanceIndex* chosen, bool fallback);
  void Routed(InstanceIndex i, double t) { Change(i, t, +1); }
  void Completed(InstanceIndex i, double t) { Change(i, t, -1); }
  // The run ended at `t`: closes every level and window.
  void End(double t);

  bool begun() const { return begun_; }
  double span_start() const { return start_; }
  double span_end() const { return end_; }
  const LevelTracker& outstanding() const { return outstanding_; }
  const WindowSeries* windows() const { return windows_ ? &*windows_ : nullptr; }

 private:
  void Change(InstanceIndex i, double t, std::int64_t delta);

  double window_;
  std::uint64_t window_figures_;
  bool begun_ = false;
  double start_ = 0.0;
  double end_ = 0.0;
  LevelTracker outstanding_;
  std::optional<WindowSeries> windows_;
};

}  // namespace lbsim
