#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace lbsim {

// A distribution of values >= 0 in constant memory per order of magnitude:
// each value falls in the bucket named by the top 8 bits of its double's
// mantissa and its exponent (a double's bits, shifted right by 44: buckets
// 1/256 of a power of two wide), and each bucket keeps its count and the
// largest value it took. A percentile is the largest value of the bucket
// that holds the nearest-rank value (rank ceil(p x n / 100)), so it is a
// value that was recorded, at most 1/256 (0.4%) above the exact nearest-rank
// percentile. Counts, max and sum are exact. Memory: 4 KiB per power of two
// the values span, whatever their number.
class LogHistogram {
 public:
  // Records `v` (finite, >= 0) `n` times, as n Adds of it would: the sum
  // adds it n times in turn, so a run of equal values costs one bucket
  // update.
  void Add(double v, std::uint64_t n = 1);
  // Adds every value `other` recorded.
  void Merge(const LogHistogram& other);

  std::uint64_t count() const { return count_; }
  // The sum of the values, added in the order they were recorded (Merge
  // adds the other's sum).
  double sum() const { return sum_; }
  double max() const { return max_; }
  // The p-th percentile (p an integer percent, 1 to 100) as above; 0 when
  // nothing was recorded.
  double Percentile(unsigned p) const;
  // The same per mille (0 to 1000; 0: the smallest value's bucket, rank 1).
  double Quantile(std::uint32_t per_mille) const;

 private:
  static constexpr int kSubBits = 8;
  static constexpr std::size_t kSub = std::size_t{1} << kSubBits;
  struct Bucket {
    std::uint64_t count = 0;
    double max = 0.0;
  };
  struct Block {
    std::uint32_t exponent = 0;  // the double's biased exponent
    std::array<Bucket, kSub> buckets{};
  };
  // The block of `exponent`, made when missing.
  Block& BlockOf(std::uint32_t exponent) {
    const std::uint16_t at = where_[exponent];
    return at ? *blocks_[at - 1] : NewBlock(exponent);
  }
  Block& NewBlock(std::uint32_t exponent);

  std::vector<std::unique_ptr<Block>> blocks_;  // in the order they were made
  std::array<std::uint16_t, 2048> where_{};     // by exponent: index in blocks_ + 1, or 0
  std::uint64_t count_ = 0;
  double sum_ = 0.0;
  double max_ = 0.0;
};

}  // namespace lbsim
