#include "sim/report/report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace lbsim {
namespace {

// Whether `request`'s run is the recording's self-check (ProxyChoicesReport).
bool IsSelfCheck(const ReplayResult& result, const StrategyRequest& request,
                 std::optional<bool> replays_proxy) {
  const TraceHeader& h = result.header;
  if (h.proxy_strategy.empty() || replays_proxy != true) return false;
  const StrategyInfo* ran = StrategyRegistry::Builtin().Find(h.proxy_strategy);
  if (!ran || ran->name != request.info->name) return false;
  if (h.proxy && h.proxy != result.proxy.profile) return false;
  const SimOptions& o = result.options;
  return !o.service() && !o.stale() && !o.engine_model() && !o.proxy_queue.on;
}

ProxyReport BuildProxyReport(const ReplayResult& result) {
  const ProxyProfile& profile = *result.proxy.profile;
  ProxyReport p;
  p.profile = profile.name;
  if (profile.pinned()) p.python = PythonVersionName(result.proxy.python);
  p.least_load = LeastLoadFormName(profile.least_load);
  p.pinned = profile.pinned();
  p.ignored_inflight = result.ignored.inflight;
  p.ignored_null_qps_1m = result.ignored.null_qps_1m;
  // A counting profile ignores every inflight a heartbeat carries, so the
  // profiles that apply them are named; cacheroute@df8382d ignores only
  // nulls, as it does a null qps_1m, and applies the rest itself.
  if (p.ignored_inflight > 0 && profile.counts_requests())
    p.warnings.push_back(Warning{"ignored_inflight", fmt::format(
        "{} inflight value{} of load/up events ignored: {} counts its own requests; heartbeats "
        "do not set inflight (--proxy spec or cacheroute@df8382d replay the trace's own "
        "inflight values)",
        p.ignored_inflight, p.ignored_inflight == 1 ? "" : "s", profile.name)});
  else if (p.ignored_inflight > 0)
    p.warnings.push_back(Warning{"ignored_inflight", fmt::format(
        "{} inflight null{} of load/up events left the value as it was: {} applies only the "
        "values a heartbeat carries",
        p.ignored_inflight, p.ignored_inflight == 1 ? "" : "s", profile.name)});
  if (p.ignored_null_qps_1m > 0)
    p.warnings.push_back(Warning{"ignored_null_qps_1m", fmt::format(
        "{} qps_1m null{} of load/up events left the value as it was: a Proxy heartbeat "
        "applies only the values it carries",
        p.ignored_null_qps_1m, p.ignored_null_qps_1m == 1 ? "" : "s")});
  for (const KeyNearMiss& m : result.counts.near_misses)
    p.warnings.push_back(Warning{"misspelt_key", fmt::format(
        "event key \"{}\" (first at {}) is not a key of the trace format but one or two edits "
        "from \"{}\": it is passed over, as unknown keys are, and its value with it",
        m.key, m.where, m.known)});
  return p;
}

}  // namespace

Report BuildReport(const ReplayResult& result) {
  Report report;
  report.trace_path = result.trace_path;
  report.trace_name = result.header.name;
  report.trace_description = result.header.description;
  report.time_unit = result.header.time_unit;
  report.events = result.counts.events;
  report.arrivals = result.counts.arrivals;
  report.instances = result.instances.Ids();
  report.proxy = BuildProxyReport(result);
  if (result.options.any()) report.simulation = result.options;
  for (const WhatIfOutcome& w : result.what_if)
    report.engine_signals_read = report.engine_signals_read || w.reads_engine_signals;
  if (result.options.proxy_queue.on) report.proxy_queue = result.options.proxy_queue;

  for (std::size_t r = 0; r < result.requests.size(); ++r) {
    const StrategyRequest& request = result.requests[r];
    const RunMetrics& m = result.metrics[r];
    StrategyReport s;
    s.strategy = request.info->name;
    s.requested_as = request.requested_as;
    int earlier = 0;
    for (std::size_t k = 0; k < r; ++k)
      if (result.requests[k].info == request.info) ++earlier;
    s.label = earlier ? fmt::format("{}#{}", s.strategy, earlier + 1) : s.strategy;
    s.status = StatusName(request.info->status);
    s.params = request.params.Echoed();
    s.decisions = m.decisions();
    s.no_instances = m.no_instances();
    s.refused = m.refused();
    s.never_completed = m.never_completed();
    if (report.proxy.pinned && request.info->from_proxy) s.replays_proxy = request.ReplaysProxy();
    if (m.proxy_choices().compared() > 0) {
      ProxyChoicesReport& p = s.proxy_choices.emplace();
      p.compared = m.proxy_choices().compared();
      p.equal = m.proxy_choices().equal();
      p.first_difference = m.proxy_choices().first_difference();
      p.self_check = IsSelfCheck(result, request, s.replays_proxy);
    }
    s.fallback_decisions = m.ReasonCount("fallback");
    s.tie_decisions = m.ReasonCount("tie");
    s.unknown_excluded = m.unknown_excluded();
    for (std::size_t k = 0; k < m.reasons().size(); ++k)
      s.reasons.emplace_back(m.reasons()[k], m.reason_counts()[k]);

    const std::uint64_t chose = s.decisions - s.no_instances - s.refused;
    const std::size_t fallback = m.ReasonIndex("fallback");
    const std::size_t tie = m.ReasonIndex("tie");
    std::vector<double> counts, rates;
    for (InstanceIndex i = 0; i < result.instances.size(); ++i) {
      InstanceReport line;
      line.id = result.instances.Id(i);
      if (i < m.instances().size()) {
        const RunMetrics::InstanceTally& t = m.instances()[i];
        line.selections = t.selections;
        line.candidate_decisions = t.candidate_decisions;
        line.unknown_while_others_known = t.unknown_while_others_known;
        line.chosen_while_unknown = t.chosen_while_unknown;
        if (!t.by_reason.empty()) {
          if (fallback < t.by_reason.size()) line.fallback_selections = t.by_reason[fallback];
          if (tie < t.by_reason.size()) line.tie_selections = t.by_reason[tie];
        }
      }
      if (i < m.cached_blocks().size()) line.cached_blocks = m.cached_blocks()[i];
      line.share = chose ? static_cast<double>(line.selections) / static_cast<double>(chose) : 0.0;
      if (line.candidate_decisions > 0) {
        counts.push_back(static_cast<double>(line.selections));
        rates.push_back(static_cast<double>(line.selections) /
                        static_cast<double>(line.candidate_decisions));
      }
      s.instances.push_back(std::move(line));
    }
    s.fairness = ComputeFairness(counts, rates);
    if (m.longest_run().length > 0) {
      s.longest_run_instance = result.instances.Id(m.longest_run().instance);
      s.longest_run = m.longest_run().length;
      s.longest_run_first_seq = m.longest_run().first_seq;
    }
    if (m.requested_blocks() > 0)
      s.prefix_cache = PrefixCacheReport{
          result.options.cache_blocks, m.requested_blocks(), m.matched_blocks(),
          static_cast<double>(m.matched_blocks()) / static_cast<double>(m.requested_blocks())};
    if (result.options.any()) s.what_if = BuildWhatIfReport(result, r);
    if (r < result.what_if.size() && result.what_if[r].queue)
      s.proxy_queue = BuildProxyQueueFigures(*result.what_if[r].queue);
    if (s.what_if && s.what_if->engine && result.options.engine.slo.on()) {
      const WhatIfReport& w = *s.what_if;
      const double seconds =
          (w.span_end - w.span_start) * (result.header.time_unit == "ms" ? 1e-3 : 1.0);
      s.what_if->engine->slo = BuildSloFigures(s.what_if->engine->counters,
                                               result.options.engine.slo,
                                               result.header.time_unit,
                                               s.proxy_queue ? s.proxy_queue->stuck : 0, seconds);
    }
    RunDetectors(s, result, r);
    AddWarnings(s, report.proxy);
    report.strategies.push_back(std::move(s));
  }
  if (result.options.charts) report.charts = BuildChartsReport(result, report);
  return report;
}

ProxyQueueFigures BuildProxyQueueFigures(const ProxyQueueStats& stats) {
  // Exact nearest-rank percentiles: the value at 1-based rank ceil(p n / 100),
  // each selected from the part above the last one (no full sort). The mean
  // sums in record order.
  auto summarize = [](std::vector<double> values) {
    DistributionSummary d;
    d.count = values.size();
    if (values.empty()) return d;
    double sum = 0.0;
    for (double v : values) sum += v;
    d.mean = sum / static_cast<double>(values.size());
    auto from = values.begin();
    auto rank = [&](double p) {
      const double n = static_cast<double>(values.size());
      const auto k = static_cast<std::size_t>(std::ceil(p * n / 100.0));
      const auto nth = values.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(k, 1) - 1);
      std::nth_element(from, nth, values.end());
      from = nth;
      return *nth;
    };
    d.p50 = rank(50);
    d.p90 = rank(90);
    d.p99 = rank(99);
    d.max = *std::max_element(from, values.end());
    return d;
  };
  ProxyQueueFigures f;
  f.requests = stats.requests;
  f.forwarded = stats.forwarded;
  f.stuck = stats.stuck;
  f.stalled_behind_completions = stats.stalled_behind_completions;
  f.wait = summarize(stats.waits);
  f.client_ttft = summarize(stats.client_ttfts);
  f.end_to_end = summarize(stats.end_to_ends);
  return f;
}

}  // namespace lbsim
