#include "sim/replay/queue_predictor.h"

#include <cstddef>
#include <utility>

namespace lbsim {
namespace {

// The calibration anchors (prompt length in tokens, TTFT in ms) of the
// Proxy's short-length curve.
constexpr std::pair<std::uint64_t, double> kAnchors[] = {
    {0, 60.0},   {10, 60.0},   {35, 47.0},   {45, 53.26},  {55, 65.97},
    {65, 70.71}, {75, 76.63},  {89, 88.38},  {95, 90.35},  {105, 93.01},
    {115, 95.67}, {303, 396.0}, {345, 472.0}};

// Python's max(a, b): a unless b > a (so max(0.0, nan) is 0.0).
double PyMax(double a, double b) { return b > a ? b : a; }

// The curve in ms: linear between anchors, 60 at or below the first, 0
// past the last.
double CalibratedMs(std::uint64_t length) {
  if (length <= kAnchors[0].first) return kAnchors[0].second;
  if (length > kAnchors[std::size(kAnchors) - 1].first) return 0.0;
  for (std::size_t i = 1; i < std::size(kAnchors); ++i) {
    const auto [x0, y0] = kAnchors[i - 1];
    const auto [x1, y1] = kAnchors[i];
    if (length <= x1) {
      const double ratio = static_cast<double>(length - x0) / static_cast<double>(x1 - x0);
      return y0 + ratio * (y1 - y0);
    }
  }
  return 0.0;
}

}  // namespace

double QueuePredictor::ServiceSeconds(std::uint64_t input_tokens,
                                      std::uint64_t knowledge_tokens) const {
  // The Proxy's header overhead; token counts are at most 2^53 each, so
  // the sum is exact in 64 bits.
  std::uint64_t length = input_tokens + knowledge_tokens + 36;
  if (length < 1) length = 1;
  const double l = static_cast<double>(length);
  const auto& [a, b, c, d] = coefficients;
  const double base = a * l + b * l + c + d;
  const double pred = PyMax(0.0, base);
  const double calibrated = PyMax(0.0, CalibratedMs(length) / 1000.0);
  double service;
  if (length <= 115 && calibrated > 0.0) service = calibrated;
  else service = PyMax(pred, calibrated);
  return PyMax(0.0, service);
}

}  // namespace lbsim
