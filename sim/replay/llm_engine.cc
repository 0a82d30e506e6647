#include "sim/replay/llm_engine.h"

#include <algorithm>
#include <stdexcept>

namespace lbsim {

InstanceEngine::InstanceEngine(const EngineConfig& config, std::uint64_t unit_tokens)
    : block_tokens_(config.block_tokens),
      unit_tokens_(unit_tokens),
      unit_blocks_(unit_tokens / config.block_tokens),
      max_running_(config.max_running),
      max_batched_tokens_(config.max_batched_tokens),
      cache_(config.kv_blocks, unit_tokens / config.block_tokens) {}

std::uint64_t InstanceEngine::BlocksFor(const EngineRequest& r, std::uint64_t tokens) const {
  const std::uint64_t own = tokens - r.held * unit_tokens_;
  return (own + block_tokens_ - 1) / block_tokens_;
}

void InstanceEngine::Release(EngineRequest& r) {
  for (std::size_t j = r.holds.size(); j-- > 0;) {
    if (!r.holds[j]) continue;
    r.holds[j] = 0;
    cache_.Unref(r.units[j]);
  }
  cache_.Free(r.private_blocks);
  r.private_blocks = 0;
  r.held = 0;
}

std::uint32_t InstanceEngine::PreemptLast(std::vector<EngineRequest>& requests) {
  const std::uint32_t victim = running_.back();
  running_.pop_back();
  EngineRequest& v = requests[victim];
  Release(v);
  v.computed = 0;
  v.next_unit = 0;
  v.step_tokens = 0;
  ++v.preemptions;
  waiting_.push_front(victim);
  step_.preempted.push_back(victim);
  return victim;
}

bool InstanceEngine::Form(std::vector<EngineRequest>& requests, double now) {
  step_.batch.clear();
  step_.preempted.clear();
  step_.prefill_tokens = step_.decode_tokens = 0;
  std::uint64_t budget = max_batched_tokens_;
  // Running requests first, in order, each as many tokens as it has left
  // and the budget allows; a request short of blocks preempts the last
  // running one, itself included (then the running pass stops).
  for (std::size_t i = 0; i < running_.size() && budget > 0; ++i) {
    const std::uint32_t id = running_[i];
    EngineRequest& r = requests[id];
    const std::uint64_t n = std::min(r.known - r.computed, budget);
    bool preempted_itself = false;
    for (;;) {
      const std::uint64_t need = BlocksFor(r, r.computed + n) - r.private_blocks;
      if (cache_.Allocate(need)) {
        r.private_blocks += need;
        break;
      }
      if (PreemptLast(requests) == id) {
        preempted_itself = true;
        break;
      }
    }
    if (preempted_itself) break;
    r.step_tokens = n;
    budget -= n;
    step_.batch.push_back(id);
  }
  if (step_.preempted.empty()) Admit(requests, budget, now);
  for (std::uint32_t id : step_.batch) {
    const EngineRequest& r = requests[id];
    // A decode token: one token left to compute after the first was made.
    if (r.generated > 0 && r.known - r.computed == 1) step_.decode_tokens += r.step_tokens;
    else step_.prefill_tokens += r.step_tokens;
  }
  if (step_.batch.empty() && has_work())
    throw std::logic_error("engine: a step with work waiting scheduled nothing");
  return !step_.batch.empty();
}

void InstanceEngine::Admit(std::vector<EngineRequest>& requests, std::uint64_t& budget,
                           double now) {
  while (!waiting_.empty() && running_.size() < max_running_ && budget > 0) {
    const std::uint32_t id = waiting_.front();
    EngineRequest& r = requests[id];
    // Cached units: the leading run of resident ones, leaving at least one
    // token to compute.
    const std::size_t usable =
        std::min<std::uint64_t>(r.units_size, (r.known - 1) / unit_tokens_);
    std::size_t hits = 0;
    revived_.clear();  // hit units that are evictable now: referencing them keeps them
    while (hits < usable && cache_.Resident(r.units[hits])) {
      if (cache_.Refs(r.units[hits]) == 0) revived_.push_back(r.units[hits]);
      ++hits;
    }
    std::sort(revived_.begin(), revived_.end());  // a prompt may repeat a unit
    const auto distinct = static_cast<std::uint64_t>(
        std::unique(revived_.begin(), revived_.end()) - revived_.begin());
    const std::uint64_t start = hits * unit_tokens_;
    const std::uint64_t n = std::min(r.known - start, budget);
    const std::uint64_t need = (n + block_tokens_ - 1) / block_tokens_;
    if (need > cache_.Available() - distinct * unit_blocks_) break;
    for (std::size_t j = 0; j < hits; ++j) {
      cache_.Ref(r.units[j]);
      r.holds[j] = 1;
    }
    r.held = static_cast<std::uint32_t>(hits);
    if (!cache_.Allocate(need)) throw std::logic_error("engine: admission lost its blocks");
    r.private_blocks = need;
    r.computed = start;
    r.next_unit = static_cast<std::uint32_t>(hits);
    r.step_tokens = n;
    if (r.scheduled < 0.0) {
      r.scheduled = now;
      r.hit_tokens = start;
    }
    waiting_.pop_front();
    running_.push_back(id);
    budget -= n;
    step_.batch.push_back(id);
  }
}

void InstanceEngine::Finish(std::vector<EngineRequest>& requests, double now) {
  outcome_.tokens.clear();
  outcome_.finished.clear();
  for (std::uint32_t id : step_.batch) {
    EngineRequest& r = requests[id];
    if (r.generated == 0 || r.known - r.computed != 1) r.prefill_tokens += r.step_tokens;
    r.computed += r.step_tokens;
    r.step_tokens = 0;
    // Units this step completed become cached, unless a copy already is.
    while (r.next_unit < r.units_size && (r.next_unit + 1) * unit_tokens_ <= r.computed) {
      const std::uint32_t j = r.next_unit++;
      if (cache_.Resident(r.units[j])) continue;
      cache_.Publish(r.units[j]);
      r.private_blocks -= unit_blocks_;
      r.holds[j] = 1;
      ++r.held;
    }
    if (r.computed != r.known) continue;
    if (r.generated < r.output) {
      ++r.generated;
      ++r.known;
      if (r.generated == 1) r.first_token = now;
      outcome_.tokens.push_back(id);
    }
    if (r.generated == r.output) {
      r.done = true;
      outcome_.finished.push_back(id);
    }
  }
  if (outcome_.finished.empty()) return;
  // Remove the finished, keeping the others' order, and release them.
  std::size_t k = 0;
  for (std::uint32_t id : running_)
    if (!requests[id].done) running_[k++] = id;
  running_.resize(k);
  for (std::uint32_t id : outcome_.finished) Release(requests[id]);
}

}  // namespace lbsim
