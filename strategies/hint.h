#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/python_version.h"

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

// The index of the queue key `key` in kQueueFields, or kQueueFields.size()
// when it names none: told apart by length first (one compare, not eight).
inline std::size_t QueueFieldIndex(std::string_view key) {
  std::size_t i = kQueueFields.size();
  switch (key.size()) {
    case 11: i = 0; break;  // queue_depth
    case 14: i = 1; break;  // active_prepare
    case 12: i = 2; break;  // active_ready
    case 19: i = key[0] == 'p' ? 3 : 6; break;  // prepare_queue_depth, active_decode_count
    case 17: i = 4; break;  // ready_queue_depth
    case 21: i = 5; break;  // pending_prefill_count
    case 26: i = 7; break;  // predicted_total_backlog_ms
    default: return kQueueFields.size();
  }
  return kQueueFields[i] == key ? i : kQueueFields.size();
}

// The queue values one hint gives for one Instance. A value is known when
// the hint held a number for it: a JSON number, or under a pinned Proxy
// profile anything Python's float() reads as one (see HintReading).
struct QueueLoad {
  std::array<double, kQueueFields.size()> value{};
  std::array<bool, kQueueFields.size()> known{};
  // Pinned Proxy profiles only: the value is a JSON integer past the double
  // range, on which the Proxy's float() raises OverflowError (never known).
  std::array<bool, kQueueFields.size()> overflow{};

  bool AnyKnown() const {
    for (bool k : known)
      if (k) return true;
    return false;
  }
};

// How a trace's hint values are read. Typed (the spec profile): a value is
// known only when it is a JSON number. As a pinned Proxy reads them: with
// Python's float() on `python` (see PythonFloatOfText): numbers, booleans
// (1.0, 0.0) and strings that float() takes are known, and a JSON integer
// past the double range makes float() raise (QueueLoad::overflow).
struct HintReading {
  bool python_float = false;
  PythonVersion python = PythonVersion::k312;
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
  // Some entry of `queues` has an overflow value.
  bool any_overflow = false;
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
    any_overflow = false;
    raw_json.clear();
    prefix_blocks.clear();
  }
};

}  // namespace lbsim
