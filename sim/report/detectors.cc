// The detectors: rules over a strategy run's report and metrics that name a
// hazard. Every rule is computed here, at report time, from figures the
// replay already collected; docs/ci-gates.md states them for users.

#include "sim/report/detectors.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/expected_share.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

// A stretch of picks herds only when a chooser picking each Instance at its
// expected share would give one that long less often than this.
constexpr double kUnlikely = 0.001;

// Whether a run of `length` picks of one Instance, whose expected share
// among its `candidates` candidates is `p`, herds: longer than the
// candidates, and, for an Instance its weight or speed favours (p above
// 1/candidates), also unlikely at that share.
bool RunHerds(std::uint64_t length, std::size_t candidates, double p) {
  const double n = static_cast<double>(candidates);
  if (length <= candidates) return false;
  if (p <= (1.0 / n) * (1.0 + 1e-9)) return true;
  return std::pow(p, static_cast<double>(length)) < kUnlikely;
}

// Whether a stretch of `length` picks alternating between two Instances,
// whose expected share together is `p`, herds: longer than twice the
// candidates and unlikely at that share.
bool AlternationHerds(std::uint64_t length, std::size_t candidates, double p) {
  if (length <= 2 * candidates || p >= 1.0) return false;
  return std::pow(p, static_cast<double>(length)) < kUnlikely;
}

std::string Percent(double fraction) { return fmt::format("{:.1f}%", 100.0 * fraction); }

std::string Percent(std::uint64_t part, std::uint64_t whole) {
  return Percent(whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0);
}

// "1 decision", "2 decisions".
std::string Decisions(std::uint64_t n) {
  return fmt::format("{} decision{}", n, n == 1 ? "" : "s");
}

// "1 arrival", "2 arrivals".
std::string Arrivals(std::uint64_t n) {
  return fmt::format("{} arrival{}", n, n == 1 ? "" : "s");
}

// The proxy_differs warning: how many decisions differ from the recorded
// Proxy's, and the first with what the strategy saw (at most eight of its
// candidates; the JSON report has them all).
std::string ProxyDiffersText(const ProxyChoicesReport& p) {
  const ProxyChoiceCheck::Difference& d = *p.first_difference;
  auto named = [](const std::optional<std::string>& id) {
    return id ? *id : std::string("none");
  };
  std::string seen;
  constexpr std::size_t kShown = 8;
  for (std::size_t k = 0; k < d.candidates.size() && k < kShown; ++k) {
    const ProxyChoiceCheck::SeenCandidate& c = d.candidates[k];
    std::string load = fmt::format("inflight {}, qps_1m {}",
                                   c.inflight ? std::to_string(*c.inflight) : "unknown",
                                   c.qps_1m ? fmt::format("{}", *c.qps_1m) : "unknown");
    for (const auto& [key, value] : c.queue) load += fmt::format(", {} {}", key, value);
    seen += fmt::format("{}{} ({})", k ? "; " : "", c.id, load);
  }
  if (d.candidates.size() > kShown) seen += fmt::format("; and {} more", d.candidates.size() - kShown);
  if (d.candidates.empty()) seen = "none alive";
  return fmt::format(
      "{} of {} decisions differ from the recorded Proxy's choices; the first, arrival {} (request {}, "
      "t {}): the Proxy chose {}, this run {} ({}); candidates: {} (proxy_differs)",
      p.compared - p.equal, p.compared, d.seq, d.request, d.t,
      named(d.proxy), named(d.chosen), d.reason, seen);
}

bool HasReason(const StrategyReport& s, std::string_view word) {
  return std::any_of(s.reasons.begin(), s.reasons.end(),
                     [&](const auto& r) { return r.first == word; });
}

void FindStarved(StrategyReport& s) {
  std::uint64_t candidates = 0;  // Instances that were ever a candidate
  for (const InstanceReport& i : s.instances)
    if (i.candidate_decisions > 0) ++candidates;
  for (const InstanceReport& i : s.instances)
    // At least as many contested decisions as candidates without one pick:
    // a rotation would have reached it, so its unknown load kept it out.
    if (i.unknown_while_others_known >= candidates && i.chosen_while_unknown == 0)
      s.detectors.starved.push_back(i.id);
}

void FindConcentration(StrategyReport& s) {
  const std::uint64_t chose = s.decisions - s.no_instances - s.refused;
  const double n = static_cast<double>(chose);
  for (std::size_t k = 0; k < s.instances.size(); ++k) {
    const InstanceReport& i = s.instances[k];
    const double expected = s.expected_share[k];
    if (chose == 0 || !(expected > 0.0)) continue;
    const double excess = static_cast<double>(i.selections) - n * expected;
    if (i.share >= 2.0 * expected && i.share - expected >= 0.10 &&
        excess > 3.0 * std::sqrt(n * expected * (1.0 - expected)))
      s.detectors.concentrated.push_back({i.id, i.share, expected});
  }
}

// Keeps the longer of `best` and a stretch of `length` from `first_seq`.
void Longest(std::optional<DetectorReport::Stretch>& best, std::vector<std::string> instances,
             std::uint64_t length, std::uint64_t first_seq) {
  if (best && (best->length > length || (best->length == length && best->first_seq <= first_seq)))
    return;
  best = DetectorReport::Stretch{std::move(instances), length, first_seq};
}

void FindHerding(StrategyReport& s, const RunMetrics& m, const ExpectedShares& shares) {
  DetectorReport& d = s.detectors;
  for (const auto& [key, stretches] : m.long_runs()) {
    const auto& [instance, candidates, length] = key;
    if (!RunHerds(length, candidates, shares.AmongCandidates({instance}, candidates))) continue;
    d.run_decisions += length * stretches.count;
    Longest(d.longest_herding_run, {s.instances[instance].id}, length, stretches.first_seq);
  }
  for (const auto& [key, stretches] : m.alternations()) {
    const auto& [a, b, candidates, length] = key;
    if (!AlternationHerds(length, candidates, shares.AmongCandidates({a, b}, candidates)))
      continue;
    d.alternation_decisions += length * stretches.count;
    Longest(d.longest_alternation, {s.instances[a].id, s.instances[b].id}, length,
            stretches.first_seq);
  }
  s.herded_decisions = d.run_decisions;
  const std::uint64_t herded = d.run_decisions + d.alternation_decisions;
  d.herding_fires = herded > 0 && 20 * herded >= s.decisions;
}

void FindOverload(StrategyReport& s) {
  DetectorReport& d = s.detectors;
  if (!s.what_if || !s.what_if->service) return;
  const WhatIfReport& w = *s.what_if;
  d.service = true;
  for (std::size_t k = 0; k < w.instance_service.size(); ++k) {
    const ServiceFigures& f = w.instance_service[k];
    if (!f.offered_utilisation) continue;
    if (!d.offered_utilisation || *f.offered_utilisation > *d.offered_utilisation)
      d.offered_utilisation = f.offered_utilisation;
    if (*f.offered_utilisation >= 1.0 && f.latency.served > 0 && f.latency.wait_max > 0.0)
      d.overloaded.push_back(s.instances[k].id);
  }
  // The longest streak of windows, each with served arrivals, in which the
  // mean queue wait rose from one window to the next.
  std::size_t streak = 0;
  double from = 0.0, previous = 0.0;
  for (const WindowReport& win : w.windows) {
    if (!win.service || win.service->served == 0) {
      streak = 0;
      continue;
    }
    const double wait = win.service->mean_wait;
    if (streak > 0 && wait > previous) {
      ++streak;
    } else {
      streak = 1;
      from = wait;
    }
    previous = wait;
    if (streak > d.growing_windows) {
      d.growing_windows = streak;
      d.growth_from = from;
      d.growth_to = wait;
    }
  }
  const LatencySummary& all = w.service->latency;
  const double service_time = all.served ? all.mean - all.mean_wait : 0.0;
  d.growth_fires = d.growing_windows >= 4 && d.growth_to >= 2.0 * d.growth_from &&
                   d.growth_to >= service_time && d.growth_to > 0.0;
}

void FindFallbackBursts(StrategyReport& s) {
  DetectorReport& d = s.detectors;
  if (!HasReason(s, "fallback")) return;
  auto burst = [&](std::uint64_t decisions, std::uint64_t fallback, std::optional<std::size_t> k) {
    if (decisions < 10 || 2 * fallback < decisions) return;
    const double rate = static_cast<double>(fallback) / static_cast<double>(decisions);
    if (d.burst_windows++ == 0) d.first_burst_window = k;
    if (!d.highest_burst_rate || rate > *d.highest_burst_rate) d.highest_burst_rate = rate;
  };
  if (s.what_if && !s.what_if->windows.empty()) {
    for (std::size_t k = 0; k < s.what_if->windows.size(); ++k)
      burst(s.what_if->windows[k].decisions, s.what_if->windows[k].fallback, k);
  } else {
    burst(s.decisions, s.fallback_decisions, std::nullopt);
  }
}

std::string ConcentrationText(const DetectorReport& d) {
  std::string out;
  for (const DetectorReport::Concentrated& c : d.concentrated)
    out += fmt::format("{}{} took {} of the picks, where its weight and speed justify {}",
                       out.empty() ? "" : "; ", c.instance, Percent(c.share),
                       Percent(c.expected_share));
  return out + " (concentration)";
}

std::string OverloadText(const DetectorReport& d) {
  std::vector<std::string> parts;
  if (!d.overloaded.empty()) {
    std::string ids;
    for (const std::string& id : d.overloaded) ids += (ids.empty() ? "" : ", ") + id;
    parts.push_back(fmt::format(
        "the work routed to {} needs more slot time than the trace lasts (offered "
        "utilisation up to {:.2f}), so queues only grow",
        ids, *d.offered_utilisation));
  }
  if (d.growth_fires) {
    parts.push_back(fmt::format("the mean queue wait grew in {} windows in a row, from {:.3f} to {:.3f}",
                                d.growing_windows, d.growth_from, d.growth_to));
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out + " (overload)";
}

}  // namespace

void RunDetectors(StrategyReport& s, const ReplayResult& result, std::size_t r) {
  const RunMetrics& m = result.metrics[r];
  std::vector<std::uint64_t> candidate_decisions;
  for (const InstanceReport& i : s.instances) candidate_decisions.push_back(i.candidate_decisions);
  ExpectedShares shares(std::move(candidate_decisions), result.weights,
                        result.options.service() ? result.speeds : std::vector<double>{});
  s.expected_share.clear();
  for (std::size_t i = 0; i < s.instances.size(); ++i) s.expected_share.push_back(shares.OfRun(i));
  s.detectors = DetectorReport{};
  FindStarved(s);
  FindConcentration(s);
  FindHerding(s, m, shares);
  FindOverload(s);
  FindFallbackBursts(s);
}

void AddWarnings(StrategyReport& s, const ProxyReport& proxy) {
  const DetectorReport& d = s.detectors;
  auto warn = [&](std::string_view name, std::string text) {
    s.warnings.push_back(Warning{std::string(name), std::move(text)});
  };
  for (const InstanceReport& i : s.instances) {
    if (std::find(d.starved.begin(), d.starved.end(), i.id) != d.starved.end()) {
      warn("unknown_starvation",
           fmt::format("{} was never chosen in the {} where its load was unknown and "
                       "another candidate's was known (unknown starvation)",
                       i.id, Decisions(i.unknown_while_others_known)));
    } else if (i.candidate_decisions > 0 && i.selections == 0) {
      warn("never_chosen", fmt::format("{} was a candidate in {} and was never chosen", i.id,
                                       Decisions(i.candidate_decisions)));
    }
  }
  if (d.ConcentrationFires()) warn("concentration", ConcentrationText(d));
  if (d.HerdingFires() && d.run_decisions > 0) {
    const DetectorReport::Stretch& run = *d.longest_herding_run;
    warn("herding",
         fmt::format("{} of {} ({}) fell in runs of one Instance longer than the "
                     "number of candidates; longest: {} chosen {} times in a row from "
                     "arrival {} (herding)",
                     d.run_decisions, Decisions(s.decisions), Percent(d.run_decisions, s.decisions),
                     run.instances[0], run.length, run.first_seq));
  }
  if (d.HerdingFires() && d.alternation_decisions > 0) {
    const DetectorReport::Stretch& alt = *d.longest_alternation;
    warn("herding",
         fmt::format("{} of {} ({}) fell in stretches that alternated between two Instances "
                     "far beyond their expected share; longest: {} and {}, {} decisions in a "
                     "row from arrival {} (herding)",
                     d.alternation_decisions, Decisions(s.decisions),
                     Percent(d.alternation_decisions, s.decisions), alt.instances[0],
                     alt.instances[1], alt.length, alt.first_seq));
  }
  if (d.OverloadFires()) warn("overload", OverloadText(d));
  if (d.FallbackBurstFires()) {
    std::string where = "over the whole run";
    if (d.first_burst_window) {
      const WindowReport& w = s.what_if->windows[*d.first_burst_window];
      where = fmt::format("in {} window{}, the first [{}, {})", d.burst_windows,
                          d.burst_windows == 1 ? "" : "s", w.start, w.end);
    }
    warn("fallback_burst",
         fmt::format("no candidate's load was known and the strategy fell back on at least "
                     "half of the decisions {} (up to {}) (fallback burst)",
                     where, Percent(*d.highest_burst_rate)));
  }
  if (s.no_instances > 0)
    warn("no_instances", fmt::format("{} found no alive Instance (no_instances)",
                                     Arrivals(s.no_instances)));
  if (s.refused > 0)
    warn("refused",
         fmt::format("{} refused: the strategy raised, as the Proxy's select() does on a NaN "
                     "score or a hint integer past the double range, and the Proxy answers "
                     "503 (refused)",
                     Arrivals(s.refused)));
  if (s.never_completed > 0)
    warn("never_completed",
         fmt::format("{} routed without a duration: {} counts every routed request, so each "
                     "stays in its Instance's inflight for the rest of the trace",
                     Arrivals(s.never_completed), proxy.profile));
  if (s.proxy_choices && s.proxy_choices->self_check &&
      s.proxy_choices->equal < s.proxy_choices->compared)
    warn("proxy_differs", ProxyDiffersText(*s.proxy_choices));
  if (s.proxy_queue && s.proxy_queue->stuck > 0)
    warn("stuck",
         s.proxy_queue->stalled_behind_completions
             ? fmt::format("{} never forwarded by the Proxy queue: they wait behind a "
                           "completions-route request that ended but stays on its Instance's "
                           "pending list, which {} never clears (fixed by 0927797, first in "
                           "cacheroute@28e857c) (stuck)",
                           Arrivals(s.proxy_queue->stuck), proxy.profile)
             : fmt::format("{} never forwarded or never ended by the Proxy queue (stuck)",
                           Arrivals(s.proxy_queue->stuck)));
  if (s.what_if && s.what_if->engine && s.what_if->engine->counters.rejected > 0)
    warn("engine_rejected",
         fmt::format("{} rejected by the engine model: prompt and output do not fit an "
                     "Instance's whole KV cache, so they are in no latency figure "
                     "(engine_rejected)",
                     Arrivals(s.what_if->engine->counters.rejected)));
  if (s.replays_proxy == false)
    warn("parameters_changed",
         fmt::format("parameters changed from {}'s {}: this run is not the pinned Proxy",
                     proxy.profile, s.strategy));
}

}  // namespace lbsim
