#pragma once

#include <array>
#include <cstdint>

namespace lbsim {

// The Proxy's prefill-time predictor (`queue_predictor` with bs = 1), as
// its queue manager reserves a request's prefill: the coefficients a, b, c,
// d of its ttft_coefficients.json (all 0 as shipped at every pinned
// version) and its short-length calibration curve.
struct QueuePredictor {
  std::array<double, 4> coefficients{};  // a, b, c, d

  // The predicted prefill service in seconds of a request whose prompt has
  // `input_tokens` tokens and whose knowledge has `knowledge_tokens`, with
  // the Proxy's float arithmetic: L = max(1, input + knowledge + 36); the
  // calibration curve alone for L <= 115, else the larger of it and
  // max(0, a*L + b*L + c + d); never below 0.
  double ServiceSeconds(std::uint64_t input_tokens, std::uint64_t knowledge_tokens) const;
};

}  // namespace lbsim
