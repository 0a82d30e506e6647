#pragma once

#include <cstdint>

#include "sim/replay/event_queue.h"
#include "sim/replay/monotone_queue.h"
#include "strategies/hint.h"

namespace lbsim {

// An event a World schedules for itself, beside the trace's: a request's
// completion (what the Proxy's counter hears) or, with the LLM engine
// model, an engine's step start or end or a request joining its waiting
// queue.
struct InternalEvent {
  enum class Kind : std::uint8_t { kCompletion, kEnqueue, kStepEnd, kStepStart };
  Kind kind = Kind::kCompletion;
  InstanceIndex instance = 0;
  // kCompletion: the registration the request was routed to; kEnqueue: the
  // engine request; otherwise unused.
  std::uint64_t arg = 0;
};

// A World's internal events in key order: (time, class, the order they
// were scheduled in). Every key is at or after the last one run.
class InternalEvents {
 public:
  void Push(double time, EventClass cls, const InternalEvent& event) {
    queue_.Push(EventKey{time, cls, seq_++}, event);
  }
  bool empty() const { return queue_.empty(); }
  EventKey TopKey() const { return queue_.TopKey(); }
  const InternalEvent& TopPayload() const { return queue_.TopPayload(); }
  void Pop() { queue_.Pop(); }

 private:
  MonotoneQueue<InternalEvent> queue_;
  std::uint64_t seq_ = 0;
};

}  // namespace lbsim
