#pragma once

// Fitting an LLM engine configuration (docs/engine.md) to benchmark
// measurements: `lbsim engines fit`.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/fit/measurement.h"
#include "sim/replay/engine_config.h"

namespace lbsim {

// How a measurement's predicted time depends on beta: the number of steps
// it waits for and their prefill and decode tokens (for TPOT, per output
// token after the first). Predicted = beta . row, plus the alpha terms.
struct ScheduleRow {
  double steps = 0.0;
  double prefill = 0.0;
  double decode = 0.0;
};

// Runs the measurement's batch (all its requests enqueued at once on an idle
// engine of `config`'s limits, no cached prefix) through the engine model's
// scheduler and returns its row. Throws InputError naming `m.where` when a
// request can never fit the KV cache.
ScheduleRow MeasurementRow(const EngineConfig& config, const Measurement& m);

// What the engine model predicts for `m` under `config`, in microseconds
// at speed 1: beta . row plus pre-processing (TTFT, E2E) and output
// processing (k x alpha[2] for the k-th token).
double PredictMeasurement(const EngineConfig& config, const Measurement& m);

struct EngineFitOptions {
  // The KV cache and scheduler limits, and the coefficients the
  // measurements cannot determine, are taken from it.
  EngineConfig base;
  // Measurements at these batch sizes are left out of the fit and reported
  // as predictions.
  std::vector<std::uint64_t> held_out;
};

// How well a configuration reproduces one figure's measurements.
struct FitError {
  MeasuredFigure figure = MeasuredFigure::kTtft;
  std::size_t points = 0;
  double rmse_us = 0.0;
  double median_abs_error = 0.0;  // median |predicted - measured| / measured
  double worst_error = 0.0;       // signed (predicted - measured) / measured of the worst point
  Measurement worst;
  double worst_predicted_us = 0.0;
};

struct EngineFit {
  EngineConfig config;  // alpha all 0: pre- and output processing are folded into beta
  std::array<bool, 3> fitted{};    // beta[i] came from the measurements (else from the base)
  std::array<bool, 3> at_bound{};  // the best fit wanted beta[i] below its bound
  std::vector<FitError> errors;    // on the fitted measurements, per figure present
  std::vector<FitError> held_out;  // on the held-out ones
};

// The smallest beta[0] a fit writes (a step takes time), in microseconds.
inline constexpr double kMinFittedStepUs = 1.0;

// Fits beta by weighted least squares under beta[0] >= kMinFittedStepUs and
// beta[1], beta[2] >= 0. Each figure's measurements weigh as much in total
// as each other figure's, every point's error counted in units of its
// figure's mean, so TTFTs of seconds do not drown TPOTs of milliseconds.
// Throws InputError when nothing is left to fit or the measurements cannot
// tell two coefficients apart.
EngineFit FitEngine(std::span<const Measurement> points, const EngineFitOptions& options);

}  // namespace lbsim
