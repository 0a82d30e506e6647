#pragma once

#include <optional>
#include <string_view>

#include "sim/replay/chart_series.h"
#include "sim/replay/level_tracker.h"
#include "sim/replay/window_series.h"

namespace lbsim {

// The load one strategy run put on each Instance over time: the number of
// requests routed to it and not yet completed (waiting ones included; the
// quantity the lifecycle counter tracks, whether or not that counter is
// known), its time average and peak, and optionally the same per window
// together with each window's decisions, and a ChartSeries for charts. The
// run's span is [the first event, the last event or completion].
class LoadTimeline {
 public:
  // `window` > 0 also keeps a WindowSeries of that width, of at most
  // `window_figures` windows x Instances; `charts` a ChartSeries, whose
  // buckets are `window` x 10^k wide (k >= 0), or with no window 10^k trace
  // units (k >= kFinestChartExponent).
  LoadTimeline(double window, std::uint64_t window_figures, bool charts = false)
      : window_(window), window_figures_(window_figures), charts_wanted_(charts) {}

  static constexpr int kFinestChartExponent = -6;

  // The run's first event is at `t`.
  void Begin(double t);
  // A decision at `t` for `reason` among `candidates`; `chosen` is nullptr
  // when it routed nothing.
  void Decision(double t, const InstanceIndex* chosen, std::string_view reason,
                std::size_t candidates);
  void Routed(InstanceIndex i, double t) { Change(i, t, +1); }
  void Completed(InstanceIndex i, double t) { Change(i, t, -1); }
  // The run ended at `t`: closes every level and window.
  // `instances`: how many the report lists in every window (checked
  // against the window figure limit before a report is built).
  void End(double t, std::size_t instances);

  bool begun() const { return begun_; }
  double span_start() const { return start_; }
  double span_end() const { return end_; }
  const LevelTracker& outstanding() const { return outstanding_; }
  const WindowSeries* windows() const { return windows_ ? &*windows_ : nullptr; }
  const ChartSeries* charts() const { return charts_ ? &*charts_ : nullptr; }

 private:
  void Change(InstanceIndex i, double t, std::int64_t delta);

  double window_;
  std::uint64_t window_figures_;
  bool charts_wanted_;
  bool begun_ = false;
  double start_ = 0.0;
  double end_ = 0.0;
  LevelTracker outstanding_;
  std::optional<WindowSeries> windows_;
  std::optional<ChartSeries> charts_;
};

}  // namespace lbsim
