#pragma once

#include <compare>
#include <cstdint>
#include <queue>
#include <vector>

namespace lbsim {

// Event classes in the order they run at equal times: every due completion
// runs first (and, with the LLM engine model, every engine step that ends
// and every request that joins a waiting queue), then the stale-metrics and
// engine-signal views' snapshots and publications (which therefore see the
// counters after those completions), then the next trace event (which
// therefore sees what was published at its time), then the engine steps
// that start then (so a batch formed at t takes every request that joined
// by t). kMetric events exist only when stale metrics or engine signals are
// on and kEngineStep ones only with the engine model, so v1 replays see
// completions before trace events exactly as the trace format says.
enum class EventClass : std::uint8_t { kCompletion = 0, kMetric = 1, kTrace = 2, kEngineStep = 3 };

// The total order of simulated events: (time, class, sequence). Sequence
// numbers keep file order for trace events and scheduling order for
// completions.
struct EventKey {
  double time = 0.0;
  EventClass cls = EventClass::kTrace;
  std::uint64_t seq = 0;

  friend auto operator<=>(const EventKey&, const EventKey&) = default;
};

// A min-priority queue of payloads ordered by EventKey.
template <typename Payload>
class EventQueue {
 public:
  struct Item {
    EventKey key;
    Payload payload;
  };

  void Push(EventKey key, Payload payload) { heap_.push({key, std::move(payload)}); }
  bool empty() const { return heap_.empty(); }
  const Item& top() const { return heap_.top(); }
  void Pop() { heap_.pop(); }
  std::size_t size() const { return heap_.size(); }

 private:
  struct Later {
    bool operator()(const Item& a, const Item& b) const { return b.key < a.key; }
  };
  std::priority_queue<Item, std::vector<Item>, Later> heap_;
};

}  // namespace lbsim
