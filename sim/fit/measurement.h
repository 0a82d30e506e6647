#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lbsim {

// What a benchmark measured of a batch of equal requests.
enum class MeasuredFigure {
  kTtft,  // the batch's slowest time to first token
  kTpot,  // the mean time per output token after the first
  kE2e,   // the batch's slowest end-to-end latency
};

// "TTFT", "TPOT", "E2E".
std::string_view MeasuredFigureName(MeasuredFigure figure);

// One measurement an engine configuration is fitted to: `batch` requests
// sent at once to an idle engine, each `input_tokens` tokens to the engine
// (a chat template's included) and `output_tokens` to make.
struct Measurement {
  MeasuredFigure figure = MeasuredFigure::kTtft;
  std::uint64_t batch = 1;          // >= 1
  std::uint64_t input_tokens = 1;   // >= 1
  std::uint64_t output_tokens = 1;  // >= 1; >= 2 for TPOT
  double value_us = 0.0;            // finite, > 0
  // A TPOT that is one decode step of the whole batch (a median gap between
  // tokens, as CacheRoute's TPOT table keeps), not a mean over requests
  // whose decodes share steps with the others' prefill chunks.
  bool decode_step = false;
  std::string where;                // "FILE:LINE" (or the table entry) for reports
};

}  // namespace lbsim
