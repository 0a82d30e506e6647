// The LLM engine model's figures in a report: per-request latency
// distributions, token counts and rates, KV utilisation and batch size,
// per Instance, for the whole run and per window.

#include <algorithm>

#include "base/time_units.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

std::optional<double> Ratio(double part, double whole) {
  if (!(whole > 0.0)) return std::nullopt;
  return part / whole;
}

DistributionSummary Summary(const LogHistogram& h) {
  DistributionSummary d;
  d.count = h.count();
  if (d.count == 0) return d;
  d.p50 = h.Percentile(50);
  d.p90 = h.Percentile(90);
  d.p99 = h.Percentile(99);
  d.max = h.max();
  d.mean = h.sum() / static_cast<double>(d.count);
  return d;
}

// `span` and `seconds` (the span in seconds) are the run's.
EngineFigures Figures(const EngineCounters& c, const EngineLatencies& l, double batch_area,
                      std::int64_t batch_peak, double kv_area, std::int64_t kv_peak,
                      double kv_blocks, double span, double seconds) {
  EngineFigures f;
  f.counters = c;
  f.queue_delay = Summary(l.queue_delay);
  f.ttft = Summary(l.ttft);
  f.tpot = Summary(l.tpot);
  f.itl = Summary(l.itl);
  f.e2e = Summary(l.e2e);
  f.prefix_hit_rate = Ratio(static_cast<double>(c.prefix_hit_tokens), static_cast<double>(c.input_tokens));
  f.output_tokens_per_s = Ratio(static_cast<double>(c.output_tokens), seconds);
  f.tokens_per_s = Ratio(static_cast<double>(c.prefill_tokens + c.decode_tokens), seconds);
  f.kv_utilisation_mean = Ratio(kv_area, span * kv_blocks);
  f.kv_utilisation_peak = static_cast<double>(kv_peak) / kv_blocks;
  f.batch_mean = Ratio(batch_area, span);
  f.batch_peak = batch_peak;
  return f;
}

}  // namespace

SloFigures BuildSloFigures(const EngineCounters& c, const SloOptions& slo,
                           const std::string& time_unit, std::uint64_t never_forwarded,
                           double seconds) {
  SloFigures f;
  f.limits = ResolveSlo(slo, TraceUnitsPerMicrosecond(time_unit));
  f.requests = c.served + c.rejected + never_forwarded;
  const double n = static_cast<double>(f.requests);
  auto share = [&](bool given, std::uint64_t met) -> std::optional<double> {
    if (!given) return std::nullopt;
    return Ratio(static_cast<double>(met), n);
  };
  f.ttft = share(slo.ttft.has_value(), c.slo_ttft);
  f.tpot = share(slo.tpot.has_value(), c.slo_tpot);
  f.e2e = share(slo.e2e.has_value(), c.slo_e2e);
  f.all = share(true, c.slo_all);
  f.requests_per_s = Ratio(static_cast<double>(c.slo_all), seconds);
  f.output_tokens_per_s = Ratio(static_cast<double>(c.slo_output_tokens), seconds);
  return f;
}

void AddEngineFigures(const EngineStats& stats, std::size_t instances,
                      const std::string& time_unit, std::uint64_t kv_blocks, WhatIfReport& out) {
  const double span = out.span_end - out.span_start;
  const double seconds = span * (time_unit == "ms" ? 1e-3 : 1.0);
  const double blocks = static_cast<double>(kv_blocks);
  EngineCounters all;
  EngineLatencies all_latencies;
  double batch_area = 0.0, kv_area = 0.0;
  std::int64_t batch_peak = 0, kv_peak = 0;
  for (InstanceIndex i = 0; i < instances; ++i) {
    const EngineCounters& c = stats.counters(i);
    const EngineLatencies& l = stats.latencies(i);
    all.Add(c);
    all_latencies.Merge(l);
    batch_area += stats.batch().Area(i);
    kv_area += stats.kv().Area(i);
    batch_peak = std::max(batch_peak, stats.batch().Peak(i));
    kv_peak = std::max(kv_peak, stats.kv().Peak(i));
    out.instance_engine.push_back(Figures(c, l, stats.batch().Area(i), stats.batch().Peak(i),
                                          stats.kv().Area(i), stats.kv().Peak(i), blocks, span,
                                          seconds));
  }
  // Over all Instances: the mean batch and utilisation of an average
  // Instance, the largest peak of any.
  const double n = static_cast<double>(std::max<std::size_t>(instances, 1));
  out.engine = Figures(all, all_latencies, batch_area / n, batch_peak, kv_area / n, kv_peak,
                       blocks, span, seconds);

  for (std::size_t k = 0; k < out.windows.size(); ++k) {
    WindowReport& w = out.windows[k];
    const double covered = std::min(w.end, out.span_end) - std::max(w.start, out.span_start);
    EngineWindowReport e;
    for (InstanceIndex i = 0; i < instances; ++i) {
      EngineStats::WindowCell cell;
      if (k < stats.windows().size() && i < stats.windows()[k].size()) cell = stats.windows()[k][i];
      e.output_tokens.push_back(cell.output_tokens);
      e.batch_mean.push_back(Ratio(cell.batch_area, covered));
      e.kv_utilisation.push_back(Ratio(cell.kv_area, covered * blocks));
      e.ttft_mean.push_back(Ratio(cell.ttft_sum, static_cast<double>(cell.ttft_count)));
    }
    w.engine = std::move(e);
  }
}

}  // namespace lbsim
