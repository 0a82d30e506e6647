// BlockCache and InstanceBlockCaches: the LRU KV-cache model that kv_aware
// keeps and that measures every strategy's prefix hit rate. BlockCache and
// both of its forms (BlockRuns, BlockLru) are also checked against a plain
// LRU list written from its contract, on random prompts of ids that crowd
// a table and on prompts whose ids count up, as Mooncake's do.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <list>
#include <random>
#include <vector>

#include "strategies/block_cache.h"
#include "strategies/block_lru.h"
#include "strategies/block_runs.h"

namespace lbsim {
namespace {

using Blocks = std::vector<std::uint64_t>;

TEST_CASE("MatchPrefix counts leading cached blocks up to the first missing one") {
  BlockCache cache(10);
  cache.Insert(Blocks{1, 2, 3});
  CHECK(cache.MatchPrefix(Blocks{1, 2, 3, 4}) == 3);
  CHECK(cache.MatchPrefix(Blocks{1, 2}) == 2);
  CHECK(cache.MatchPrefix(Blocks{1, 9, 3}) == 1);
  CHECK(cache.MatchPrefix(Blocks{2, 3}) == 2);  // the request's own leading blocks
  CHECK(cache.MatchPrefix(Blocks{9, 1, 2}) == 0);
  CHECK(cache.MatchPrefix(Blocks{}) == 0);
  CHECK(cache.size() == 3);
}

TEST_CASE("Insert evicts the tail of a prompt before its head") {
  // Blocks are touched last to first, so 1 is the most recently used and
  // 4 the least: a new block evicts 4, and the shared head survives.
  BlockCache cache(4);
  cache.Insert(Blocks{1, 2, 3, 4});
  cache.Insert(Blocks{5});
  CHECK(cache.size() == 4);
  CHECK(cache.MatchPrefix(Blocks{1, 2, 3, 4}) == 3);
  CHECK(cache.MatchPrefix(Blocks{5}) == 1);
}

TEST_CASE("a reused block becomes most recently used") {
  BlockCache cache(4);
  cache.Insert(Blocks{1, 2});  // recency: 1 2
  cache.Insert(Blocks{3, 4});  // recency: 3 4 1 2
  cache.Insert(Blocks{1});     // recency: 1 3 4 2
  cache.Insert(Blocks{9});     // evicts 2
  CHECK(cache.MatchPrefix(Blocks{1, 2}) == 1);
  CHECK(cache.MatchPrefix(Blocks{3, 4}) == 2);
  CHECK(cache.MatchPrefix(Blocks{9}) == 1);
}

TEST_CASE("a prompt longer than the capacity keeps its leading blocks") {
  BlockCache cache(3);
  cache.Insert(Blocks{1, 2, 3, 4, 5, 6});
  CHECK(cache.size() == 3);
  CHECK(cache.MatchPrefix(Blocks{1, 2, 3, 4, 5, 6}) == 3);
}

TEST_CASE("repeated ids within a prompt are cached once") {
  BlockCache cache(4);
  cache.Insert(Blocks{7, 7, 8});
  CHECK(cache.size() == 2);
  CHECK(cache.MatchPrefix(Blocks{7, 7, 8}) == 3);
}

// The contract as a list, most recently used first: Insert touches a
// prompt's blocks from the last to the first, and a new block past the
// capacity evicts the least recently used.
class ReferenceLru {
 public:
  explicit ReferenceLru(std::size_t capacity) : capacity_(capacity) {}
  void Insert(const Blocks& blocks) {
    if (capacity_ == 0) return;
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
      const auto found = std::find(order_.begin(), order_.end(), *it);
      if (found != order_.end()) order_.erase(found);
      else if (order_.size() == capacity_) order_.pop_back();
      order_.push_front(*it);
    }
  }
  bool Holds(std::uint64_t block) const {
    return std::find(order_.begin(), order_.end(), block) != order_.end();
  }
  std::size_t size() const { return order_.size(); }

 private:
  std::size_t capacity_;
  std::list<std::uint64_t> order_;
};

// Replays `steps` prompts from `next` into `cache` and `reference`,
// checking after each that they hold the same blocks.
template <class Cache, class Next>
void CheckAgainstReference(Cache& cache, ReferenceLru& reference, int steps, Next next,
                           const Blocks& probes) {
  for (int step = 0; step < steps; ++step) {
    CAPTURE(step);
    const Blocks prompt = next();
    cache.Insert(prompt);
    reference.Insert(prompt);
    REQUIRE(cache.size() == reference.size());
    for (std::uint64_t b : probes) {
      CAPTURE(b);
      REQUIRE((cache.MatchPrefix(Blocks{b}) == 1) == reference.Holds(b));
    }
    std::size_t expected = 0;
    while (expected < prompt.size() && reference.Holds(prompt[expected])) ++expected;
    REQUIRE(cache.MatchPrefix(prompt) == expected);
  }
}

TEST_CASE("BlockLru and BlockCache hold what a plain LRU list holds, on random prompts") {
  for (const std::size_t capacity : {0, 1, 2, 3, 5, 8, 13, 64, 300}) {
    CAPTURE(capacity);
    // Ids that share their low bits or their high bits, and small ones: a
    // table indexed by either would crowd.
    Blocks universe;
    for (std::uint64_t i = 0; i < 2 * capacity + 6; ++i) {
      universe.push_back(i);
      universe.push_back(i << 32);
      universe.push_back(i * 4096 + 7);
      universe.push_back(~i);
    }
    for (int form = 0; form < 2; ++form) {
      CAPTURE(form);
      std::mt19937_64 random(5 + capacity);
      const auto next = [&] {
        Blocks prompt(random() % 12);
        for (std::uint64_t& b : prompt)
          b = universe[random() % (random() % 4 == 0 ? universe.size() : universe.size() / 3)];
        return prompt;
      };
      ReferenceLru reference(capacity);
      if (form == 0) {
        BlockLru cache(capacity);
        CheckAgainstReference(cache, reference, 400, next, universe);
      } else {
        BlockCache cache(capacity);  // runs, mostly of one block
        CheckAgainstReference(cache, reference, 400, next, universe);
      }
    }
  }
}

TEST_CASE("BlockCache: a large cache fills, then keeps the newest blocks of a long run") {
  BlockCache cache(20000);
  Blocks run;
  for (std::uint64_t i = 0; i < 50000; ++i) run.push_back(i * 0x9E3779B97F4A7C15ULL);
  for (std::size_t k = 0; k < run.size(); k += 1000)
    cache.Insert(Blocks(run.begin() + k, run.begin() + k + 1000));
  CHECK(cache.size() == 20000);
  // The last 20 prompts of 1,000 are cached, the ones before are not.
  CHECK(cache.MatchPrefix(Blocks(run.begin() + 30000, run.end())) == 20000);
  CHECK(cache.MatchPrefix(Blocks(run.begin() + 29999, run.end())) == 0);
}

TEST_CASE("a run touched in its middle keeps its other parts where they were") {
  BlockCache cache(8);
  cache.Insert(Blocks{1, 2, 3, 4, 5, 6});  // recency: 1 2 3 4 5 6
  cache.Insert(Blocks{3, 4});              // recency: 3 4 1 2 5 6
  cache.Insert(Blocks{10, 11, 12});        // 10 11 12 3 4 1 2 5; 6 evicted
  CHECK(cache.size() == 8);
  CHECK(cache.MatchPrefix(Blocks{5}) == 1);
  CHECK(cache.MatchPrefix(Blocks{6}) == 0);
  cache.Insert(Blocks{20});  // evicts 5
  CHECK(cache.MatchPrefix(Blocks{1, 2, 3, 4, 5}) == 4);
  cache.Insert(Blocks{21, 22});  // evicts 2, then 1
  CHECK(cache.MatchPrefix(Blocks{1}) == 0);
  CHECK(cache.MatchPrefix(Blocks{3, 4, 10, 11, 12, 20, 21, 22}) == 8);
  CHECK_FALSE(cache.by_block());
}

TEST_CASE("ids at the top of the range: the largest id is not followed by 0") {
  constexpr std::uint64_t kTop = std::numeric_limits<std::uint64_t>::max();
  BlockCache cache(4);
  cache.Insert(Blocks{kTop - 1, kTop});
  CHECK(cache.MatchPrefix(Blocks{kTop - 1, kTop, 0}) == 2);
  cache.Insert(Blocks{0, 1});
  CHECK(cache.MatchPrefix(Blocks{kTop, 0, 1}) == 3);
  CHECK(cache.MatchPrefix(Blocks{kTop - 1, kTop, 0, 1}) == 4);
  cache.Insert(Blocks{kTop});  // recency: top 0 1 top-1
  cache.Insert(Blocks{7});     // evicts top - 1
  CHECK(cache.MatchPrefix(Blocks{kTop - 1}) == 0);
  CHECK(cache.MatchPrefix(Blocks{kTop, 0, 1, 7}) == 4);
}

// Prompts as Mooncake numbers them: the leading blocks of one of a few
// shared prompts (ids counting up from the prompt's first), then a few ids
// of the request's own, counting on from the last request's; now and then
// scattered ids, ids counting down, a repeat, or ids at either end of the
// range.
Blocks RunShapedPrompt(std::mt19937_64& random, std::uint64_t& next_own) {
  constexpr std::uint64_t kTop = std::numeric_limits<std::uint64_t>::max();
  Blocks prompt;
  const std::uint64_t shared = 1000 * (random() % 6);
  for (std::uint64_t i = 0, n = random() % 30; i < n; ++i) prompt.push_back(shared + i);
  for (std::uint64_t i = 0, n = random() % 5; i < n; ++i) prompt.push_back(next_own++);
  switch (random() % 8) {
    case 0: prompt.push_back(random() % 40); break;
    case 1: for (std::uint64_t i = 5; i > 0; --i) prompt.push_back(shared + i); break;
    case 2: if (!prompt.empty()) prompt.push_back(prompt.front()); break;
    case 3: prompt.insert(prompt.begin(), {kTop - 1, kTop, 0, 1}); break;
    default: break;
  }
  return prompt;
}

TEST_CASE("BlockRuns, BlockLru and BlockCache hold what a plain LRU list holds, on counting-up prompts") {
  constexpr std::uint64_t kTop = std::numeric_limits<std::uint64_t>::max();
  Blocks probes = {kTop - 1, kTop};
  for (std::uint64_t shared = 0; shared < 6000; shared += 1000)
    for (std::uint64_t i = 0; i < 32; ++i) probes.push_back(shared + i);
  for (const std::size_t capacity : {0, 1, 2, 3, 7, 16, 50, 200}) {
    CAPTURE(capacity);
    for (int form = 0; form < 3; ++form) {
      CAPTURE(form);
      std::mt19937_64 random(11 + capacity);
      std::uint64_t next_own = 100000;
      const auto next = [&] { return RunShapedPrompt(random, next_own); };
      Blocks own_probes = probes;
      for (std::uint64_t i = 100000; i < 100000 + 600; ++i) own_probes.push_back(i);
      ReferenceLru reference(capacity);
      if (form == 0) {
        BlockRuns cache(capacity);
        CheckAgainstReference(cache, reference, 300, next, own_probes);
      } else if (form == 1) {
        BlockLru cache(capacity);
        CheckAgainstReference(cache, reference, 300, next, own_probes);
      } else {
        BlockCache cache(capacity);
        CheckAgainstReference(cache, reference, 300, next, own_probes);
        CHECK_FALSE(cache.by_block());  // a few hundred blocks: runs throughout
      }
    }
  }
}

TEST_CASE("BlockCache moves to a node per block past kRunsMax runs, keeping every block in order") {
  // Scattered ids make a run each: the cache moves once it holds more than
  // kRunsMax of them, and then goes on as the reference does, counting-up
  // prompts and scattered ids mixed.
  const std::size_t capacity = 3 * BlockCache::kRunsMax;
  std::mt19937_64 random(3);
  std::uint64_t next_own = 100000;
  Blocks probes;
  for (std::uint64_t i = 0; i < 4 * BlockCache::kRunsMax; ++i) probes.push_back(i * 7919 + 5);
  for (std::uint64_t i = 0; i < 32; ++i) probes.push_back(2000 + i);
  int step = 0;
  const auto next = [&] {
    Blocks prompt;
    if (step++ % 3 == 0) {
      prompt = RunShapedPrompt(random, next_own);
    } else {
      for (int i = 0; i < 8; ++i) prompt.push_back(probes[random() % (4 * BlockCache::kRunsMax)]);
    }
    return prompt;
  };
  BlockCache cache(capacity);
  ReferenceLru reference(capacity);
  CheckAgainstReference(cache, reference, 40, next, probes);
  CHECK_FALSE(cache.by_block());  // fewer runs than kRunsMax so far
  CheckAgainstReference(cache, reference, 360, next, probes);
  CHECK(cache.by_block());
}

TEST_CASE("BlockCache keeps long runs past kRunsMax, and moves past kRunsLimit") {
  // Prompt p is the 8 ids 10p .. 10p+7: a run each, of more than
  // kMinRunBlocks blocks. Past kRunsMax of them the cache stays as runs;
  // past kRunsLimit it moves, keeping the prompts' order: the oldest are
  // evicted first after it.
  static_assert(8 >= BlockCache::kMinRunBlocks);
  constexpr std::uint64_t kKept = BlockCache::kRunsLimit + 100;  // prompts
  BlockCache cache(8 * kKept);
  std::uint64_t prompts = 0;
  const auto insert = [&](std::uint64_t count) {
    for (; count > 0; --count, ++prompts) {
      Blocks prompt;
      for (std::uint64_t i = 0; i < 8; ++i) prompt.push_back(10 * prompts + i);
      cache.Insert(prompt);
    }
  };
  // Whether the cache holds prompt p whole, and no block of prompt p's gap.
  const auto holds = [&](std::uint64_t p) {
    return cache.MatchPrefix(Blocks{10 * p, 10 * p + 1, 10 * p + 2, 10 * p + 3, 10 * p + 4,
                                    10 * p + 5, 10 * p + 6, 10 * p + 7, 10 * p + 8}) == 8;
  };
  insert(BlockCache::kRunsMax + 50);
  CHECK_FALSE(cache.by_block());  // more than kRunsMax runs, but long ones
  insert(BlockCache::kRunsLimit - prompts);
  CHECK(cache.size() == 8 * BlockCache::kRunsLimit);
  CHECK_FALSE(cache.by_block());  // kRunsLimit runs
  for (std::uint64_t p = 0; p < prompts; p += 97) CHECK(holds(p));
  insert(1);
  CHECK(cache.by_block());  // one more
  insert(kKept + 30 - prompts);  // 30 prompts beyond the capacity
  CHECK(cache.size() == 8 * kKept);
  for (std::uint64_t p = 0; p < 30; ++p) CHECK(cache.MatchPrefix(Blocks{10 * p}) == 0);
  for (std::uint64_t p = 30; p < prompts; ++p) REQUIRE(holds(p));
}

TEST_CASE("BlockCache moves to a node per block within a long prompt, which goes on from where it was") {
  // One prompt of more scattered ids than kRunsLimit: the move comes in
  // its middle, and the rest of it is touched after, as one by one.
  const std::size_t capacity = 2 * BlockCache::kRunsLimit;
  Blocks prompt;
  for (std::uint64_t i = 0; i < BlockCache::kRunsLimit + BlockCache::kRunsMax; ++i)
    prompt.push_back(i * 7919 + 5);
  prompt.insert(prompt.begin(), {1, 2, 3});  // a leading run, touched last
  BlockCache cache(capacity);
  ReferenceLru reference(capacity);
  cache.Insert(Blocks{1, 2, 3, 4});
  reference.Insert(Blocks{1, 2, 3, 4});
  cache.Insert(prompt);
  reference.Insert(prompt);
  CHECK(cache.by_block());
  CHECK(cache.size() == reference.size());
  CHECK(cache.MatchPrefix(prompt) == prompt.size());
  // Fill to the capacity with new blocks: the oldest go first, in the
  // reference's order (4, then the prompt's last ids).
  Blocks more;
  for (std::uint64_t i = 0; i < BlockCache::kRunsMax + 3; ++i) more.push_back(1000000 + i);
  cache.Insert(more);
  reference.Insert(more);
  CHECK(cache.size() == reference.size());
  for (const std::uint64_t b : prompt) {
    CAPTURE(b);
    REQUIRE((cache.MatchPrefix(Blocks{b}) == 1) == reference.Holds(b));
  }
  CHECK(cache.MatchPrefix(Blocks{4}) == 0);
}

TEST_CASE("BlockRuns::InsertUntil stops once it holds more runs than it may") {
  BlockRuns cache(100);
  // From the last block on: 90, 80, ..., 30 are runs of one; 1 2 3 one run.
  const Blocks prompt = {1, 2, 3, 30, 40, 50, 60, 70, 80, 90};
  CHECK(cache.InsertUntil(prompt, 4) == 5);  // 90 to 50 in: five runs
  CHECK(cache.runs() == 5);
  CHECK(cache.MatchPrefix(Blocks{50, 60, 70, 80, 90}) == 5);
  CHECK(cache.MatchPrefix(Blocks{40}) == 0);
  CHECK(cache.InsertUntil(Blocks(prompt.begin(), prompt.begin() + 5), 100) == 0);
  CHECK(cache.runs() == 8);  // and 40, 30, then 1 2 3
  CHECK(cache.size() == 10);
}

TEST_CASE("BlockRuns: a touch that drops every run, beside a vacant key one above it") {
  // 4 and 10 are evicted and leave their keys' slots vacant; touching
  // 1..3 again drops the only run, and the vacant key 4 just above it is
  // no newest run to continue.
  BlockRuns cache(3);
  cache.Insert(Blocks{4});
  cache.Insert(Blocks{10});
  cache.Insert(Blocks{1, 2, 3});  // evicts 4, then 10
  CHECK(cache.runs() == 1);
  CHECK(cache.key_slots() == 3);
  cache.Insert(Blocks{1, 2, 3});
  CHECK(cache.runs() == 1);
  CHECK(cache.size() == 3);
  CHECK(cache.MatchPrefix(Blocks{1, 2, 3}) == 3);
  CHECK(cache.MatchPrefix(Blocks{4}) == 0);
  cache.Insert(Blocks{4});  // evicts 3
  CHECK(cache.MatchPrefix(Blocks{4}) == 1);
  CHECK(cache.MatchPrefix(Blocks{1, 2, 3}) == 2);
}

TEST_CASE("BlockRuns keeps its vacant key slots within kVacantSlack of its runs") {
  // Each prompt is a run of its own; evicting the oldest leaves its key's
  // slot vacant, and prompts that go among the keys fill some again.
  std::mt19937_64 random(5);
  BlockRuns cache(64);
  std::size_t most = 0;
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t first = 10 * (random() % 5000);
    cache.Insert(Blocks{first, first + 1, first + 2});
    most = std::max(most, cache.key_slots());
    REQUIRE(cache.key_slots() <= 2 * cache.runs() + BlockRuns::kVacantSlack);
  }
  CHECK(cache.runs() == 64 / 3 + 1);  // the last one cut short
  CHECK(most > cache.runs() + BlockRuns::kVacantSlack / 2);  // slots were left vacant
}

TEST_CASE("BlockRuns keeps a prompt whose ids count up as one run") {
  BlockRuns cache(100);
  Blocks prompt;
  for (std::uint64_t i = 0; i < 40; ++i) prompt.push_back(5000 + i);
  cache.Insert(prompt);
  CHECK(cache.runs() == 1);
  cache.Insert(Blocks(prompt.begin(), prompt.begin() + 10));  // its head, touched again
  CHECK(cache.runs() == 1);  // the same order: still one run
  cache.Insert(Blocks(prompt.begin() + 10, prompt.begin() + 20));  // its middle
  CHECK(cache.runs() == 3);
  Blocks newest_first;
  cache.AppendNewestFirst(newest_first);
  Blocks expected(prompt.begin() + 10, prompt.begin() + 20);
  expected.insert(expected.end(), prompt.begin(), prompt.begin() + 10);
  expected.insert(expected.end(), prompt.begin() + 20, prompt.end());
  CHECK(newest_first == expected);
}

TEST_CASE("InstanceBlockCaches: one cache per Instance, emptied by a new registration") {
  InstanceBlockCaches caches(8);
  caches.For(2, 1).Insert(Blocks{1, 2});
  CHECK(caches.For(2, 1).MatchPrefix(Blocks{1, 2}) == 2);
  CHECK(caches.For(0, 1).MatchPrefix(Blocks{1, 2}) == 0);
  CHECK(caches.CachedBlocks(2, 1) == 2);
  CHECK(caches.CachedBlocks(5, 1) == 0);  // never seen
  CHECK(caches.instances() == 3);
  // Registration 4 of Instance 2 is a fresh process: nothing cached.
  CHECK(caches.CachedBlocks(2, 4) == 0);
  CHECK(caches.For(2, 4).MatchPrefix(Blocks{1, 2}) == 0);
  CHECK(caches.CachedBlocks(2, 4) == 0);
  CHECK(caches.capacity() == 8);
}

}  // namespace
}  // namespace lbsim
