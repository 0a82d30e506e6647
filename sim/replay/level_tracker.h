#pragma once

#include <cstdint>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// Per-Instance integer levels that step up and down over time (requests
// outstanding, busy service slots): the area under each level and its peak.
// Levels start at 0.
class LevelTracker {
 public:
  // The stretch that a change closes: `level` held over [from, to).
  struct Stretch {
    double from = 0.0;
    double to = 0.0;
    std::int64_t level = 0;
  };

  // Changes Instance `i`'s level by `delta` at time `t` (never earlier than
  // its previous change); returns the stretch that just ended.
  Stretch Add(InstanceIndex i, double t, std::int64_t delta);
  // Accrues every level up to `t` (the end of the run); calls `on_stretch`
  // with each Instance's final stretch.
  template <typename OnStretch>
  void CloseAt(double t, OnStretch on_stretch) {
    for (InstanceIndex i = 0; i < tracks_.size(); ++i) on_stretch(i, Add(i, t, 0));
  }

  std::size_t size() const { return tracks_.size(); }
  std::int64_t Level(InstanceIndex i) const { return i < size() ? tracks_[i].level : 0; }
  std::int64_t Peak(InstanceIndex i) const { return i < size() ? tracks_[i].peak : 0; }
  // The integral of the level over time so far.
  double Area(InstanceIndex i) const { return i < size() ? tracks_[i].area : 0.0; }

 private:
  struct Track {
    std::int64_t level = 0;
    std::int64_t peak = 0;
    double since = 0.0;
    double area = 0.0;
  };
  std::vector<Track> tracks_;
};

}  // namespace lbsim
