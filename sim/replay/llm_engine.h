#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "sim/replay/engine_config.h"
#include "sim/replay/engine_request.h"
#include "sim/replay/kv_cache.h"

namespace lbsim {

// One Instance's LLM engine (docs/engine.md): a waiting queue, the running
// sequences and a KV cache with prefix units; it forms each step's batch
// under the continuous-batching limits (chunked prefill, preemption by
// recompute) and applies the step's outcome when it ends. Requests live in
// a slab the caller owns; the engine holds their indices.
class InstanceEngine {
 public:
  // `unit_tokens` (P): prompt tokens per prefix unit, a multiple of the
  // configuration's block_tokens.
  InstanceEngine(const EngineConfig& config, std::uint64_t unit_tokens);

  // What a step formed: the batch in order (each request's step_tokens
  // set), the requests it preempted, and its token counts.
  struct Step {
    std::vector<std::uint32_t> batch;
    std::vector<std::uint32_t> preempted;
    std::uint64_t prefill_tokens = 0;
    std::uint64_t decode_tokens = 0;
  };
  // What a step's end did: the requests that made a token (in batch
  // order) and those that finished (removed and released, in batch order).
  struct Outcome {
    std::vector<std::uint32_t> tokens;
    std::vector<std::uint32_t> finished;
  };

  // Request `r` joins the back of the waiting queue.
  void Enqueue(std::uint32_t r) { waiting_.push_back(r); }
  // Forms the step that starts at `now` into step(); false when there is
  // nothing to run. Requests admitted for the first time get `now` as
  // their `scheduled` time.
  bool Form(std::vector<EngineRequest>& requests, double now);
  // Applies the end, at `now`, of the step Form made; fills outcome().
  void Finish(std::vector<EngineRequest>& requests, double now);

  bool has_work() const { return !waiting_.empty() || !running_.empty(); }
  // Whether a step is under way or due to start.
  bool busy = false;
  const Step& step() const { return step_; }
  const Outcome& outcome() const { return outcome_; }
  const std::deque<std::uint32_t>& waiting() const { return waiting_; }
  const std::vector<std::uint32_t>& running() const { return running_; }
  const KvCache& cache() const { return cache_; }

 private:
  // Private blocks `r` needs to hold `tokens` computed tokens.
  std::uint64_t BlocksFor(const EngineRequest& r, std::uint64_t tokens) const;
  // Gives up every block and reference of `r`, deepest unit first.
  void Release(EngineRequest& r);
  // Preempts the last running request back to the front of the queue.
  std::uint32_t PreemptLast(std::vector<EngineRequest>& requests);
  // Admits waiting requests while the limits allow (no preemption this step).
  void Admit(std::vector<EngineRequest>& requests, std::uint64_t& budget, double now);

  std::uint64_t block_tokens_, unit_tokens_, unit_blocks_;
  std::uint64_t max_running_, max_batched_tokens_;
  KvCache cache_;
  std::deque<std::uint32_t> waiting_;
  std::vector<std::uint32_t> running_;  // in admission order
  Step step_;
  Outcome outcome_;
  std::vector<std::uint64_t> revived_;  // Admit's scratch
};

}  // namespace lbsim
