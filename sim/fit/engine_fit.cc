#include "sim/fit/engine_fit.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/median.h"
#include "sim/replay/engine_request.h"
#include "sim/replay/llm_engine.h"

namespace lbsim {
namespace {

// Work bounds: a measurement's schedule may take at most kMaxPointWork
// request-steps, all of them together kMaxFitWork.
constexpr double kMaxPointWork = 1u << 26;
constexpr double kMaxFitWork = 1u << 30;

// Request-steps the schedule of `m` takes at most (without preemption).
double ScheduleWork(const EngineConfig& c, const Measurement& m) {
  const double prefill_steps = std::ceil(static_cast<double>(m.batch) *
                                         static_cast<double>(m.input_tokens) /
                                         static_cast<double>(c.max_batched_tokens));
  const double width = static_cast<double>(std::min(m.batch, c.max_running));
  const double rounds = std::ceil(static_cast<double>(m.batch) / width);
  return (prefill_steps + rounds * static_cast<double>(m.output_tokens)) * width;
}

double Dot(const std::array<double, 3>& beta, const ScheduleRow& r) {
  return beta[0] * r.steps + beta[1] * r.prefill + beta[2] * r.decode;
}

std::array<double, 3> Terms(const ScheduleRow& r) { return {r.steps, r.prefill, r.decode}; }

// Solves the normal equations of the columns `free` (weighted rows `a`,
// targets `y`, weights `w`); false when they are singular.
bool Solve(const std::vector<std::array<double, 3>>& a, const std::vector<double>& y,
           const std::vector<double>& w, const std::vector<int>& free,
           std::array<double, 3>& out) {
  const std::size_t n = free.size();
  // Columns scaled to unit weighted norm, so the pivots compare.
  std::array<long double, 3> scale{};
  for (std::size_t i = 0; i < n; ++i) {
    long double s = 0;
    for (std::size_t k = 0; k < a.size(); ++k) s += w[k] * a[k][free[i]] * a[k][free[i]];
    if (!(s > 0)) return false;
    scale[i] = std::sqrt(s);
  }
  long double m[3][4] = {};
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t i = 0; i < n; ++i) {
      const long double ai = a[k][free[i]] / scale[i];
      for (std::size_t j = 0; j < n; ++j) m[i][j] += w[k] * ai * (a[k][free[j]] / scale[j]);
      m[i][3] += w[k] * ai * y[k];
    }
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t p = i;
    for (std::size_t r = i + 1; r < n; ++r)
      if (std::fabs(m[r][i]) > std::fabs(m[p][i])) p = r;
    if (!(std::fabs(m[p][i]) > 1e-9L)) return false;  // unit diagonal: 1e-9 is collinear
    for (int j = 0; j < 4; ++j) std::swap(m[i][j], m[p][j]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == i) continue;
      const long double f = m[r][i] / m[i][i];
      for (std::size_t j = i; j < 4; ++j) m[r][j] -= f * m[i][j];
    }
  }
  for (std::size_t i = 0; i < n; ++i) out[free[i]] = static_cast<double>(m[i][3] / m[i][i] / scale[i]);
  return true;
}

// A measurement with its schedule's row, run once.
struct Scheduled {
  const Measurement* m = nullptr;
  ScheduleRow row;
};

// What `config` predicts for `m`, whose schedule's row is `row`.
double Predict(const EngineConfig& config, const Measurement& m, const ScheduleRow& row) {
  const double steps = Dot(config.beta_us, row);
  const double pre = config.alpha_us[0] + config.alpha_us[1] * static_cast<double>(m.input_tokens);
  const double out = config.alpha_us[2];
  switch (m.figure) {
    case MeasuredFigure::kTtft: return pre + steps + out;
    case MeasuredFigure::kTpot: return steps + out;
    case MeasuredFigure::kE2e: return pre + steps + static_cast<double>(m.output_tokens) * out;
  }
  return steps;
}

FitError Errors(MeasuredFigure figure, const EngineConfig& config,
                const std::vector<Scheduled>& points) {
  FitError e;
  e.figure = figure;
  std::vector<double> abs_errors;
  double squares = 0.0;
  for (const auto& [m, row] : points) {
    if (m->figure != figure) continue;
    const double predicted = Predict(config, *m, row);
    const double error = (predicted - m->value_us) / m->value_us;
    squares += (predicted - m->value_us) * (predicted - m->value_us);
    abs_errors.push_back(std::fabs(error));
    if (e.points == 0 || std::fabs(error) > std::fabs(e.worst_error)) {
      e.worst_error = error;
      e.worst = *m;
      e.worst_predicted_us = predicted;
    }
    ++e.points;
  }
  if (e.points == 0) return e;
  e.rmse_us = std::sqrt(squares / static_cast<double>(e.points));
  e.median_abs_error = Median(std::move(abs_errors));
  return e;
}

std::vector<FitError> AllErrors(const EngineConfig& config, const std::vector<Scheduled>& points) {
  std::vector<FitError> out;
  for (MeasuredFigure f : {MeasuredFigure::kTtft, MeasuredFigure::kTpot, MeasuredFigure::kE2e}) {
    FitError e = Errors(f, config, points);
    if (e.points) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

ScheduleRow MeasurementRow(const EngineConfig& config, const Measurement& m) {
  if (!FitsCache(config, m.input_tokens, m.output_tokens))
    throw InputError(fmt::format(
        "{}: a request of {} prompt and {} output tokens does not fit the KV cache of {} tokens "
        "({} blocks of {}): give --base a configuration with a larger one",
        m.where, m.input_tokens, m.output_tokens, config.kv_blocks * config.block_tokens,
        config.kv_blocks, config.block_tokens));
  if (ScheduleWork(config, m) > kMaxPointWork)
    throw InputError(fmt::format(
        "{}: a batch of {} requests of {} prompt and {} output tokens takes more than 2^26 "
        "request-steps to schedule with max_batched_tokens {}: expected a smaller one",
        m.where, m.batch, m.input_tokens, m.output_tokens, config.max_batched_tokens));
  if (m.figure == MeasuredFigure::kTpot && m.decode_step)
    return {1.0, 0.0, static_cast<double>(std::min(m.batch, config.max_running))};
  InstanceEngine engine(config, config.block_tokens);
  std::vector<EngineRequest> requests(m.batch);
  for (std::uint32_t i = 0; i < m.batch; ++i) {
    EngineRequest& r = requests[i];
    r.seq = i + 1;
    r.input = m.input_tokens;
    r.output = m.output_tokens;
    r.known = m.input_tokens;
    engine.Enqueue(requests, i);
  }
  ScheduleRow row, all_first;
  ScheduleRow decode_sum;  // sum over requests of (last - first) rows
  std::vector<ScheduleRow> first(m.batch);
  std::uint64_t firsts = 0;
  double now = 0.0;
  while (engine.Form(requests, now)) {
    row.steps += 1.0;
    row.prefill += static_cast<double>(engine.step().prefill_tokens);
    row.decode += static_cast<double>(engine.step().decode_tokens);
    engine.Finish(requests, now);
    for (std::uint32_t id : engine.outcome().first_tokens) {
      first[id] = row;
      if (++firsts == m.batch) all_first = row;
    }
    for (std::uint32_t id : engine.outcome().finished) {
      if (requests[id].output >= 2) {
        decode_sum.steps += row.steps - first[id].steps;
        decode_sum.prefill += row.prefill - first[id].prefill;
        decode_sum.decode += row.decode - first[id].decode;
      }
    }
    now += 1.0;
  }
  switch (m.figure) {
    case MeasuredFigure::kTtft: return all_first;
    case MeasuredFigure::kE2e: return row;
    case MeasuredFigure::kTpot: {
      const double per = static_cast<double>(m.batch) * static_cast<double>(m.output_tokens - 1);
      return {decode_sum.steps / per, decode_sum.prefill / per, decode_sum.decode / per};
    }
  }
  return row;
}

double PredictMeasurement(const EngineConfig& config, const Measurement& m) {
  return Predict(config, m, MeasurementRow(config, m));
}

EngineFit FitEngine(std::span<const Measurement> points, const EngineFitOptions& options) {
  EngineFit fit;
  fit.config = options.base;
  fit.config.alpha_us = {0.0, 0.0, 0.0};
  std::vector<const Measurement*> fitting, holding;
  for (const Measurement& m : points) {
    const bool out = std::find(options.held_out.begin(), options.held_out.end(), m.batch) !=
                     options.held_out.end();
    (out ? holding : fitting).push_back(&m);
  }
  if (fitting.empty())
    throw InputError(options.held_out.empty()
                         ? "expected measurements to fit, got none"
                         : "expected measurements to fit, got none outside the held-out batch "
                           "sizes");
  double work = 0.0;
  for (const Measurement& m : points) work += ScheduleWork(options.base, m);
  if (work > kMaxFitWork)
    throw InputError(fmt::format(
        "the {} measurements take more than 2^30 request-steps to schedule: expected fewer or "
        "smaller batches", points.size()));
  // Each schedule runs once: its row serves the fit and the errors.
  auto schedule = [&](const std::vector<const Measurement*>& ms) {
    std::vector<Scheduled> out;
    for (const Measurement* m : ms) out.push_back({m, MeasurementRow(options.base, *m)});
    return out;
  };
  const std::vector<Scheduled> fitted = schedule(fitting), held = schedule(holding);

  // Rows, targets and weights: each figure weighs 1 in total, its points'
  // errors in units of its mean.
  std::vector<std::array<double, 3>> a;
  std::vector<double> y, w;
  std::map<MeasuredFigure, std::pair<double, std::size_t>> family;  // sum, count
  for (const auto& [m, row] : fitted) {
    auto& [sum, count] = family[m->figure];
    sum += m->value_us;
    ++count;
  }
  std::array<bool, 3> used{};
  for (const auto& [m, row] : fitted) {
    const auto& [sum, count] = family[m->figure];
    const double mean = sum / static_cast<double>(count);
    a.push_back(Terms(row));
    for (int i = 0; i < 3; ++i) used[i] = used[i] || a.back()[i] != 0.0;
    y.push_back(m->value_us);
    w.push_back(1.0 / (mean * mean * static_cast<double>(count)));
  }
  // A coefficient no measurement depends on (its column all zero) keeps
  // the base's value.
  fit.fitted = used;
  std::vector<int> columns;
  for (int i = 0; i < 3; ++i)
    if (used[i]) columns.push_back(i);
  const std::array<double, 3> lower = {kMinFittedStepUs, 0.0, 0.0};
  // Every choice of coefficients held at their bounds; the best feasible.
  double best = INFINITY;
  std::array<double, 3> beta = options.base.beta_us;
  bool singular = false;
  for (unsigned held_mask = 0; held_mask < (1u << columns.size()); ++held_mask) {
    std::vector<int> free;
    std::array<double, 3> x = options.base.beta_us;
    std::vector<double> target = y;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const int i = columns[c];
      if (held_mask & (1u << c)) {
        x[i] = lower[i];
        for (std::size_t k = 0; k < a.size(); ++k) target[k] -= a[k][i] * lower[i];
      } else {
        free.push_back(i);
      }
    }
    if (!free.empty() && !Solve(a, target, w, free, x)) {
      if (held_mask == 0) singular = true;
      continue;
    }
    bool feasible = true;
    for (int i : free) feasible = feasible && x[i] >= lower[i];
    if (!feasible) continue;
    double sse = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double r = a[k][0] * x[0] + a[k][1] * x[1] + a[k][2] * x[2] - y[k];
      sse += w[k] * r * r;
    }
    if (sse < best) {
      best = sse;
      beta = x;
      for (std::size_t c = 0; c < columns.size(); ++c)
        fit.at_bound[columns[c]] = (held_mask & (1u << c)) != 0;
    }
  }
  if (singular) {
    std::string names;
    for (int i : columns) names += fmt::format("{}beta[{}]", names.empty() ? "" : ", ", i);
    throw InputError(fmt::format(
        "the measurements cannot tell {} apart: expected measurements at more than one batch "
        "size or prompt length",
        names));
  }
  fit.config.beta_us = beta;
  fit.errors = AllErrors(fit.config, fitted);
  fit.held_out = AllErrors(fit.config, held);
  return fit;
}

}  // namespace lbsim
