#include "sim/report/report.h"

#include <fmt/format.h>

namespace lbsim {
namespace {

std::string Percent(std::uint64_t part, std::uint64_t whole) {
  return fmt::format("{:.1f}%", whole ? 100.0 * static_cast<double>(part) /
                                            static_cast<double>(whole)
                                      : 0.0);
}

// "1 decision", "2 decisions".
std::string Decisions(std::uint64_t n) {
  return fmt::format("{} decision{}", n, n == 1 ? "" : "s");
}

// "1 arrival", "2 arrivals".
std::string Arrivals(std::uint64_t n) {
  return fmt::format("{} arrival{}", n, n == 1 ? "" : "s");
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
  if (p.ignored_inflight > 0)
    p.warnings.push_back(fmt::format(
        "{} inflight value{} of load/up events ignored: {} {} (--proxy spec or "
        "cacheroute@df8382d replay the trace's own inflight values)",
        p.ignored_inflight, p.ignored_inflight == 1 ? "" : "s", profile.name,
        profile.counts_requests() ? "counts its own requests; heartbeats do not set inflight"
                                  : "applies no null from a heartbeat"));
  if (p.ignored_null_qps_1m > 0)
    p.warnings.push_back(fmt::format(
        "{} qps_1m null{} of load/up events left the value as it was: a Proxy heartbeat "
        "applies only the values it carries",
        p.ignored_null_qps_1m, p.ignored_null_qps_1m == 1 ? "" : "s"));
  return p;
}

void AddWarnings(StrategyReport& s, const ProxyReport& proxy) {
  std::uint64_t candidates = 0;  // Instances that were ever a candidate
  for (const InstanceReport& i : s.instances)
    if (i.candidate_decisions > 0) ++candidates;
  for (const InstanceReport& i : s.instances) {
    // At least as many contested decisions as candidates without one pick:
    // a rotation would have reached it, so its unknown load kept it out.
    if (i.unknown_while_others_known >= candidates && i.chosen_while_unknown == 0) {
      s.warnings.push_back(fmt::format(
          "{} was never chosen in the {} where its load was unknown and "
          "another candidate's was known (unknown starvation)",
          i.id, Decisions(i.unknown_while_others_known)));
    } else if (i.candidate_decisions > 0 && i.selections == 0) {
      s.warnings.push_back(fmt::format(
          "{} was a candidate in {} and was never chosen", i.id,
          Decisions(i.candidate_decisions)));
    }
  }
  if (s.herded_decisions > 0 && s.longest_run_instance) {
    s.warnings.push_back(fmt::format(
        "{} of {} ({}) fell in runs of one Instance longer than the "
        "number of candidates; longest: {} chosen {} times in a row from "
        "arrival {} (herding)",
        s.herded_decisions, Decisions(s.decisions), Percent(s.herded_decisions, s.decisions),
        *s.longest_run_instance, s.longest_run, s.longest_run_first_seq));
  }
  if (s.no_instances > 0) {
    s.warnings.push_back(fmt::format(
        "{} found no alive Instance (no_instances)", s.no_instances == 1 ? "1 arrival" : fmt::format("{} arrivals", s.no_instances)));
  }
  if (s.refused > 0)
    s.warnings.push_back(fmt::format(
        "{} refused: the strategy raised, as the Proxy's select() does on a NaN score "
        "or a hint integer past the double range, and the Proxy answers 503 (refused)",
        Arrivals(s.refused)));
  if (s.never_completed > 0)
    s.warnings.push_back(fmt::format(
        "{} routed without a duration: {} counts every routed request, so each stays in "
        "its Instance's inflight for the rest of the trace",
        Arrivals(s.never_completed), proxy.profile));
  if (s.replays_proxy == false)
    s.warnings.push_back(fmt::format(
        "parameters changed from {}'s {}: this run is not the pinned Proxy", proxy.profile,
        s.strategy));
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
    s.herded_decisions = m.herded_decisions();
    if (m.requested_blocks() > 0)
      s.prefix_cache = PrefixCacheReport{
          result.options.cache_blocks, m.requested_blocks(), m.matched_blocks(),
          static_cast<double>(m.matched_blocks()) / static_cast<double>(m.requested_blocks())};
    AddWarnings(s, report.proxy);
    if (result.options.any()) s.what_if = BuildWhatIfReport(result, r);
    report.strategies.push_back(std::move(s));
  }
  if (result.options.charts) report.charts = BuildChartsReport(result, report);
  return report;
}

}  // namespace lbsim
