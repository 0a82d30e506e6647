// The what-if figures of a report: service latencies, utilisation, load over
// time and per-window series, derived from a strategy run's WhatIfOutcome.

#include <algorithm>

#include "sim/report/report.h"

namespace lbsim {
namespace {

std::optional<double> Ratio(double part, double whole) {
  if (!(whole > 0.0)) return std::nullopt;
  return part / whole;
}

// `capacity`: slot time over the run's span; `offered_capacity`: over the
// trace's span (first to last event).
ServiceFigures Figures(LatencySummary latency, double busy_area, double capacity,
                       double offered_capacity) {
  return ServiceFigures{latency, Ratio(busy_area, capacity), Ratio(busy_area, offered_capacity)};
}

WindowReport Window(const WindowSeries& series, std::size_t k, std::size_t instances,
                    double span_start, double span_end) {
  const WindowSeries::Window& w = series.windows()[k];
  WindowReport out;
  out.start = series.Start(k);
  out.end = series.End(k);
  out.decisions = w.decisions;
  out.no_instances = w.no_instances;
  out.fallback = w.fallback;
  out.fallback_rate = Ratio(static_cast<double>(w.fallback), static_cast<double>(w.decisions));
  const double chose = static_cast<double>(w.decisions - w.no_instances);
  const double covered = std::min(out.end, span_end) - std::max(out.start, span_start);
  for (InstanceIndex i = 0; i < instances; ++i) {
    const std::uint64_t picks = i < w.selections.size() ? w.selections[i] : 0;
    const double area = i < w.inflight_area.size() ? w.inflight_area[i] : 0.0;
    out.selections.push_back(picks);
    out.share.push_back(chose > 0 ? static_cast<double>(picks) / chose : 0.0);
    out.mean_inflight.push_back(Ratio(area, covered));
  }
  return out;
}

}  // namespace

WhatIfReport BuildWhatIfReport(const ReplayResult& result, std::size_t r) {
  const WhatIfOutcome& outcome = result.what_if[r];
  const LoadTimeline& timeline = *outcome.timeline;
  const std::size_t instances = result.instances.size();
  WhatIfReport out;
  out.span_start = timeline.span_start();
  out.span_end = timeline.span_end();
  const double span = out.span_end - out.span_start;

  for (InstanceIndex i = 0; i < instances; ++i) {
    out.inflight_mean.push_back(Ratio(timeline.outstanding().Area(i), span));
    out.inflight_peak.push_back(timeline.outstanding().Peak(i));
  }

  const ServiceModel* service = outcome.service.get();
  if (service) {
    const double slots = static_cast<double>(service->slots());
    const double slot_span = slots * span;
    const double offered_span = slots * (result.last_event_time - out.span_start);
    double busy_total = 0.0;
    for (InstanceIndex i = 0; i < instances; ++i) {
      const double busy = service->busy().Area(i);
      busy_total += busy;
      out.instance_service.push_back(
          Figures(service->latencies().Of(i), busy, slot_span, offered_span));
    }
    const double n = static_cast<double>(instances);
    out.service = Figures(service->latencies().Overall(), busy_total, slot_span * n,
                          offered_span * n);
  }

  if (const WindowSeries* series = timeline.windows()) {
    for (std::size_t k = 0; k < series->windows().size(); ++k)
      out.windows.push_back(Window(*series, k, instances, out.span_start, out.span_end));
    if (service) {
      const std::vector<LatencySummary> by_window = service->latencies().ByWindow(
          [series](double t) { return series->Position(t); }, out.windows.size());
      for (std::size_t k = 0; k < out.windows.size(); ++k) out.windows[k].service = by_window[k];
    }
  }
  if (outcome.engine)
    AddEngineFigures(*outcome.engine, instances, result.header.time_unit,
                     result.options.engine.config->kv_blocks, out);
  return out;
}

}  // namespace lbsim
