#pragma once

#include <cstdint>
#include <string>

namespace lbsim::bench {

// Shape of a synthetic trace for benchmarks: a pool registered in the
// header with known load, arrivals with durations, and a load snapshot of
// a random Instance every few arrivals.
struct BenchTraceShape {
  std::uint64_t arrivals = 1'000'000;
  std::uint32_t instances = 16;
  std::uint32_t arrivals_per_snapshot = 10;  // one load event per this many arrivals
  // One arrival in this many carries a queue-depth hint for two Instances;
  // 0: no hints.
  std::uint32_t arrivals_per_hint = 0;
  std::uint64_t seed = 42;
  bool document = false;  // a JSON document instead of JSON Lines
};

// Writes the trace to `path` (deterministic for a shape); returns the
// number of events written.
std::uint64_t WriteBenchTrace(const std::string& path, const BenchTraceShape& shape);

}  // namespace lbsim::bench
