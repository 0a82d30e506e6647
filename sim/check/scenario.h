#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/replay/sim_options.h"
#include "strategies/registry.h"
#include "traces/trace_reader.h"

namespace lbsim {

// The scenario format version this lbsim reads ("lbsim_scenario": 1).
inline constexpr int kScenarioVersion = 1;

// A JSON scalar written in a scenario, with its JSON text for messages.
struct ScenarioScalar {
  std::variant<std::nullptr_t, bool, double, std::string> value;
  std::string text;
};

// A number written in a scenario, with its JSON text for messages.
struct ScenarioNumber {
  double value = 0.0;
  std::string text;
};

enum class ExpectationKind {
  kValue,             // a report value, addressed by path, compared
  kNeverChoseDead,    // no decision chose an Instance that was not alive
  kEveryAliveChosen,  // every Instance ever a candidate was chosen >= min_times
  kSameDecisions,     // two strategies chose the same Instance at every arrival
  kChoices,           // the exact sequence of chosen Instances
  kWarning,           // a named warning is (or is not) in the report
};

// One expectation of a scenario, validated.
struct Expectation {
  std::string key;  // where it is in the file, e.g. "expect[2]"
  ExpectationKind kind = ExpectationKind::kValue;
  std::string why;  // optional note shown with a failure

  // kValue: "LABEL.KEY.KEY..." into the JSON report ("trace.KEY..." for the
  // trace section), and the comparison: eq alone, approx with tolerance, or
  // a lower bound (min inclusive, above strict) and/or an upper one (max
  // inclusive, below strict).
  std::string path;
  std::optional<ScenarioScalar> eq;
  std::optional<ScenarioNumber> min, max, above, below, approx, tolerance;

  // Properties: the strategies they are about, by report label (two for
  // kSameDecisions, one otherwise).
  std::vector<std::string> strategies;
  std::uint64_t min_times = 0;                      // kEveryAliveChosen
  std::vector<std::optional<std::string>> choices;  // kChoices; nullopt: none
  // kWarning: the warning name ("any": every name) and whether it must be
  // present; `strategies` empty: any strategy, or the Proxy section.
  std::string warning;
  bool present = true;
};

// A validated scenario file: a trace, the strategies to run on it and what
// their reports and decisions must show.
struct Scenario {
  std::string path;  // the scenario file, as found
  std::string name;
  std::string description;

  // The trace: a file (resolved against the scenario's folder) or a trace
  // document written inline (then trace_path is "PATH: trace").
  std::string trace_path;
  std::shared_ptr<const nlohmann::json> inline_trace;
  TraceEncoding trace_encoding = TraceEncoding::kAuto;

  // The Proxy it replays (options.proxy, options.python); by default the
  // trace header's profile, else latest.
  ProxyChoice proxy;
  // The what-if options (options.slots, speeds, stale_interval,
  // stale_delay, stale_jitter, window), the seed, cache_blocks and the LLM engine model
  // (options.engine, options.signal_*), as the
  // command line's flags set them; proxy is in `proxy`.
  SimOptions sim;
  // options.seeds: replay once per seed (each run's sim.seed, and the seed
  // of every randomized strategy that sets none); empty: once, sim.seed.
  std::vector<std::uint64_t> seeds;
  std::vector<StrategyRequest> strategies;  // in report order, for the first seed
  std::vector<Expectation> expectations;

  // The seeds it replays under, in order: `seeds`, or sim.seed alone.
  std::vector<std::uint64_t> Seeds() const;
  // The strategies as run under `seed`: run-wide seed and cache_blocks
  // applied as --seed and --cache-blocks apply them.
  std::vector<StrategyRequest> StrategiesFor(std::uint64_t seed) const;
  // The options of the replay under `seed`.
  SimOptions OptionsFor(std::uint64_t seed) const;

  // How `strategies` were written: specs and options.set, for StrategiesFor.
  std::vector<std::string> strategy_specs;
  std::vector<std::string> settings;

  // Reads the trace into `table` and `visitor` like ReadTrace; errors name
  // this scenario file and its "trace" key.
  TraceCounts ReadScenarioTrace(InstanceTable& table, TraceVisitor& visitor) const;
};

// Reads and validates the scenario file at `path`. Throws InputError whose
// one line names the file and the offending key ("PATH: expect[2].eq: ...").
Scenario LoadScenario(const std::string& path);

// Validates a parsed scenario document; `path` names it in errors and
// anchors a relative trace path.
Scenario ParseScenario(const nlohmann::ordered_json& document, const std::string& path);

}  // namespace lbsim
