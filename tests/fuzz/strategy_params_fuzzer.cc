// libFuzzer target: the strategy-parameter parser. The first line of an
// input is a --strategy SPEC ("NAME[:KEY=VALUE...]"), every further line a
// --set NAME.KEY=VALUE setting, exactly as the command line passes them to
// ParseStrategyRequest (and so to ParamValues::Resolve) and
// CheckSettingsUsed. A spec that parses builds its strategy, which then
// makes a few decisions over fixed candidates, to show that any accepted
// parameter value is safe to use -- except exec:COMMAND, which would run the
// fuzzed COMMAND through the shell: its spec is parsed, never started.
//
// A finding is anything but success or UsageError.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/registry.h"

namespace {

using namespace lbsim;

std::vector<Candidate> FixedCandidates() {
  static const std::string ids[] = {"a", "b", "c", "d"};
  return {
      Candidate{0, ids[0], 1.0, std::int64_t{3}, 10.0},
      Candidate{1, ids[1], 2.0, std::nullopt, std::nullopt},
      Candidate{2, ids[2], 0.5, std::int64_t{1} << 53, 1e300},
      Candidate{3, ids[3], 1.0, std::int64_t{0}, std::nullopt},
  };
}

Hint FixedHint() {
  Hint hint;
  QueueLoad load;
  for (std::size_t i = 0; i < load.value.size(); ++i) {
    load.value[i] = i % 2 ? 1e308 : static_cast<double>(i);
    load.known[i] = true;
  }
  hint.queues.push_back({3, load});
  return hint;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<Candidate> candidates = FixedCandidates();
  static const Hint hint = FixedHint();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t newline = text.find('\n');
  std::string_view spec = text.substr(0, newline);
  std::vector<std::string> settings;
  while (newline != std::string_view::npos) {
    std::size_t next = text.find('\n', newline + 1);
    settings.emplace_back(text.substr(newline + 1, next == std::string_view::npos
                                                       ? std::string_view::npos
                                                       : next - newline - 1));
    newline = next;
  }
  try {
    const StrategyRegistry& registry = StrategyRegistry::Builtin();
    std::vector<StrategyRequest> requests{ParseStrategyRequest(registry, spec, settings)};
    CheckSettingsUsed(registry, requests, settings);
    if (requests.front().info->name == "exec") return 0;
    std::unique_ptr<Strategy> strategy = requests.front().Make();
    for (int i = 0; i < 3; ++i) {
      Choice choice = strategy->Select(candidates, hint);
      if (choice.index >= candidates.size()) __builtin_trap();
    }
  } catch (const UsageError&) {
    // The expected outcome for a bad specification.
  }
  return 0;
}
