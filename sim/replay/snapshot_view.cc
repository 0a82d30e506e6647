#include "sim/replay/snapshot_view.h"

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {
namespace {

// More than `pending` snapshot values would wait to be published at once.
UsageError BacklogError(std::string_view option, double interval, std::uint64_t pending) {
  return UsageError(fmt::format(
      "{} {}: more than {} snapshot values would wait to be published at once (the limit of "
      "one replay, shared by its strategy runs); choose a longer interval or a shorter {}",
      option, interval, pending,
      option == "--stale-interval" ? "--stale-delay and --stale-jitter"
                                   : "--signal-delay and --signal-jitter"));
}

}  // namespace

void CheckSnapshot(std::string_view option, double interval, const SnapshotLimits& limits,
                   std::uint64_t taken, std::uint64_t pending, std::uint64_t values, double time,
                   double next) {
  if (taken + values > limits.taken)
    throw UsageError(fmt::format(
        "{} {}: the run needs more than {} snapshot values (snapshots x Instances, the limit "
        "of one replay, shared by its strategy runs); choose a longer interval",
        option, interval, limits.taken));
  if (pending + values > limits.pending) throw BacklogError(option, interval, limits.pending);
  if (!(next > time))
    throw UsageError(fmt::format(
        "{} {}: too short for the trace's times (around {}), where it no longer moves the time "
        "of the next snapshot; choose a longer interval",
        option, interval, time));
}

void CheckSnapshotBacklog(std::string_view option, double interval, double delay, double jitter,
                          std::uint64_t pending) {
  if ((delay + jitter) / interval >= static_cast<double>(pending))
    throw BacklogError(option, interval, pending);
}

}  // namespace lbsim
