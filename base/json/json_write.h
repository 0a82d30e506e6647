#pragma once

// Writing JSON text without building a value first: string literals
// (escaped as nlohmann::json and Python write them) and numbers (the
// shortest text that reads back as the same double). The decision log, the
// trace writer's lines, the exec strategy's requests and error messages use
// them; the string writer is inline, as it runs for every id of every
// decision line.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lbsim {

namespace json_write {

// Whether `c` must be escaped inside a JSON string.
inline bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

#if defined(__SSE2__)
// One bit per byte of `v` (movemask order) that a JSON string cannot hold
// as it is: '"', '\\' and control characters (below 0x20).
inline unsigned EscapeMask(__m128i v) {
  const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)));
}
#endif

// Copies the n bytes at `from` to `to` as they are tested; true when none
// of them needs escaping. Nothing is read or written past the n bytes: the
// last block of a string overlaps the one before it (SSE2 on x86-64: 16, 8
// or 4 bytes at a time; bytes one by one elsewhere).
inline bool CopyIfPlain(char* to, const char* from, std::size_t n) {
#if defined(__SSE2__)
  if (n >= 16) {
    unsigned flags = 0;
    for (std::size_t i = 0; i + 16 <= n; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), v);
      flags |= EscapeMask(v);
    }
    const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + n - 16));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 16), last);
    return (flags | EscapeMask(last)) == 0;
  }
  if (n >= 8) {
    const __m128i first = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from));
    const __m128i last = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from + n - 8));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(to), first);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(to + n - 8), last);
    return EscapeMask(_mm_unpacklo_epi64(first, last)) == 0;
  }
  if (n >= 4) {
    std::uint32_t first, last;
    std::memcpy(&first, from, 4);
    std::memcpy(&last, from + n - 4, 4);
    std::memcpy(to, &first, 4);
    std::memcpy(to + n - 4, &last, 4);
    const __m128i both = _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(first)),
                                            _mm_cvtsi32_si128(static_cast<int>(last)));
    return (EscapeMask(both) & 0xff) == 0;  // the other bytes are zeros
  }
#endif
  bool plain = true;
  for (std::size_t i = 0; i < n; ++i) {
    to[i] = from[i];
    plain = plain && !NeedsEscape(static_cast<unsigned char>(from[i]));
  }
  return plain;
}

}  // namespace json_write

// The most bytes WriteJsonString writes for `s`: the quotes, and six
// (\u00XX) for every byte.
inline std::size_t JsonStringBound(std::string_view s) { return 2 + 6 * s.size(); }

// Writes `s` as a JSON string literal (quotes included) at `p`, which has
// room for JsonStringBound(s) bytes; returns the end of what it wrote.
inline char* WriteJsonString(char* p, std::string_view s) {
  *p++ = '"';
  // Most strings (ids, names) need no escape: copied as they are tested,
  // and written again, escaped, only when some byte needs it.
  if (json_write::CopyIfPlain(p, s.data(), s.size())) {
    p += s.size();
    *p++ = '"';
    return p;
  }
  for (const char byte : s) {
    const auto c = static_cast<unsigned char>(byte);
    if (!json_write::NeedsEscape(c)) {
      *p++ = byte;
      continue;
    }
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\b': *p++ = 'b'; break;
      case '\f': *p++ = 'f'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      default:
        // \u00XX in lower-case hex, as nlohmann::json and Python write it.
        *p++ = 'u';
        *p++ = '0';
        *p++ = '0';
        *p++ = "0123456789abcdef"[c >> 4];
        *p++ = "0123456789abcdef"[c & 15];
    }
  }
  *p++ = '"';
  return p;
}

// Appends `s` to `out` as a JSON string literal (quotes included).
void AppendJsonString(std::string& out, std::string_view s);

// The most bytes WriteJsonDouble writes.
inline constexpr std::size_t kJsonNumberBound = 32;

// Writes `x` as JSON at `p`, which has room for kJsonNumberBound bytes: the
// shortest text that reads back as the same double (a short decimal as it
// is, else nlohmann::json's and Python's text), null when it is not
// finite. Returns the end of what it wrote.
char* WriteJsonDouble(char* p, double x);

// Appends `x` to `out` as WriteJsonDouble writes it.
void AppendJsonDouble(std::string& out, double x);

}  // namespace lbsim
