#include "sim/replay/sim_options.h"

#include <cmath>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"
#include "sim/replay/snapshot_view.h"

namespace lbsim {

std::pair<std::string, double> ParseSpeedAssignment(std::string_view text,
                                                    std::string_view flag) {
  const std::size_t eq = text.rfind('=');
  double speed = 0.0;
  if (eq == std::string_view::npos || eq == 0 ||
      !ParseFiniteNumber(text.substr(eq + 1), speed) || !(speed > 0.0))
    throw UsageError(fmt::format(
        "{} {}: expected ID=SPEED with SPEED a number > 0", flag, text));
  return {std::string(text.substr(0, eq)), speed};
}

void CheckSimOptions(const SimOptions& o) {
  auto finite_at_least_zero = [](double x) { return std::isfinite(x) && x >= 0.0; };
  if (!o.speeds.empty() && !o.service() && !o.engine_model())
    throw UsageError("--speed needs the service model (--slots K) or the engine model (--engine)");
  if (o.service() && o.engine_model())
    throw UsageError("--slots and --engine are two service models; choose one");
  if (!finite_at_least_zero(o.stale_interval) || !finite_at_least_zero(o.stale_delay) ||
      !finite_at_least_zero(o.stale_jitter) || !finite_at_least_zero(o.window) ||
      !finite_at_least_zero(o.engine.signal_interval) || !finite_at_least_zero(o.engine.signal_delay) ||
      !finite_at_least_zero(o.engine.signal_jitter))
    throw UsageError("what-if times must be finite numbers >= 0");
  if (!o.stale() && (o.stale_delay > 0.0 || o.stale_jitter > 0.0))
    throw UsageError("--stale-delay and --stale-jitter need --stale-interval");
  if (o.signals() && !o.engine_model())
    throw UsageError("--signal-interval needs the engine model (--engine)");
  if (o.engine.slo.on() && !o.engine_model())
    throw UsageError("--slo needs the engine model (--engine): its requests are what the bounds "
                     "measure");
  if (!o.signals() && (o.engine.signal_delay > 0.0 || o.engine.signal_jitter > 0.0))
    throw UsageError("--signal-delay and --signal-jitter need --signal-interval");
  const ProxyQueueOptions& q = o.proxy_queue;
  if (!q.on && (q.ready_concurrency != 8 || q.prepare_concurrency != 8 ||
                q.coefficients != std::array<double, 4>{}))
    throw UsageError(
        "--ready-concurrency, --prepare-concurrency and --predictor-coefficients configure the "
        "Proxy queue model: add --proxy-queue");
  if (q.on && (o.stale() || o.signals()))
    throw UsageError(
        "--proxy-queue hands least_load the Proxy's own live snapshot at every decision; it does "
        "not combine with --stale-interval or --signal-interval (a Proxy fed by an exporter)");
  if (q.on && (q.ready_concurrency < 1 || q.prepare_concurrency < 1 ||
               q.ready_concurrency > kMaxReadyConcurrency))
    throw UsageError(fmt::format(
        "--ready-concurrency must be from 1 to {} and --prepare-concurrency at least 1",
        kMaxReadyConcurrency));
  // Each snapshot waits delay + jitter to be published: so many are held at
  // once, whatever the trace.
  if (o.stale())
    CheckSnapshotBacklog("--stale-interval", o.stale_interval, o.stale_delay, o.stale_jitter,
                         kMaxPendingSnapshotValues);
  if (o.signals())
    CheckSnapshotBacklog("--signal-interval", o.engine.signal_interval, o.engine.signal_delay,
                         o.engine.signal_jitter, kMaxPendingSnapshotValues);
}

}  // namespace lbsim
