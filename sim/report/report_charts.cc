// The charts' time series of a report: every strategy run's chart series,
// its buckets grouped into chart windows that all runs share.

#include <algorithm>

#include "sim/replay/chart_series.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

// Bucket `k` of a series at an exponent `by` lower than the widest one, as
// a bucket of the widest (times >= 0: / rounds down).
std::int64_t Widen(std::int64_t k, int by) {
  for (int i = 0; i < by; ++i) k /= 10;
  return k;
}

// 1, 2, 5, 10, 20, 50, ...: the next multiplier after `m`.
std::int64_t NextMultiplier(std::int64_t m) {
  std::int64_t decade = 1;
  while (m >= decade * 10) decade *= 10;
  const std::int64_t lead = m / decade;
  return (lead == 1 ? 2 : lead == 2 ? 5 : 10) * decade;
}

std::optional<double> Ratio(double part, double whole) {
  if (!(whole > 0.0)) return std::nullopt;
  return part / whole;
}

// The first bucket of series `s` (begun) and its last, as buckets at `top`.
std::pair<std::int64_t, std::int64_t> HeldRange(const ChartSeries& s, int top) {
  const std::int64_t first = s.first();
  const std::int64_t last = first + static_cast<std::int64_t>(s.buckets().size()) - 1;
  return {Widen(first, top - s.exponent()), Widen(last, top - s.exponent())};
}

}  // namespace

std::size_t ChartWindowLimit(std::uint64_t arrivals) {
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(arrivals / 5, 10, 100));
}

const std::vector<std::uint32_t>& LatencyChartQuantiles() {
  static const std::vector<std::uint32_t> quantiles = [] {
    std::vector<std::uint32_t> q;
    for (std::uint32_t k = 0; k <= 990; k += 10) q.push_back(k);
    q.insert(q.end(), {995, 999, 1000});
    return q;
  }();
  return quantiles;
}

namespace {

// With the engine model: the TTFT and E2E quantiles of the run's requests
// over every Instance.
void AddEngineQuantiles(const WhatIfOutcome& outcome, StrategyChartsReport& charts) {
  const EngineStats* engine = outcome.engine.get();
  if (!engine) return;
  EngineLatencies all;
  for (InstanceIndex i = 0; i < engine->size(); ++i) all.Merge(engine->latencies(i));
  for (auto [h, quantiles] : {std::pair{&all.ttft, &charts.ttft_quantiles},
                              std::pair{&all.e2e, &charts.e2e_quantiles}}) {
    if (h->count() == 0) continue;
    for (std::uint32_t q : LatencyChartQuantiles()) quantiles->emplace_back(q, h->Quantile(q));
  }
}

}  // namespace

ChartsReport BuildChartsReport(const ReplayResult& result, const Report& report) {
  ChartsReport out;
  out.max_windows = ChartWindowLimit(report.arrivals);
  const std::size_t instances = report.instances.size();

  // The widest buckets of any run set the grid every run is cut into.
  std::vector<const ChartSeries*> series;
  bool any = false;
  int top = 0;
  double base = 1.0;
  for (const WhatIfOutcome& outcome : result.what_if) {
    const ChartSeries* s = outcome.timeline ? outcome.timeline->charts() : nullptr;
    series.push_back(s && s->begun() ? s : nullptr);
    if (!series.back()) continue;
    top = any ? std::max(top, s->exponent()) : s->exponent();
    base = s->base();
    any = true;
  }

  // The narrowest multiplier m of the widest buckets (1, 2, 5, 10, ...)
  // whose windows, aligned at multiples of m buckets, number at most
  // max_windows over the runs' common range.
  std::int64_t m = 1, lo = 0, hi = -1;
  if (any) {
    for (;; m = NextMultiplier(m)) {
      bool first = true;
      for (const ChartSeries* s : series) {
        if (!s) continue;
        const auto [a, b] = HeldRange(*s, top);
        lo = first ? a / m : std::min(lo, a / m);
        hi = first ? b / m : std::max(hi, b / m);
        first = false;
      }
      if (static_cast<std::size_t>(hi - lo + 1) <= out.max_windows) break;
    }
    out.window = ChartSeries::Boundary(base, top, m);
  }

  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& strategy = report.strategies[r];
    StrategyChartsReport charts;
    const ChartSeries* s = r < series.size() ? series[r] : nullptr;
    if (!s) {
      AddEngineQuantiles(result.what_if[r], charts);
      out.strategies.push_back(std::move(charts));
      continue;
    }
    // Reason words in the report's order; the series's slot of each.
    std::vector<std::size_t> slot_of(s->reasons().size(), 0);
    for (const auto& [word, count] : strategy.reasons) {
      const auto at = std::find(s->reasons().begin(), s->reasons().end(), word);
      if (at == s->reasons().end()) continue;
      slot_of[static_cast<std::size_t>(at - s->reasons().begin())] = charts.reasons.size();
      charts.reasons.push_back(word);
    }
    const bool others = std::any_of(s->buckets().begin(), s->buckets().end(),
                                    [](const ChartSeries::Bucket& b) { return b.other_reasons > 0; });
    if (others) charts.reasons.push_back(kOtherReasons);

    std::vector<std::vector<double>> area(static_cast<std::size_t>(hi - lo + 1),
                                          std::vector<double>(instances, 0.0));
    for (std::int64_t q = lo; q <= hi; ++q) {
      ChartWindowReport w;
      w.start = ChartSeries::Boundary(base, top, q * m);
      w.end = ChartSeries::Boundary(base, top, (q + 1) * m);
      w.by_reason.assign(charts.reasons.size(), 0);
      w.selections.assign(instances, 0);
      charts.windows.push_back(std::move(w));
    }
    for (std::size_t j = 0; j < s->buckets().size(); ++j) {
      const ChartSeries::Bucket& b = s->buckets()[j];
      const std::int64_t k = Widen(s->first() + static_cast<std::int64_t>(j), top - s->exponent());
      const auto at = static_cast<std::size_t>(k / m - lo);
      ChartWindowReport& w = charts.windows[at];
      w.decisions += b.decisions;
      w.herded += b.herded;
      for (std::size_t slot = 0; slot < b.by_reason.size(); ++slot)
        w.by_reason[slot_of[slot]] += b.by_reason[slot];
      if (others) w.by_reason.back() += b.other_reasons;
      for (std::size_t i = 0; i < b.selections.size() && i < instances; ++i)
        w.selections[i] += b.selections[i];
      for (std::size_t i = 0; i < b.inflight_area.size() && i < instances; ++i)
        area[at][i] += b.inflight_area[i];
    }
    const LoadTimeline& timeline = *result.what_if[r].timeline;
    for (std::size_t at = 0; at < charts.windows.size(); ++at) {
      ChartWindowReport& w = charts.windows[at];
      const double covered = std::min(w.end, timeline.span_end()) -
                             std::max(w.start, timeline.span_start());
      for (std::size_t i = 0; i < instances; ++i)
        w.mean_inflight.push_back(Ratio(area[at][i], covered));
    }
    if (const auto& run = s->longest_herding_run())
      charts.longest_herding_run =
          HerdingRunReport{result.instances.Id(run->instance), run->length, run->first, run->last};
    if (const ServiceModel* service = result.what_if[r].service.get()) {
      const std::vector<double> values = service->latencies().Quantiles(LatencyChartQuantiles());
      for (std::size_t k = 0; k < values.size(); ++k)
        charts.latency_quantiles.emplace_back(LatencyChartQuantiles()[k], values[k]);
    }
    AddEngineQuantiles(result.what_if[r], charts);
    out.strategies.push_back(std::move(charts));
  }
  return out;
}

}  // namespace lbsim
