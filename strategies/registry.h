#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strategies/params.h"
#include "strategies/proxy_profile.h"
#include "strategies/strategy.h"

namespace lbsim {

enum class StrategyStatus { kDefault, kExperimental, kPlanned };

// "default", "experimental" or "planned".
std::string_view StatusName(StrategyStatus status);

// Everything the registry knows about one strategy.
struct StrategyInfo {
  std::string_view name;                  // canonical, e.g. "least_load"
  std::vector<std::string_view> aliases;  // e.g. "ll", "least-load"
  StrategyStatus status = StrategyStatus::kExperimental;
  std::string_view description;           // one line
  std::vector<ParamSpec> params;          // tunable parameters with defaults
  std::vector<std::string_view> reasons;  // reason words its picks carry
  // Builds a fresh instance; empty for planned (unimplemented) strategies.
  std::function<std::unique_ptr<Strategy>(const ParamValues&)> make;
  // The Proxy ships it (round_robin, least_load): under a pinned profile a
  // run of it replays that version exactly unless a parameter is changed.
  bool from_proxy = false;
  // The strategy as a pinned Proxy version runs it, built from this entry,
  // when that differs from the spec's (least_load: its form, weights,
  // summation); null when every profile runs the spec's.
  StrategyInfo (*under_proxy)(const StrategyInfo& spec, const ProxyRun& run) = nullptr;
  // It runs another program (exec): a replay keeps its runs on the thread
  // that handles signals and cleans up after them.
  bool runs_program = false;

  // The parameter marked `tail`, or nullptr.
  const ParamSpec* TailParam() const;
};

// The set of known strategies, looked up by canonical name or alias.
class StrategyRegistry {
 public:
  explicit StrategyRegistry(std::vector<StrategyInfo> strategies);

  // Every strategy lbsim ships (see builtin_strategies.inc), as the spec
  // profile defines them. Command lines and scenarios are parsed against it,
  // then bound to the run's Proxy (BindToProxy).
  static const StrategyRegistry& Builtin();
  // The same strategies as the Proxy `run` runs them: Builtin() for spec,
  // each entry's under_proxy variant for a pinned version.
  static const StrategyRegistry& For(const ProxyRun& run);

  // Finds a strategy by name or alias after trimming surrounding whitespace
  // and lower-casing; nullptr when nothing matches.
  const StrategyInfo* Find(std::string_view name) const;

  // Like Find, but throws UsageError when nothing matches (the message
  // lists every registered name and alias) or the strategy is only planned.
  const StrategyInfo& Require(std::string_view name) const;

  // The strategy used when none is requested (round_robin).
  const StrategyInfo& Default() const;

  const std::vector<StrategyInfo>& All() const { return strategies_; }

 private:
  std::vector<StrategyInfo> strategies_;
};

// One strategy run requested on the command line or in a scenario.
struct StrategyRequest {
  const StrategyInfo* info = nullptr;
  std::string requested_as;  // the text as the user wrote it
  ParamValues params;        // values in force
  // The KEY=VALUE assignments behind `params`, in the order applied
  // (run-wide, --set, inline), kept to resolve them again under another
  // Proxy profile.
  std::vector<std::pair<std::string, std::string>> overrides;

  std::unique_ptr<Strategy> Make() const { return info->make(params); }
  // Whether the run does what the Proxy does: a Proxy strategy with every
  // parameter at its profile's default.
  bool ReplaysProxy() const;
};

// `request` as the Proxy `run` runs it: its strategy from
// StrategyRegistry::For(run), its assignments resolved again against that
// entry's parameters and defaults. Throws UsageError, naming the profile,
// when an assignment does not apply there (least_load under L1 takes no
// weights).
StrategyRequest BindToProxy(const StrategyRequest& request, const ProxyRun& run);

// Splits one --strategy value at commas into specs. A spec of a strategy
// with a tail parameter ("exec:COMMAND") takes the rest of the value,
// commas included, so it must come last in its value.
std::vector<std::string> SplitStrategyList(const StrategyRegistry& registry,
                                           std::string_view list);

// A KEY=VALUE that applies to every strategy of a run declaring KEY (e.g.
// --seed sets `seed` of every randomized strategy) and to no other.
using RunWideParam = std::pair<std::string, std::string>;

// Parses "NAME[:KEY=VALUE[:KEY=VALUE...]]", or "NAME:TEXT" for a strategy
// with a tail parameter. `run_wide` values come first, then `settings`,
// "NAME.KEY=VALUE" assignments (from --set) applied to every request of that
// strategy, then the inline ones: the most specific wins. Throws UsageError
// on any unknown name, key or bad value.
StrategyRequest ParseStrategyRequest(
    const StrategyRegistry& registry, std::string_view spec,
    const std::vector<std::string>& settings = {},
    const std::vector<RunWideParam>& run_wide = {});

// Checks that every "NAME.KEY=VALUE" setting names a registered strategy
// present in `requests`; throws UsageError otherwise.
void CheckSettingsUsed(const StrategyRegistry& registry,
                       const std::vector<StrategyRequest>& requests,
                       const std::vector<std::string>& settings);

}  // namespace lbsim
