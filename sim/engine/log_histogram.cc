#include "sim/engine/log_histogram.h"

#include <algorithm>
#include <bit>

namespace lbsim {

LogHistogram::Block& LogHistogram::BlockOf(std::uint32_t exponent) {
  if (last_ < blocks_.size() && blocks_[last_]->exponent == exponent) return *blocks_[last_];
  auto it = std::lower_bound(blocks_.begin(), blocks_.end(), exponent,
                             [](const std::unique_ptr<Block>& b, std::uint32_t e) {
                               return b->exponent < e;
                             });
  if (it == blocks_.end() || (*it)->exponent != exponent) {
    auto block = std::make_unique<Block>();
    block->exponent = exponent;
    it = blocks_.insert(it, std::move(block));
  }
  last_ = static_cast<std::size_t>(it - blocks_.begin());
  return **it;
}

void LogHistogram::Add(double v) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
  Block& b = BlockOf(static_cast<std::uint32_t>(bits >> 52));
  const std::size_t sub = (bits >> (52 - kSubBits)) & (kSub - 1);
  ++b.counts[sub];
  b.max[sub] = std::max(b.max[sub], v);
  ++count_;
  sum_ += v;
  max_ = std::max(max_, v);
}

void LogHistogram::Merge(const LogHistogram& other) {
  for (const std::unique_ptr<Block>& from : other.blocks_) {
    Block& to = BlockOf(from->exponent);
    for (std::size_t i = 0; i < kSub; ++i) {
      to.counts[i] += from->counts[i];
      to.max[i] = std::max(to.max[i], from->max[i]);
    }
  }
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
}

double LogHistogram::Percentile(unsigned p) const {
  if (count_ == 0) return 0.0;
  const std::uint64_t rank = (p * count_ + 99) / 100;  // ceil(p * n / 100), >= 1
  std::uint64_t seen = 0;
  for (const std::unique_ptr<Block>& b : blocks_)
    for (std::size_t i = 0; i < kSub; ++i) {
      seen += b->counts[i];
      if (seen >= rank) return b->max[i];
    }
  return max_;
}

}  // namespace lbsim
