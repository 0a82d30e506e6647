#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace lbsim {

// Eight bytes at `p` as a word whose least significant byte is the first,
// whatever the machine's byte order: byte k of the word is the k-th byte.
inline std::uint64_t LoadWord(const void* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

// Four bytes at `p` as a number whose least significant byte is the first,
// as LoadWord reads eight.
inline std::uint32_t LoadWord32(const void* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

}  // namespace lbsim
