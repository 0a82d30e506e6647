// CountBits and NthSetBit, the bit counts that stand in for POPCNT and
// BMI2 on baseline x86-64: against a bit-by-bit reference, on every word
// shape a slot set holds (empty, one bit, full, runs, random densities).

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "base/bit_count.h"

namespace lbsim {
namespace {

// The positions of the set bits of `bits`, lowest first, one bit at a time.
std::vector<int> SetBits(std::uint64_t bits) {
  std::vector<int> positions;
  for (int b = 0; b < 64; ++b)
    if ((bits >> b) & 1) positions.push_back(b);
  return positions;
}

// Checks both functions against the reference on `bits`; returns how many
// positions were checked.
std::size_t CheckWord(std::uint64_t bits) {
  const std::vector<int> positions = SetBits(bits);
  CAPTURE(bits);
  REQUIRE(CountBits(bits) == positions.size());
  for (std::size_t k = 0; k < positions.size(); ++k) {
    CAPTURE(k);
    REQUIRE(NthSetBit(bits, k) == positions[k]);
  }
  return positions.size();
}

TEST_CASE("bit count: CountBits and NthSetBit agree with counting bit by bit") {
  std::size_t checked = CheckWord(0);
  CHECK(CountBits(0) == 0);
  checked += CheckWord(~std::uint64_t{0});
  for (int b = 0; b < 64; ++b) {
    // One bit, everything but one bit, and the runs up to and from it.
    checked += CheckWord(std::uint64_t{1} << b);
    checked += CheckWord(~(std::uint64_t{1} << b));
    checked += CheckWord((std::uint64_t{2} << b) - 1);
    checked += CheckWord(~std::uint64_t{0} << b);
  }
  // Every byte value in every byte, the rest empty or full: the byte that
  // holds the k-th bit, and the counts before it, at each place.
  for (int byte = 0; byte < 8; ++byte) {
    for (std::uint64_t v = 1; v < 256; ++v) {
      checked += CheckWord(v << (8 * byte));
      checked += CheckWord((v << (8 * byte)) | ~(std::uint64_t{0xff} << (8 * byte)));
    }
  }
  // Random words of each density, from one bit in 64 to 63 in 64.
  std::mt19937_64 rng(23);
  for (int density = 1; density < 64; ++density) {
    for (int n = 0; n < 200; ++n) {
      std::uint64_t bits = 0;
      for (int b = 0; b < 64; ++b)
        if (static_cast<int>(rng() % 64) < density) bits |= std::uint64_t{1} << b;
      checked += CheckWord(bits);
    }
  }
  CHECK(checked > 400000);
}

TEST_CASE("bit count: usable in constant expressions") {
  static_assert(CountBits(0xf0f0) == 8);
  static_assert(NthSetBit(0xf0f0, 0) == 4);
  static_assert(NthSetBit(0xf0f0, 7) == 15);
  static_assert(NthSetBit(std::uint64_t{1} << 63, 0) == 63);
  CHECK(NthSetBit(0x8000000000000001, 1) == 63);
}

}  // namespace
}  // namespace lbsim
