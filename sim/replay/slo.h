#pragma once

// Service-level objectives (--slo, docs/engine.md#slos-and-goodput): bounds on
// a request's time to first token, time per output token and end-to-end
// latency, checked on every request the engine model serves.

#include <optional>
#include <string>
#include <string_view>

namespace lbsim {

// One bound as given: a number in the trace's time unit, or with a unit
// ("50ms", "0.5s", "800us") a time in microseconds.
struct SloBound {
  double value = 0.0;
  bool microseconds = false;  // `value` is in microseconds (a unit was given)

  // The bound in a trace's unit; `us` is trace units per microsecond.
  double InTraceUnit(double us) const { return microseconds ? value * us : value; }
  friend bool operator==(const SloBound&, const SloBound&) = default;
};

// The bounds of --slo; none given: no SLO figures.
struct SloOptions {
  std::optional<SloBound> ttft, tpot, e2e;

  bool on() const { return ttft || tpot || e2e; }
  friend bool operator==(const SloOptions&, const SloOptions&) = default;
};

// The bounds in a trace's unit, as a run checks them.
struct SloLimits {
  std::optional<double> ttft, tpot, e2e;
};

// Reads "ttft=0.5,tpot=50ms,e2e=2s": any of the three keys, each once, at
// least one, each a finite number > 0 with an optional unit ms, s or us.
// Returns nullopt and sets `error` ("expected ..., got ...") when it is not.
std::optional<SloOptions> ParseSlo(std::string_view text, std::string& error);

// The bounds in the trace's unit: `us` is trace units per microsecond.
SloLimits ResolveSlo(const SloOptions& slo, double us);

}  // namespace lbsim
