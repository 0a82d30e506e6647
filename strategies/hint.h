#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lbsim {

// Index of an Instance id in the run's InstanceTable (interned ids).
using InstanceIndex = std::uint32_t;

// The per-Instance queue keys a Proxy hint may carry, in the order in which
// least_load adds them to the score.
inline constexpr std::array<std::string_view, 8> kQueueFields = {
    "queue_depth",           "active_prepare",      "active_ready",
    "prepare_queue_depth",   "ready_queue_depth",   "pending_prefill_count",
    "active_decode_count",   "predicted_total_backlog_ms",
};

// The queue values one hint gives for one Instance. A value is known only
// when the hint held a JSON number for it.
struct QueueLoad {
  std::array<double, kQueueFields.size()> value{};
  std::array<bool, kQueueFields.size()> known{};

  bool AnyKnown() const {
    for (bool k : known)
      if (k) return true;
    return false;
  }
};

// What an arrival tells strategies, already decoded from JSON: its `hint`'s
// hint.queue_depths.per_instance[<id>] for every registered Instance it
// names (a hint of any other shape gives no queues), and the arrival's
// optional `prefix_blocks`.
struct Hint {
  struct Entry {
    InstanceIndex instance;
    QueueLoad load;
  };
  std::vector<Entry> queues;
  // The arrival's `hint` as compact JSON text, for strategies that forward
  // it whole (exec); filled only when a strategy of the run says
  // WantsRawHint(), otherwise empty. Empty also when the arrival has no
  // hint.
  std::string raw_json;

  // The request's KV-cache block ids in prompt order: requests sharing a
  // leading run of ids share that prompt prefix. Empty when not given.
  std::vector<std::uint64_t> prefix_blocks;

  // The queue values for `instance`, or nullptr when the hint names none.
  const QueueLoad* QueueFor(InstanceIndex instance) const {
    for (const Entry& e : queues)
      if (e.instance == instance) return &e.load;
    return nullptr;
  }

  void Clear() {
    queues.clear();
    raw_json.clear();
    prefix_blocks.clear();
  }
};

}  // namespace lbsim
