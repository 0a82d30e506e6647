#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbsim {

struct ReplayResult;
struct StrategyReport;
struct ProxyReport;

// What the detectors found in one strategy run. Each detector's rule is in
// docs/ci-gates.md ("Detectors"); a detector that fires adds the warning of
// its name (sim/report/warning.h).
struct DetectorReport {
  // unknown_starvation: Instances never chosen in at least as many
  // decisions where only their load was unknown as there were candidates.
  std::vector<std::string> starved;

  // concentration: Instances whose share is at least twice their expected
  // share, at least 10 points above it, and beyond three standard
  // deviations of picks at the expected share.
  struct Concentrated {
    std::string instance;
    double share = 0.0;
    double expected_share = 0.0;
  };
  std::vector<Concentrated> concentrated;

  // herding: decisions inside runs of one Instance that herd, and inside
  // stretches alternating between two Instances that herd; it fires when
  // they are at least 5% of the decisions (a live balancer that fills a
  // drained Instance makes the odd long run).
  std::uint64_t run_decisions = 0;
  std::uint64_t alternation_decisions = 0;
  bool herding_fires = false;
  struct Stretch {
    std::vector<std::string> instances;  // one (a run) or two (alternation)
    std::uint64_t length = 0;
    std::uint64_t first_seq = 0;
  };
  std::optional<Stretch> longest_herding_run;
  std::optional<Stretch> longest_alternation;

  // overload (service model only): the highest offered utilisation of an
  // Instance, the Instances at or above 1 that made a request wait, and the
  // most consecutive windows in which the mean queue wait grew.
  bool service = false;  // the service model was on: these figures exist
  std::optional<double> offered_utilisation;
  std::vector<std::string> overloaded;
  std::size_t growing_windows = 0;  // windows in the longest growing streak
  double growth_from = 0.0, growth_to = 0.0;  // its first and last mean wait
  bool growth_fires = false;

  // fallback_burst: windows (the whole run without --window) of at least
  // 10 decisions in which at least half fell back.
  std::size_t burst_windows = 0;
  std::optional<double> highest_burst_rate;
  std::optional<std::size_t> first_burst_window;  // index into the windows

  bool ConcentrationFires() const { return !concentrated.empty(); }
  bool HerdingFires() const { return herding_fires; }
  bool OverloadFires() const { return !overloaded.empty() || growth_fires; }
  bool FallbackBurstFires() const { return burst_windows > 0; }
};

// Runs the detectors over strategy run `r` of `result`, whose report `s`
// has its selections, shares and what-if figures: sets s.expected_share,
// s.detectors and s.herded_decisions.
void RunDetectors(StrategyReport& s, const ReplayResult& result, std::size_t r);
// Adds s's warnings, named, from its detectors and counts; `proxy` names
// the Proxy in their texts.
void AddWarnings(StrategyReport& s, const ProxyReport& proxy);

}  // namespace lbsim
