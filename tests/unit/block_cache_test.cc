// BlockCache and InstanceBlockCaches: the LRU KV-cache model that kv_aware
// keeps and that measures every strategy's prefix hit rate.

#include <doctest/doctest.h>

#include <cstdint>
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
