#pragma once

#include <cstdint>
#include <deque>
#include <utility>
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

  // What a step formed: its batch, running()'s first `batch_size`
  // requests (running ones in order, then those admitted), the requests it
  // preempted, and its token counts. Valid until Finish.
  struct Step {
    std::size_t batch_size = 0;
    std::vector<std::uint32_t> preempted;
    std::uint64_t prefill_tokens = 0;
    std::uint64_t decode_tokens = 0;
  };
  // What a step's end did: how many requests made a token, those that made
  // their first (in batch order), the inter-token gaps of the others as
  // runs of equal values (in batch order: a gap is the time since the
  // request's previous token plus the step's `post`), and the requests that
  // finished (removed and released, in batch order).
  struct Outcome {
    std::uint64_t tokens = 0;
    std::vector<std::uint32_t> first_tokens;
    std::vector<std::pair<double, std::uint64_t>> gaps;
    std::vector<std::uint32_t> finished;
  };

  // Request `r` joins the back of the waiting queue.
  void Enqueue(const std::vector<EngineRequest>& requests, std::uint32_t r) {
    const EngineRequest& request = requests[r];
    if (request.generated == 0) owed_prefill_ += request.known - request.computed;
    waiting_.push_back(r);
  }
  // Forms the step that starts at `now` into step(); false when there is
  // nothing to run. Requests admitted for the first time get `now` as
  // their `scheduled` time.
  bool Form(std::vector<EngineRequest>& requests, double now);
  // Applies the end, at `now`, of the step Form made; fills outcome(), each
  // gap with `post` added.
  void Finish(std::vector<EngineRequest>& requests, double now, double post = 0.0);

  bool has_work() const { return !waiting_.empty() || !running_.empty(); }
  // Whether a step is under way or due to start.
  bool busy = false;
  const Step& step() const { return step_; }
  const Outcome& outcome() const { return outcome_; }
  const std::deque<std::uint32_t>& waiting() const { return waiting_; }
  const std::vector<std::uint32_t>& running() const { return running_; }
  // The batch's k-th request (k < step().batch_size) and its tokens this step.
  std::uint32_t BatchRequest(std::size_t k) const { return running_[k]; }
  std::uint64_t BatchTokens(std::size_t k, const std::vector<EngineRequest>& requests) const {
    return lanes_[k].left > 0 ? 1 : requests[running_[k]].step_tokens;
  }
  const KvCache& cache() const { return cache_; }
  // Prompt tokens still to compute of the requests without a token yet,
  // waiting or running (the backlog the Proxy's signal predicts).
  std::uint64_t owed_prefill() const { return owed_prefill_; }

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
  // A running request's decode lane. A request decoding (a token made, one
  // left to compute, more to make) makes one token a step, so its progress
  // lives here, beside the others', instead of in its record: its record's
  // known, computed, generated, step_tokens and last_token are brought up
  // to date only when it leaves the lane (it finishes or is preempted).
  struct Lane {
    std::uint64_t left = 0;  // tokens still to make; 0: not decoding (the record is current)
    std::uint64_t room = 0;  // token slots free in its private blocks
    double last = 0.0;       // end of the step that made its latest token
  };
  // Writes a decoding request's progress back into its record.
  static void Settle(EngineRequest& r, const Lane& lane);

  std::deque<std::uint32_t> waiting_;
  std::vector<std::uint32_t> running_;  // in admission order
  std::vector<Lane> lanes_;             // running_'s, index for index
  std::uint64_t owed_prefill_ = 0;
  Step step_;
  Outcome outcome_;
  std::vector<std::uint32_t> revived_;  // Admit's scratch: slots
};

}  // namespace lbsim
