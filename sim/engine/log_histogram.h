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
  // Records `v` (finite, >= 0).
  void Add(double v);
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

 private:
  static constexpr int kSubBits = 8;
  static constexpr std::size_t kSub = std::size_t{1} << kSubBits;
  struct Block {
    std::uint32_t exponent = 0;  // the double's biased exponent
    std::array<std::uint64_t, kSub> counts{};
    std::array<double, kSub> max{};
  };
  // The block of `exponent`, made when missing.
  Block& BlockOf(std::uint32_t exponent);

  std::vector<std::unique_ptr<Block>> blocks_;  // by exponent, ascending
  std::size_t last_ = 0;                        // the block used last
  std::uint64_t count_ = 0;
  double sum_ = 0.0;
  double max_ = 0.0;
};

}  // namespace lbsim
