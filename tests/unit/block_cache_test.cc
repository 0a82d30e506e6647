// BlockCache and InstanceBlockCaches: the LRU KV-cache model that kv_aware
// keeps and that measures every strategy's prefix hit rate. BlockCache is
// also checked against a plain LRU list written from its contract, on
// random prompts of ids that crowd its table.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>
#include <vector>

#include "strategies/block_cache.h"

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

TEST_CASE("BlockCache holds what a plain LRU list holds, on random prompts") {
  std::mt19937_64 random(5);
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
    BlockCache cache(capacity);
    ReferenceLru reference(capacity);
    for (int step = 0; step < 400; ++step) {
      Blocks prompt(random() % 12);
      for (std::uint64_t& b : prompt)
        b = universe[random() % (random() % 4 == 0 ? universe.size() : universe.size() / 3)];
      cache.Insert(prompt);
      reference.Insert(prompt);
      REQUIRE(cache.size() == reference.size());
      for (std::uint64_t b : universe) {
        CAPTURE(b);
        REQUIRE((cache.MatchPrefix(Blocks{b}) == 1) == reference.Holds(b));
      }
      // A prompt's leading run of cached blocks.
      std::size_t expected = 0;
      while (expected < prompt.size() && reference.Holds(prompt[expected])) ++expected;
      CHECK(cache.MatchPrefix(prompt) == expected);
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
