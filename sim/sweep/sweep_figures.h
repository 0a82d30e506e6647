#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace lbsim {

struct SweepRow;

// A figure of a sweep's rows that its HTML report draws (a heatmap over
// the grid) and may plot against another (--scatter): its name (as in the
// CSV header), what it is, and which way is better.
struct SweepFigure {
  std::string_view name;
  std::string_view title;
  bool lower_is_better = false;
  bool service = false;  // needs the service model (--slots)
  int decimals = 3;      // digits shown after the point
  std::optional<double> (*value)(const SweepRow& row) = nullptr;  // nullopt: undefined
};

// Every figure, in the CSV's column order.
const std::vector<SweepFigure>& SweepFigures();

// The two figures a sweep's scatter plots, x and y.
struct SweepScatter {
  const SweepFigure* x = nullptr;
  const SweepFigure* y = nullptr;
};

// Parses --scatter "X,Y" (two figure names); throws UsageError naming the
// figures expected. A service figure needs the service model (`service`).
SweepScatter ParseSweepScatter(std::string_view text, bool service);
// The scatter without --scatter: jain (fairness) against latency_p99 with
// the service model, else against herded_decisions.
SweepScatter DefaultSweepScatter(bool service);

}  // namespace lbsim
