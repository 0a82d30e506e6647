#pragma once

// Helpers for the strategy unit tests: strategies built through the
// built-in registry exactly as a run builds them, candidate lists written
// in code, and repeated decisions.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/registry.h"
#include "strategies/strategy.h"

namespace lbsim::strategy_tests {

// The request for "NAME[:KEY=VALUE...]", with optional run-wide values.
inline StrategyRequest Request(std::string_view spec,
                               const std::vector<RunWideParam>& run_wide = {}) {
  return ParseStrategyRequest(StrategyRegistry::Builtin(), spec, {}, run_wide);
}

// A fresh strategy for "NAME[:KEY=VALUE...]".
inline std::unique_ptr<Strategy> Make(std::string_view spec,
                                      const std::vector<RunWideParam>& run_wide = {}) {
  return Request(spec, run_wide).Make();
}

// "c<k>", with static storage (Candidate ids are views).
inline std::string_view Id(std::size_t k) {
  static const std::array<std::string, 64> ids = [] {
    std::array<std::string, 64> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = fmt::format("c{}", i);
    return out;
  }();
  return ids.at(k);
}

// Candidate k is Instance index k with id "c<k>", the k-th inflight
// (std::nullopt: unknown), weight 1, no qps_1m, registration 1.
inline std::vector<Candidate> Pool(std::initializer_list<std::optional<std::int64_t>> inflight) {
  std::vector<Candidate> pool;
  for (std::optional<std::int64_t> load : inflight) {
    const auto k = static_cast<InstanceIndex>(pool.size());
    pool.push_back(Candidate{k, Id(k), 1.0, load, std::nullopt, 1});
  }
  return pool;
}

// `n` candidates with inflight 0.
inline std::vector<Candidate> IdlePool(std::size_t n) {
  std::vector<Candidate> pool;
  for (std::size_t k = 0; k < n; ++k)
    pool.push_back(Candidate{static_cast<InstanceIndex>(k), Id(k), 1.0, 0, std::nullopt, 1});
  return pool;
}

// The candidate indices `s` picks in `n` decisions over the same candidates.
inline std::vector<std::size_t> Picks(Strategy& s, const std::vector<Candidate>& pool,
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

}  // namespace lbsim::strategy_tests
