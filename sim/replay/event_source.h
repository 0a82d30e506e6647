#pragma once

#include <optional>

#include "sim/replay/event_queue.h"
#include "sim/replay/pool.h"

namespace lbsim {

// A queue of timed events a World runs between the trace's events: the
// key of its next event and running it. The World's sources are its
// internal events (completions and engine steps), the stale-metrics view
// and the engine signals; World::RunDueEventsBefore runs whichever is due
// first by (time, class), and at equal (time, class) the source it was
// given first. (The Proxy queue keeps its own clock, whose float arithmetic
// the keys cannot carry: the World runs it with the engine's events in
// World::RunQueue.)
class EventSource {
 public:
  virtual ~EventSource() = default;
  // The key of its next event, if it has one.
  virtual std::optional<EventKey> NextKey() const = 0;
  // Runs its next event; `pool` is the replay's registration state.
  virtual void RunNext(const Pool& pool) = 0;
};

}  // namespace lbsim
