#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace lbsim {

// Counting and finding the set bits of a word without the POPCNT or BMI2
// instructions, which baseline x86-64 lacks: there std::popcount is a
// library call (__popcountdi2), and these are a few inline instructions.

namespace bit_count_detail {

inline constexpr std::uint64_t kOnes = 0x0101010101010101;

// Byte k of the result: how many bits byte k of `bits` has set (0-8).
constexpr std::uint64_t ByteCounts(std::uint64_t bits) {
  bits -= (bits >> 1) & 0x5555555555555555;
  bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333);
  return (bits + (bits >> 4)) & 0x0f0f0f0f0f0f0f0f;
}

}  // namespace bit_count_detail

// How many bits of `bits` are set. None or one, the common case of sparse
// words, costs a test.
constexpr std::size_t CountBits(std::uint64_t bits) {
  if ((bits & (bits - 1)) == 0) return bits != 0;
  return static_cast<std::size_t>((bit_count_detail::ByteCounts(bits) * bit_count_detail::kOnes) >>
                                  56);
}

// The position (0-63) of the k-th set bit of `bits`, counting from the
// least significant and from 0; k < CountBits(bits). The byte that holds
// it is found from the bytes' running counts, all eight compared at once,
// then the bit within that byte.
constexpr int NthSetBit(std::uint64_t bits, std::size_t k) {
  using bit_count_detail::kOnes;
  constexpr std::uint64_t kHigh = 0x8080808080808080;
  // Byte j: the bits set in bytes 0..j (at most 64, so no byte overflows).
  const std::uint64_t running = bit_count_detail::ByteCounts(bits) * kOnes;
  // Byte j's high bit: running byte j <= k. As 128 + k - running byte j
  // lies in [64, 191], no byte borrows from the next.
  const std::uint64_t at_most_k = ((k * kOnes) | kHigh) - running;
  // Running counts only grow, so the bytes at most k are the low ones;
  // how many there are is the byte that holds the k-th bit.
  const int byte = static_cast<int>((((at_most_k & kHigh) >> 7) * kOnes) >> 56);
  const std::size_t before = byte == 0 ? 0 : (running >> (8 * byte - 8)) & 0xff;
  auto rest = static_cast<unsigned>((bits >> (8 * byte)) & 0xff);
  for (std::size_t skip = k - before; skip > 0; --skip) rest &= rest - 1;
  return 8 * byte + std::countr_zero(rest);
}

}  // namespace lbsim
