#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/replay/fifo.h"

namespace lbsim {

// The free times of an Instance's ready-worker slots in the Proxy's
// reservation (READY_CONCURRENCY of them), as a ring: every slot starts at
// one time, and each reservation takes the oldest slot (the ring's next)
// and writes its first-token time there. Only the writes since the last
// Reset are kept, at most one per slot: memory follows the reservations,
// not READY_CONCURRENCY.
class SlotRing {
 public:
  explicit SlotRing(std::uint32_t slots = 1) : slots_(slots) {}

  // Every slot free at `t`.
  void Reset(double t) {
    base_ = t;
    written_.clear();
    writes_ = 0;
  }
  // The free time of the oldest slot, the one the next Write takes.
  double Oldest() const { return writes_ < slots_ ? base_ : written_.front(); }
  // The oldest slot becomes free at `t`, and the next slot the oldest.
  void Write(double t) {
    written_.push_back(t);
    ++writes_;
    if (written_.size() > slots_) written_.pop_front();
  }

 private:
  std::uint64_t slots_;
  double base_ = 0.0;      // the slots not written since Reset
  Fifo<double> written_;   // the last min(writes_, slots_) writes, oldest first
  std::uint64_t writes_ = 0;
};

}  // namespace lbsim
