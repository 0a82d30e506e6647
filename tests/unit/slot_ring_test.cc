// SlotRing (sim/replay/slot_ring.h) against the plain ring of
// READY_CONCURRENCY free times it stands for: every slot set at a reset,
// the oldest read and overwritten in turn.

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "sim/replay/slot_ring.h"

namespace lbsim {
namespace {

TEST_CASE("slot ring: the oldest slot is the plain ring's, through resets and wraps") {
  for (std::uint32_t slots : {1u, 2u, 3u, 8u, 64u}) {
    CAPTURE(slots);
    std::mt19937_64 random(slots);
    SlotRing ring(slots);
    std::vector<double> plain(slots, 5.0);
    std::size_t oldest = 0;
    ring.Reset(5.0);
    double t = 5.0;
    for (int step = 0; step < 2000; ++step) {
      t += static_cast<double>(random() % 7) * 0.25;
      if (random() % 10 == 0) {
        ring.Reset(t);
        plain.assign(slots, t);
        oldest = 0;
      } else {
        REQUIRE(ring.Oldest() == plain[oldest]);
        ring.Write(t + 1.0);
        plain[oldest] = t + 1.0;
        oldest = (oldest + 1) % slots;
      }
      REQUIRE(ring.Oldest() == plain[oldest]);
    }
  }
}

}  // namespace
}  // namespace lbsim
