#pragma once

// JSON text tested eight bytes at a time (no SIMD needed): the word tricks
// the scanner and the line layouts share.

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

// What RFC 3629 asks of the bytes after `lead`, the first byte (>= 0x80)
// of a UTF-8 sequence: how many follow, and the range of the first of
// them (the others are 0x80-0xBF). `continuation` is 0 when no
// well-formed sequence starts with `lead`.
struct Utf8Lead {
  int continuation = 0;
  unsigned second_lo = 0x80, second_hi = 0xBF;
};

inline Utf8Lead Utf8LeadOf(unsigned lead) {
  Utf8Lead rule;
  if (lead >= 0xC2 && lead <= 0xDF) {
    rule.continuation = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    rule.continuation = 2;
    if (lead == 0xE0) rule.second_lo = 0xA0;       // no overlong forms
    else if (lead == 0xED) rule.second_hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    rule.continuation = 3;
    if (lead == 0xF0) rule.second_lo = 0x90;       // no overlong forms
    else if (lead == 0xF4) rule.second_hi = 0x8F;  // nothing above U+10FFFF
  }
  return rule;
}

}  // namespace lbsim::json_bytes
