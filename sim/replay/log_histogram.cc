#include "sim/replay/log_histogram.h"

#include <algorithm>
#include <bit>

namespace lbsim {

LogHistogram::Block& LogHistogram::NewBlock(std::uint32_t exponent) {
  auto block = std::make_unique<Block>();
  block->exponent = exponent;
  blocks_.push_back(std::move(block));
  where_[exponent] = static_cast<std::uint16_t>(blocks_.size());
  return *blocks_.back();
}

void LogHistogram::Add(double v, std::uint64_t n) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
  Block& b = BlockOf(static_cast<std::uint32_t>(bits >> 52));
  const std::size_t sub = (bits >> (52 - kSubBits)) & (kSub - 1);
  Bucket& bucket = b.buckets[sub];
  bucket.count += n;
  bucket.max = std::max(bucket.max, v);
  count_ += n;
  double sum = sum_;
  for (std::uint64_t k = 0; k < n; ++k) sum += v;
  sum_ = sum;
  max_ = std::max(max_, v);
}

void LogHistogram::Merge(const LogHistogram& other) {
  for (const std::unique_ptr<Block>& from : other.blocks_) {
    Block& to = BlockOf(from->exponent);
    for (std::size_t i = 0; i < kSub; ++i) {
      to.buckets[i].count += from->buckets[i].count;
      to.buckets[i].max = std::max(to.buckets[i].max, from->buckets[i].max);
    }
  }
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
}

double LogHistogram::Percentile(unsigned p) const { return Quantile(p * 10); }

double LogHistogram::Quantile(std::uint32_t per_mille) const {
  if (count_ == 0) return 0.0;
  // ceil(q x n / 1000), at least 1.
  const std::uint64_t rank = std::max<std::uint64_t>((per_mille * count_ + 999) / 1000, 1);
  std::uint64_t seen = 0;
  for (std::uint16_t at : where_) {  // exponents ascending
    if (!at) continue;
    const Block& b = *blocks_[at - 1];
    for (const Bucket& bucket : b.buckets) {
      seen += bucket.count;
      if (seen >= rank) return bucket.max;
    }
  }
  return max_;
}

}  // namespace lbsim
