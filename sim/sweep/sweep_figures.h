#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/report/figure_catalogue.h"

namespace lbsim {

struct SweepRow;

// A figure of a sweep's rows that its HTML report draws (a heatmap over
// the grid) and may plot against another (--scatter): its name (as in the
// CSV header), what it is, and which way is better.
struct SweepFigure {
  // What a cell must run for the figure to exist.
  enum class Needs : std::uint8_t { kNothing, kService, kProxyQueue };
  std::string_view name;
  std::string_view title;
  bool lower_is_better = false;
  Needs needs = Needs::kNothing;
  int decimals = 3;  // digits shown after the point
  // The figure catalogue's column it is: one of these is set.
  const RunColumn* run = nullptr;          // a strategy run's own figure
  const QueueColumn* queue = nullptr;      // a Proxy queue column
  const ServiceColumn* service = nullptr;  // a service model column

  // Its value in `row`; nullopt when undefined there.
  std::optional<double> value(const SweepRow& row) const;
};

// Every figure, in the CSV's column order.
const std::vector<SweepFigure>& SweepFigures();

// The smallest spread a heatmap column's colours span, as a share of the
// largest magnitude in the column: values closer than this look alike.
inline constexpr double kHeatmapMeaningfulShare = 0.05;

// Where value `v` of a heatmap column of values in [lo, hi] sits on the
// colour scale, 0 the worst and 1 the best: across the whole scale when the
// column spreads over at least kHeatmapMeaningfulShare of its largest
// magnitude, else around the middle in proportion (a 0.1% difference is
// 1% of the scale either side); 0.5 when all are equal.
double HeatmapPosition(double v, double lo, double hi, bool lower_is_better);

// The two figures a sweep's scatter plots, x and y.
struct SweepScatter {
  const SweepFigure* x = nullptr;
  const SweepFigure* y = nullptr;
};

// Parses --scatter "X,Y" (two figure names); throws UsageError naming the
// figures expected. A service figure needs the service model (`service`),
// a Proxy queue figure the Proxy queue model (`queue`).
SweepScatter ParseSweepScatter(std::string_view text, bool service, bool queue = false);
// The scatter without --scatter: jain (fairness) against client_ttft_p99
// with the Proxy queue model, latency_p99 with the service model, else
// herded_decisions.
SweepScatter DefaultSweepScatter(bool service, bool queue = false);

}  // namespace lbsim
