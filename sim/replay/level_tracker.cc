#include "sim/replay/level_tracker.h"

#include <algorithm>

namespace lbsim {

LevelTracker::Stretch LevelTracker::Add(InstanceIndex i, double t, std::int64_t delta) {
  if (tracks_.size() <= i) tracks_.resize(i + 1);
  Track& track = tracks_[i];
  Stretch closed{track.since, t, track.level};
  if (track.level != 0) track.area += static_cast<double>(track.level) * (t - track.since);
  track.since = t;
  track.level += delta;
  track.peak = std::max(track.peak, track.level);
  return closed;
}

}  // namespace lbsim
