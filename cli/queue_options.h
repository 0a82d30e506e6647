#pragma once

#include <string>

#include "sim/replay/sim_options.h"

namespace CLI {
class App;
}

namespace lbsim {

// The Proxy queue model's options as typed: --proxy-queue and the Proxy
// operator's settings (--ready-concurrency, --prepare-concurrency,
// --predictor-coefficients).
struct QueueOptions {
  bool on = false;
  std::uint32_t ready_concurrency = 8;
  std::uint32_t prepare_concurrency = 8;
  std::string coefficients;  // "A,B,C,D"; empty: the shipped zeros

  // Adds the options to `app`, in option group `group`.
  void AddTo(CLI::App& app, const std::string& group);
  // The model's options they make; throws UsageError.
  ProxyQueueOptions Resolve() const;
};

// Parses "A,B,C,D" (four finite numbers) into the predictor's coefficients;
// throws UsageError naming `flag` otherwise.
std::array<double, 4> ParsePredictorCoefficients(std::string_view text, std::string_view flag);

}  // namespace lbsim
