#pragma once

// JSON text tested eight bytes at a time (no SIMD needed): the word tricks
// the scanner, the line layouts and the decision log share.

#include <cstdint>

#include "base/load_word.h"

namespace lbsim::json_bytes {

inline constexpr std::uint64_t kOnes = 0x0101010101010101u;
inline constexpr std::uint64_t kHighs = 0x8080808080808080u;

using lbsim::LoadWord;

// Flags (the high bit of each byte) the bytes of `v` a JSON string cannot
// hold as they are: '"', '\\' and control characters (below 0x20); bytes
// from 0x80 up are not flagged. The lowest flag is exact (false flags can
// only appear above a true one), so countr_zero finds the first such byte.
inline std::uint64_t EscapeBytes(std::uint64_t v) {
  auto zero_bytes = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  return zero_bytes(v ^ (kOnes * '"')) | zero_bytes(v ^ (kOnes * '\\')) |
         ((v - kOnes * 0x20) & ~v & kHighs);
}

}  // namespace lbsim::json_bytes
