#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "sim/replay/snapshot_view.h"

namespace lbsim {

// What strategies see of one run's inflight counters under stale metrics:
// a SnapshotView of the counters (by InstanceIndex, -1 unknown). Before an
// Instance's first publication its load is unknown; an unknown counter
// publishes as unknown.
class MetricView : public SnapshotView<std::int64_t> {
 public:
  using SnapshotView::SnapshotView;

  // Runs the next event, a snapshot of `counters` or a publication (see
  // SnapshotView::RunNext).
  std::optional<InstanceIndex> RunNext(std::span<const std::int64_t> counters) {
    return SnapshotView::RunNext([&](std::vector<std::int64_t>& values) {
      values.assign(counters.begin(), counters.end());
    });
  }

  // The inflight value strategies see for `i`.
  std::optional<std::int64_t> Seen(InstanceIndex i) const {
    const std::int64_t* seen = SnapshotView::Seen(i);
    if (!seen || *seen < 0) return std::nullopt;
    return *seen;
  }
};

}  // namespace lbsim
