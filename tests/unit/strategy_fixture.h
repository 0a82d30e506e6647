#pragma once

// Helpers for the unit tests of the strategies added after round_robin and
// least_load: strategies built through the built-in registry as a run
// builds them, and repeated decisions. Candidate lists come from
// candidates.h.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "candidates.h"
#include "replay_fixture.h"
#include "strategies/registry.h"
#include "strategies/strategy.h"

namespace lbsim::testing {

// The request for "NAME[:KEY=VALUE...]" with run-wide values (as --seed and
// --cache-blocks give them) applied first.
inline StrategyRequest RunWideRequest(std::string_view spec,
                                      const std::vector<RunWideParam>& run_wide) {
  return ParseStrategyRequest(StrategyRegistry::Builtin(), spec, {}, run_wide);
}

// A fresh strategy for "NAME[:KEY=VALUE...]".
inline std::unique_ptr<Strategy> Make(std::string_view spec,
                                      const std::vector<RunWideParam>& run_wide = {}) {
  return RunWideRequest(spec, run_wide).Make();
}

// `n` (up to 16) candidates with inflight 0, ids c0, c1, ...
inline std::vector<Candidate> IdlePool(std::size_t n) {
  std::vector<Candidate> pool = Candidates({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  pool.resize(n);
  return pool;
}

// The candidate indices `s` picks in `n` decisions over the same candidates.
inline std::vector<std::size_t> PicksOf(Strategy& s, const std::vector<Candidate>& pool,
                                      std::size_t n, const Hint& hint = {}) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back(s.Select(pool, hint).index);
  return out;
}

// How many times each candidate index appears in `picks`.
inline std::vector<std::size_t> Counts(const std::vector<std::size_t>& picks, std::size_t n) {
  std::vector<std::size_t> counts(n, 0);
  for (std::size_t p : picks) ++counts.at(p);
  return counts;
}

}  // namespace lbsim::testing
