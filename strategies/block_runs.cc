#include "strategies/block_runs.h"

#include <algorithm>
#include <limits>

namespace lbsim {
namespace {

constexpr std::uint64_t kLastId = std::numeric_limits<std::uint64_t>::max();

// blocks[i] is one more than blocks[i - 1] (without wrapping around).
bool CountsUp(std::span<const std::uint64_t> blocks, std::size_t i) {
  return blocks[i - 1] != kLastId && blocks[i] == blocks[i - 1] + 1;
}

}  // namespace

std::size_t BlockRuns::KeyAtOrAfter(std::uint64_t block) const {
  // The keys up to `block`, counted by a binary search whose steps select
  // rather than branch (which way a step goes is a coin toss).
  std::size_t k = 0;
  if (!keys_.empty()) {
    const std::uint64_t* base = keys_.data();
    for (std::size_t n = keys_.size(); n > 1; n -= n / 2) base = base[n / 2] <= block ? base + n / 2 : base;
    k = static_cast<std::size_t>(base - keys_.data()) + (*base <= block ? 1 : 0);
  }
  // The run with the highest key up to `block`, past vacant slots.
  std::size_t run = k;
  while (run > 0 && Vacant(run - 1)) --run;
  if (run > 0 && runs_[key_runs_[run - 1]].hi >= block) return run - 1;
  return k;
}

std::size_t BlockRuns::MatchPrefix(std::span<const std::uint64_t> blocks) const {
  std::size_t n = 0;
  while (n < blocks.size()) {
    const std::size_t k = KeyAtOrAfter(blocks[n]);
    if (k == keys_.size() || keys_[k] > blocks[n]) break;  // not cached
    // The blocks that count up from here stay in this run up to its end.
    const std::uint64_t hi = runs_[key_runs_[k]].hi;
    ++n;
    while (n < blocks.size() && CountsUp(blocks, n) && blocks[n] <= hi) ++n;
  }
  return n;
}

std::size_t BlockRuns::InsertUntil(std::span<const std::uint64_t> blocks, std::size_t max_runs) {
  if (capacity_ == 0) return 0;
  // Touching blocks[end - 1] down to blocks[0] one by one is touching their
  // runs of counting-up ids from the last run to the first, each whole.
  std::size_t end = blocks.size();
  while (end > 0 && runs() <= max_runs) {
    std::size_t begin = end - 1;
    while (begin > 0 && CountsUp(blocks, begin)) --begin;
    Touch(blocks[begin], blocks[end - 1]);
    Evict();
    end = begin;
  }
  return end;
}

void BlockRuns::Touch(std::uint64_t lo, std::uint64_t hi) {
  // Take lo..hi out of the runs that hold some of them. A run cut in two
  // keeps both parts where it was in the recency order, its lower part
  // the newer. Then k is where lo's key goes: the first key above hi. The
  // slots passed over that are vacant, or left vacant, take lo as their
  // key, which keeps the keys in order when lo goes among them.
  std::size_t k = KeyAtOrAfter(lo);
  while (k < keys_.size() && keys_[k] <= hi) {
    if (Vacant(k)) {
      keys_[k++] = lo;
      continue;
    }
    const std::uint32_t r = key_runs_[k];
    Run& run = runs_[r];
    if (run.lo < lo && run.hi > hi) {  // holds lo..hi and more on both sides
      const std::uint64_t upper_hi = run.hi;
      size_ -= hi - lo + 1;
      run.hi = lo - 1;
      const std::uint32_t upper = NewRun(hi + 1, upper_hi);
      LinkOlderThan(r, upper);
      k = InsertKey(k + 1, hi + 1, upper);
      break;
    }
    if (run.lo < lo) {  // its upper part goes
      size_ -= run.hi - lo + 1;
      run.hi = lo - 1;
      ++k;
    } else if (run.hi > hi) {  // its lower part goes; no run lies above it
      size_ -= hi - run.lo + 1;
      run.lo = hi + 1;
      keys_[k] = hi + 1;
      break;
    } else {  // all of it goes
      size_ -= run.hi - run.lo + 1;
      DropRun(r, k);
      keys_[k++] = lo;
    }
  }
  size_ += hi - lo + 1;
  // A newest run that starts just above hi (its key would be keys_[k])
  // continues this one: lo..hi are newer than all of it, in the same
  // order, and lo takes hi + 1's place among the keys.
  if (k < keys_.size() && !Vacant(k) && key_runs_[k] == newest_ && hi != kLastId &&
      keys_[k] == hi + 1) {
    keys_[k] = lo;
    runs_[newest_].lo = lo;
    return;
  }
  const std::uint32_t r = NewRun(lo, hi);
  LinkNewest(r);
  InsertKey(k, lo, r);
}

void BlockRuns::Evict() {
  while (size_ > capacity_) {
    const std::uint32_t r = oldest_;
    Run& run = runs_[r];
    const std::size_t excess = size_ - capacity_;
    if (run.hi - run.lo >= excess) {  // more blocks than the excess: shorten it
      run.hi -= excess;
      size_ = capacity_;
      break;
    }
    size_ -= run.hi - run.lo + 1;
    DropRun(r, KeyAtOrAfter(run.lo));
  }
  if (vacant_keys_ > runs() + kVacantSlack) Compact();
}

std::uint32_t BlockRuns::NewRun(std::uint64_t lo, std::uint64_t hi) {
  std::uint32_t r;
  if (!free_.empty()) {
    r = free_.back();
    free_.pop_back();
    runs_[r] = {lo, hi, kNone, kNone};
  } else {
    r = static_cast<std::uint32_t>(runs_.size());
    runs_.push_back({lo, hi, kNone, kNone});
  }
  return r;
}

void BlockRuns::DropRun(std::uint32_t r, std::size_t k) {
  Unlink(r);
  free_.push_back(r);
  key_runs_[k] = kNone;
  ++vacant_keys_;
}

std::size_t BlockRuns::InsertKey(std::size_t k, std::uint64_t lo, std::uint32_t r) {
  if (k > 0 && Vacant(k - 1)) {  // its key is at most lo
    keys_[k - 1] = lo;
    key_runs_[k - 1] = r;
    --vacant_keys_;
    return k - 1;
  }
  std::size_t vacant = k;
  while (vacant < keys_.size() && !Vacant(vacant)) ++vacant;
  if (vacant < keys_.size()) {  // the keys from k move up into it
    std::copy_backward(keys_.begin() + k, keys_.begin() + vacant, keys_.begin() + vacant + 1);
    std::copy_backward(key_runs_.begin() + k, key_runs_.begin() + vacant, key_runs_.begin() + vacant + 1);
    --vacant_keys_;
    keys_[k] = lo;
    key_runs_[k] = r;
    return k;
  }
  keys_.insert(keys_.begin() + static_cast<std::ptrdiff_t>(k), lo);
  key_runs_.insert(key_runs_.begin() + static_cast<std::ptrdiff_t>(k), r);
  return k;
}

void BlockRuns::Compact() {
  std::size_t kept = 0;
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    if (Vacant(k)) continue;
    keys_[kept] = keys_[k];
    key_runs_[kept++] = key_runs_[k];
  }
  keys_.resize(kept);
  key_runs_.resize(kept);
  vacant_keys_ = 0;
}

void BlockRuns::LinkNewest(std::uint32_t r) {
  runs_[r].newer = kNone;
  runs_[r].older = newest_;
  (newest_ != kNone ? runs_[newest_].newer : oldest_) = r;
  newest_ = r;
}

void BlockRuns::LinkOlderThan(std::uint32_t at, std::uint32_t r) {
  const std::uint32_t older = runs_[at].older;
  runs_[r].newer = at;
  runs_[r].older = older;
  runs_[at].older = r;
  (older != kNone ? runs_[older].newer : oldest_) = r;
}

void BlockRuns::Unlink(std::uint32_t r) {
  const Run& run = runs_[r];
  (run.newer != kNone ? runs_[run.newer].older : newest_) = run.older;
  (run.older != kNone ? runs_[run.older].newer : oldest_) = run.newer;
}

void BlockRuns::AppendNewestFirst(std::vector<std::uint64_t>& out) const {
  for (std::uint32_t r = newest_; r != kNone; r = runs_[r].older)
    for (std::uint64_t b = runs_[r].lo;; ++b) {
      out.push_back(b);
      if (b == runs_[r].hi) break;
    }
}

}  // namespace lbsim
