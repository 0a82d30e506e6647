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
    if (r.holds[j] == KvCache::kNone) continue;
    cache_.Unref(r.holds[j]);
    r.holds[j] = KvCache::kNone;
  }
  cache_.Free(r.private_blocks);
  r.private_blocks = 0;
  r.held = 0;
}

void InstanceEngine::Settle(EngineRequest& r, const Lane& lane) {
  r.generated = r.output - lane.left;
  r.known = r.input + r.generated;
  r.computed = r.known - 1;
  r.last_token = lane.last;
}

std::uint32_t InstanceEngine::PreemptLast(std::vector<EngineRequest>& requests) {
  const std::uint32_t victim = running_.back();
  EngineRequest& v = requests[victim];
  if (lanes_.back().left > 0) Settle(v, lanes_.back());
  running_.pop_back();
  lanes_.pop_back();
  Release(v);
  if (v.generated == 0) owed_prefill_ += v.computed;
  v.computed = 0;
  v.next_unit = 0;
  v.step_tokens = 0;
  ++v.preemptions;
  waiting_.push_front(victim);
  step_.preempted.push_back(victim);
  return victim;
}

bool InstanceEngine::Form(std::vector<EngineRequest>& requests, double now) {
  step_.preempted.clear();
  std::uint64_t budget = max_batched_tokens_;
  std::uint64_t prefill = 0, decode = 0;
  // Running requests first, in order, each as many tokens as it has left
  // and the budget allows; a request short of blocks preempts the last
  // running one, itself included (then the running pass stops).
  std::size_t i = 0;
  for (;; ++i) {
    // Most of a batch: decoding requests with room left in their blocks,
    // a token each and nothing else to do.
    const std::size_t end = running_.size() - i < budget ? running_.size() : i + budget;
    const std::size_t from = i;
    while (i < end && lanes_[i].left > 0 && lanes_[i].room > 0) ++i;
    decode += i - from;
    budget -= i - from;
    if (i == running_.size() || budget == 0) break;
    const std::uint32_t id = running_[i];
    Lane& lane = lanes_[i];
    EngineRequest* r = nullptr;  // a decoding request's record is read only for a block
    std::uint64_t n = 1;
    std::uint64_t need = 0;
    if (lane.left > 0) {
      need = lane.room == 0 ? 1 : 0;
    } else {
      r = &requests[id];
      n = std::min(r->known - r->computed, budget);
      need = BlocksFor(*r, r->computed + n) - r->private_blocks;
    }
    bool preempted_itself = false;
    while (need > 0 && !cache_.Allocate(need)) {
      if (PreemptLast(requests) == id) {
        preempted_itself = true;
        break;
      }
    }
    if (preempted_itself) break;
    budget -= n;
    if (!r) {
      if (need > 0) {
        ++requests[id].private_blocks;
        lane.room += block_tokens_;
      }
      ++decode;
      continue;
    }
    r->private_blocks += need;
    r->step_tokens = n;
    // A decode token: one token left to compute after the first was made.
    if (r->generated > 0 && r->known - r->computed == 1) decode += n;
    else prefill += n;
  }
  step_.batch_size = i;
  step_.prefill_tokens = prefill;
  step_.decode_tokens = decode;
  if (step_.preempted.empty()) Admit(requests, budget, now);
  if (step_.batch_size == 0 && has_work())
    throw std::logic_error("engine: a step with work waiting scheduled nothing");
  return step_.batch_size > 0;
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
    for (; hits < usable; ++hits) {
      const std::uint32_t slot = cache_.Find(r.units[hits]);
      if (slot == KvCache::kNone) break;
      if (cache_.Refs(slot) == 0) revived_.push_back(slot);
      r.holds[hits] = slot;  // referenced below, unless the request must wait
    }
    std::sort(revived_.begin(), revived_.end());  // a prompt may repeat a unit
    const auto distinct = static_cast<std::uint64_t>(
        std::unique(revived_.begin(), revived_.end()) - revived_.begin());
    const std::uint64_t start = hits * unit_tokens_;
    const std::uint64_t n = std::min(r.known - start, budget);
    const std::uint64_t need = (n + block_tokens_ - 1) / block_tokens_;
    if (need > cache_.Available() - distinct * unit_blocks_) {
      std::fill_n(r.holds.begin(), hits, KvCache::kNone);
      break;
    }
    for (std::size_t j = 0; j < hits; ++j) cache_.Ref(r.holds[j]);
    r.held = static_cast<std::uint32_t>(hits);
    if (!cache_.Allocate(need)) throw std::logic_error("engine: admission lost its blocks");
    r.private_blocks = need;
    if (r.generated == 0) owed_prefill_ -= start - r.computed;
    r.computed = start;
    r.next_unit = static_cast<std::uint32_t>(hits);
    r.step_tokens = n;
    if (r.scheduled < 0.0) {
      r.scheduled = now;
      r.hit_tokens = start;
    }
    waiting_.pop_front();
    running_.push_back(id);
    lanes_.push_back(Lane{});
    budget -= n;
    ++step_.batch_size;
    if (r.generated > 0 && r.known - r.computed == 1) step_.decode_tokens += n;
    else step_.prefill_tokens += n;
  }
}

void InstanceEngine::Finish(std::vector<EngineRequest>& requests, double now, double post) {
  outcome_.tokens = 0;
  outcome_.first_tokens.clear();
  outcome_.gaps.clear();
  outcome_.finished.clear();
  double gap = 0.0;
  std::uint64_t equal = 0;  // requests in the current run of equal gaps
  auto add_gap = [&](double g) {
    if (equal > 0 && g != gap) {
      outcome_.gaps.emplace_back(gap, equal);
      equal = 0;
    }
    gap = g;
    ++equal;
  };
  // The batch is running_'s first batch_size requests, so the finished
  // leave running_ in this same pass, the others keeping their order.
  const std::size_t size = step_.batch_size;
  std::size_t kept = 0;
  for (std::size_t k = 0; k < size; ++k) {
    if (kept == k) {
      // Most of a batch: decoding requests that do not finish, updated in
      // place while none before them left.
      const std::size_t from = k;
      for (; k < size && lanes_[k].left > 1; ++k) {
        Lane& lane = lanes_[k];
        --lane.room;
        --lane.left;
        add_gap(now - lane.last + post);
        lane.last = now;
      }
      outcome_.tokens += k - from;
      kept = k;
      if (k == size) break;
    }
    const std::uint32_t id = running_[k];
    Lane lane = lanes_[k];
    if (lane.left > 0) {
      --lane.room;
      --lane.left;
      ++outcome_.tokens;
      add_gap(now - lane.last + post);
      lane.last = now;
      if (lane.left == 0) {
        Settle(requests[id], lane);
        outcome_.finished.push_back(id);
        continue;
      }
      running_[kept] = id;
      lanes_[kept++] = lane;
      continue;
    }
    EngineRequest& r = requests[id];
    if (r.generated == 0 || r.known - r.computed != 1) r.prefill_tokens += r.step_tokens;
    if (r.generated == 0) owed_prefill_ -= r.step_tokens;
    r.computed += r.step_tokens;
    r.step_tokens = 0;
    // Units this step completed become cached, unless a copy already is.
    while (r.next_unit < r.units_size && (r.next_unit + 1) * unit_tokens_ <= r.computed) {
      const std::uint32_t j = r.next_unit++;
      if (cache_.Find(r.units[j]) != KvCache::kNone) continue;
      r.holds[j] = cache_.Publish(r.units[j]);
      r.private_blocks -= unit_blocks_;
      ++r.held;
    }
    if (r.computed == r.known) {
      if (r.generated < r.output) {
        ++r.generated;
        ++r.known;
        ++outcome_.tokens;
        if (r.generated == 1) {
          r.first_token = now;
          outcome_.first_tokens.push_back(id);
        } else {
          add_gap(now - r.last_token + post);
        }
        r.last_token = now;
      }
      if (r.generated == r.output) {
        outcome_.finished.push_back(id);
        continue;
      }
      // Decoding from now on: one token a step, in its lane.
      lane = Lane{r.output - r.generated,
                  r.private_blocks * block_tokens_ - (r.computed - r.held * unit_tokens_), now};
    }
    running_[kept] = id;
    lanes_[kept++] = lane;
  }
  if (equal > 0) outcome_.gaps.emplace_back(gap, equal);
  if (outcome_.finished.empty()) return;
  running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(kept),
                 running_.begin() + static_cast<std::ptrdiff_t>(size));
  lanes_.erase(lanes_.begin() + static_cast<std::ptrdiff_t>(kept),
               lanes_.begin() + static_cast<std::ptrdiff_t>(size));
  for (std::uint32_t id : outcome_.finished) Release(requests[id]);
}

}  // namespace lbsim
