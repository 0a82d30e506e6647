#pragma once

#include <cstdint>
#include <vector>

namespace lbsim {

// One request inside the LLM engine model (docs/engine.md): its tokens,
// its progress and the KV blocks it holds. Token counts: `known` (K) is the
// prompt plus the tokens generated so far, `computed` (c) how many of them
// have their KV computed; a step that brings c to K samples the next token.
// While it decodes in its engine's lane (InstanceEngine::Lane), known,
// computed, generated, step_tokens and last_token are the lane's to keep
// and are brought up to date when it leaves it.
//
// Laid out for the steps: a step reads and writes the first fields of each
// request it prefills, scattered over the slab, so those share the
// request's first cache line (the struct starts on one).
struct alignas(64) EngineRequest {
  // What forming and ending a prefill step touch.
  std::uint64_t known = 0;        // K = I + generated
  std::uint64_t computed = 0;     // c
  std::uint64_t generated = 0;    // g
  std::uint64_t output = 0;       // O: tokens to generate
  std::uint64_t step_tokens = 0;  // tokens scheduled in the current step
  std::uint64_t private_blocks = 0;  // KV blocks held privately
  std::uint32_t held = 0;            // prefix units referenced
  std::uint32_t next_unit = 0;       // the next unit a step may complete
  std::uint32_t units_size = 0;      // units.size(), beside the fields it is compared with

  // Its prefix units: the ids of the prefix blocks that lie wholly inside
  // the prompt, in order, and for each the cache slot of the unit it
  // references (KvCache::kNone: none).
  std::vector<std::uint64_t> units;
  std::vector<std::uint32_t> holds;

  std::uint64_t prefill_tokens = 0;  // prefill tokens computed, recomputation included
  double first_token = -1.0;       // end of the step that made token 1
  double last_token = -1.0;        // end of the step that made the latest token
  double first_out = -1.0;         // when token 1 reached the client

  std::uint64_t seq = 0;           // the arrival's number (1-based)
  std::uint64_t registration = 0;  // of the Instance it was routed to
  std::uint64_t tag = 0;           // the admitter's, for its ResponseListener
  double arrival = 0.0;            // reached the engine
  double client_arrival = 0.0;     // reached the Proxy (SLOs count from it)
  double enqueued = 0.0;           // joined the waiting queue
  double scheduled = -1.0;         // first step start; < 0 until then
  std::uint64_t input = 0;      // I: prompt tokens, at least 1
  std::uint64_t hit_tokens = 0;      // prompt tokens its first admission found cached
  std::uint32_t preemptions = 0;
};

}  // namespace lbsim
