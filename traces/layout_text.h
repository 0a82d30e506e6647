#pragma once

// The byte-level readers of learned line layouts (LineLayouts, HintLayout):
// literal compares and the readers of number and id slots. Inline: they
// run for every value of every line a layout reads.

#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "base/load_word.h"
#include "base/json/json_bytes.h"
#include "traces/trace_event.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lbsim::layout_text {

// Most digits a slot's number may have: below 2^53 as an integer, so the
// value and the division below are exact before their one rounding.
inline constexpr std::size_t kMaxDigits = 15;

using json_bytes::LoadWord;

// Whether the `n` bytes at `a` and `b` are equal; a few word compares
// instead of a call for the short literals of a layout.
inline bool SameBytes(const char* a, const char* b, std::size_t n) {
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (LoadWord(a + i) != LoadWord(b + i)) return false;
    return LoadWord(a + n - 8) == LoadWord(b + n - 8);
  }
  if (n >= 4)
    return LoadWord32(a) == LoadWord32(b) && LoadWord32(a + n - 4) == LoadWord32(b + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// Whether the `n` bytes at `literal` come next at `p`, in a text that ends
// at `end`.
inline bool LiteralAt(const char* p, const char* end, const char* literal, std::size_t n) {
  return static_cast<std::size_t>(end - p) >= n && SameBytes(p, literal, n);
}

// Whether each of the `n` bytes (at least 16) at `p` is at most `slack`'s
// byte above `base`'s (as unsigned bytes, wrapping): where the slack is 0
// the byte is the base's, where the base is '0' and the slack 9 it is a
// digit. Sixteen bytes at a time with SSE2.
inline bool WithinSlack(const char* p, const char* base, const char* slack, std::size_t n) {
#if defined(__SSE2__)
  const auto chunk_fits = [&](std::size_t i) {
    const auto load = [i](const char* q) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + i));
    };
    const __m128i above = _mm_sub_epi8(load(p), load(base)), limit = load(slack);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(above, limit), limit)) == 0xFFFF;
  };
  for (std::size_t i = 0; i + 16 < n; i += 16)
    if (!chunk_fits(i)) return false;
  return chunk_fits(n - 16);
#else
  for (std::size_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(p[i] - base[i]) > static_cast<unsigned char>(slack[i]))
      return false;
  return true;
#endif
}

// Past the `null` at `p`, in a text that ends at `end`; nullptr when
// something else is there (a null slot's value).
inline const char* ReadNull(const char* p, const char* end) {
  return LiteralAt(p, end, "null", 4) ? p + 4 : nullptr;
}

// Past the `true`, `false` or `null` at `p`, in a text that ends at `end`;
// nullptr when none is there (the value of a key passed over).
inline const char* ReadWord(const char* p, const char* end) {
  if (LiteralAt(p, end, "true", 4) || LiteralAt(p, end, "null", 4)) return p + 4;
  return LiteralAt(p, end, "false", 5) ? p + 5 : nullptr;
}

inline bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') <= 9; }

// 10^k for k up to 19, exact as integers (and as doubles).
inline constexpr std::uint64_t kPowersOfTen[20] = {
    1,                  10,                  100,                  1000,
    10000,              100000,              1000000,              10000000,
    100000000,          1000000000,          10000000000,          100000000000,
    1000000000000,      10000000000000,      100000000000000,      1000000000000000,
    10000000000000000,  100000000000000000,  1000000000000000000,  10000000000000000000u};

// The (up to) 8 bytes from `p` of the text [begin, end), the first in the
// lowest byte and zeros past the end, read without touching a byte outside
// the text.
inline std::uint64_t Load8(const char* p, const char* begin, const char* end) {
  if (end - p >= 8) return LoadWord(p);
  if (p == end) return 0;
  if (end - begin >= 8) return LoadWord(end - 8) >> (8 * (8 - (end - p)));
  std::uint64_t v = 0;
  std::memcpy(&v, p, static_cast<std::size_t>(end - p));
  return v;
}

// How many of the bytes in `v` (from the lowest) are digits before the
// first that is not, up to 8. A byte above a non-digit may be misjudged
// (a carry), but no byte before the first non-digit is.
inline unsigned DigitRun(std::uint64_t v) {
  constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0, kThrees = 0x3030303030303030;
  const std::uint64_t not_digit =
      ((v & kHigh) ^ kThrees) | (((v + 0x0606060606060606) & kHigh) ^ kThrees);
  return not_digit == 0 ? 8 : static_cast<unsigned>(std::countr_zero(not_digit)) / 8;
}

// Past the run of digits at `p`, in a text that ends at `end`: eight bytes
// at a time (DigitRun) while eight remain.
inline const char* SkipDigits(const char* p, const char* end) {
  while (end - p >= 8) {
    const unsigned n = DigitRun(LoadWord(p));
    p += n;
    if (n < 8) return p;
  }
  while (p != end && IsDigit(*p)) ++p;
  return p;
}

// The value of the first `n` (1 to 8) bytes of `v`, all digits, the first
// the most significant: three multiply-adds instead of a loop whose exit
// the branch predictor cannot know.
inline std::uint64_t DigitsValue(std::uint64_t v, unsigned n) {
  std::uint64_t d = (v - 0x3030303030303030) << (8 * (8 - n));
  d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FF;
  d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFF;
  return (d * 10000 + (d >> 32)) & 0xFFFFFFFF;
}

// Reads the run of digits at `p` in the text [begin, end) into `value`
// (wrapping past 19 digits; callers refuse more than kMaxDigits) and
// returns where it ends.
inline const char* ReadDigits(const char* p, const char* begin, const char* end,
                              std::uint64_t& value) {
  const std::uint64_t v = Load8(p, begin, end);
  const unsigned n = DigitRun(v);
  if (n == 0) return p;
  value = DigitsValue(v, n);
  p += n;
  if (n == 8)
    while (p < end && IsDigit(*p)) value = value * 10 + static_cast<unsigned>(*p++ - '0');
  return p;
}

// Whether long double arithmetic rounds to a 64-bit significand here (the
// x87's extended precision), so that LongFractionValue may use it; not
// under a tool that computes long doubles as doubles (valgrind).
inline bool ExtendedLongDouble() {
#if defined(__x86_64__) && __LDBL_MANT_DIG__ == 64
  static const bool extended = [] {
    volatile long double one = 1.0L, tiny = 0x1p-63L;
    return one + tiny != one;
  }();
  return extended;
#else
  return false;
#endif
}

// m / 10^k for an integer m of more than 2^53 and k <= 19, rounded once,
// correctly, as from_chars rounds the decimal it came from; false when it
// cannot tell (then from_chars decides). m and 10^k are exact long
// doubles, so their quotient is the exact one rounded to 64 bits; rounding
// that to a double's 53 gives the exact quotient's double unless it fell
// on the midpoint of two doubles, which a 64-bit rounding can reach from
// either side (its lowest 11 bits are then 0x400).
inline bool LongFractionValue(std::uint64_t m, std::size_t k, double& out) {
#if defined(__x86_64__) && __LDBL_MANT_DIG__ == 64
  if (k >= 20 || !ExtendedLongDouble()) return false;
  const long double quotient =
      static_cast<long double>(m) / static_cast<long double>(kPowersOfTen[k]);
  std::uint64_t significand;
  std::memcpy(&significand, &quotient, sizeof significand);  // bytes 0-7 of the 80 bits
  if ((significand & 0x7FF) == 0x400) return false;
  out = static_cast<double>(quotient);
  return true;
#else
  (void)m, (void)k, (void)out;
  return false;
#endif
}

// The fraction [first, last), its whole part `whole` (of `whole_digits`
// digits) and its fraction `fraction` (of `decimals` digits; each of the
// two wraps past 19 digits), more than kMaxDigits digits in all, as
// from_chars reads it. When its digits, leading zeros aside, make an
// integer m of at most 19 digits: m / 10^k, one division of exact doubles
// up to 2^53, beyond it LongFractionValue; otherwise from_chars itself. So
// the seconds of a Unix time with microseconds (1764750000.022293) or with
// Python's 17 digits, and Python's shortest digits of any time, stay on
// the layouts' path. Returns `last`, or nullptr when from_chars refuses it
// (out of the double range), for the general path to decide.
[[gnu::noinline]] inline const char* ReadLongFraction(const char* first, const char* last,
                                                      std::uint64_t whole,
                                                      std::size_t whole_digits,
                                                      std::uint64_t fraction,
                                                      std::size_t decimals, TraceTime& out) {
  constexpr std::uint64_t kExactLimit = std::uint64_t{1} << 53;
  // A whole part "0" adds no digit to m (nor do the fraction's leading
  // zeros, which `fraction` does not hold). A longer one may have wrapped
  // to 0.
  const bool zero = whole_digits == 1 && whole == 0;
  if (decimals <= 19 && (zero || whole_digits + decimals <= 19)) {
    const std::uint64_t m = whole * kPowersOfTen[decimals] + fraction;
    double value;
    if (m <= kExactLimit) {
      const auto scale = static_cast<double>(kPowersOfTen[decimals]);
      out = TraceTime{static_cast<double>(m) / scale, false, 0};
      return last;
    }
    if (LongFractionValue(m, decimals, value)) {
      out = TraceTime{value, false, 0};
      return last;
    }
  }
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last) return nullptr;
  out = TraceTime{value, false, 0};
  return last;
}

// Reads a number slot at `p` of the text [begin, end) (see LineLayouts)
// into `out` as ReadNumber reads it: an integer (at most kMaxDigits
// digits) is exact, and a fraction m / 10^k with m and 10^k exact doubles
// is rounded once, correctly, as from_chars rounds (a longer one, see
// ReadLongFraction). Returns where the number ends, or nullptr when it is
// not one the slot takes.
inline const char* ReadDecimal(const char* p, const char* begin, const char* end,
                               TraceTime& out) {
  const char* const first = p;
  std::uint64_t m = 0;
  p = ReadDigits(p, begin, end, m);
  const std::size_t whole = static_cast<std::size_t>(p - first);
  if (whole == 0 || (*first == '0' && whole > 1)) return nullptr;
  if (p == end || *p != '.') {
    if (whole > kMaxDigits) return nullptr;
    out = TraceTime{static_cast<double>(m), true, m};
    return p;
  }
  const char* const fraction = ++p;
  std::uint64_t f = 0;
  p = ReadDigits(p, begin, end, f);
  const std::size_t decimals = static_cast<std::size_t>(p - fraction);
  if (decimals == 0) return nullptr;
  if (whole + decimals > kMaxDigits) return ReadLongFraction(first, p, m, whole, f, decimals, out);
  const std::uint64_t scale = kPowersOfTen[decimals];
  m = m * scale + f;
  out = TraceTime{static_cast<double>(m) / static_cast<double>(scale), false, 0};
  return p;
}

// Past the number at `p`, of a key the decoder passes over: any JSON
// number (a sign, an integer part without leading zeros, a fraction, an
// exponent, each of any length) that JsonScanner takes without asking
// whether it overflows a double, that is, whose whole digits and exponent
// add up to at most 300. nullptr otherwise: the general path decides.
inline const char* SkipPassedNumber(const char* p, const char* end) {
  if (p != end && *p == '-') ++p;
  const char* const digits = p;
  p = SkipDigits(p, end);
  const auto whole = static_cast<std::size_t>(p - digits);
  if (whole == 0 || (*digits == '0' && whole > 1)) return nullptr;
  if (p != end && *p == '.') {
    const char* const fraction = ++p;
    p = SkipDigits(p, end);
    if (p == fraction) return nullptr;
  }
  long exponent = 0;
  if (p != end && (*p == 'e' || *p == 'E')) {
    const bool negative = ++p != end && *p == '-';
    if (p != end && (*p == '+' || *p == '-')) ++p;
    const char* const first = p;
    for (; p != end && IsDigit(*p); ++p)
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');  // as the scanner saturates
    if (p == first) return nullptr;
    if (negative) exponent = -exponent;
  }
  return static_cast<long>(whole) + exponent <= 300 ? p : nullptr;
}

// Flags (high bit per byte) the bytes of `v` an id slot stops at: '"',
// '\\', control characters and bytes above 0x7E. The lowest flag is exact
// (false flags can only appear above a true one).
inline std::uint64_t IdStops(std::uint64_t v) {
  using json_bytes::kHighs, json_bytes::kOnes;
  return json_bytes::EscapeBytes(v) | ((v + kOnes) & kHighs) | (v & kHighs);
}

// Past the bytes from `p` an id slot reads on (see IdStops): at the first
// stop, or within eight bytes of `end`. Sixteen bytes at a time with SSE2,
// then eight.
inline const char* SkipIdBytes(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed: the bytes from 0x80 up are below 0x20 too.
    const __m128i stops =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stops));
    if (mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#endif
  while (end - p >= 8) {
    const std::uint64_t stops = IdStops(json_bytes::LoadWord(p));
    if (stops) return p + std::countr_zero(stops) / 8;
    p += 8;
  }
  return p;
}

// Reads an id (an instance or request slot, a hint's Instance) at `p`: up
// to the closing quote, which stays for the next literal. Returns where the
// id ends, or nullptr when it is empty, longer than `max_bytes` or holds a
// byte other than printable ASCII, or an escape.
inline const char* ReadId(const char* p, const char* end, std::size_t max_bytes,
                          std::string_view& out) {
  const char* const first = p;
  for (p = SkipIdBytes(p, end); p < end && *p != '"'; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c > 0x7E || c == '\\') return nullptr;
  }
  const auto size = static_cast<std::size_t>(p - first);
  if (size == 0 || size > max_bytes) return nullptr;
  out = std::string_view(first, size);
  return p;
}

// Whether the four bytes at `p`, before `end`, are hex digits; their value
// in `code`.
inline bool ReadHex4(const char* p, const char* end, unsigned& code) {
  if (end - p < 4) return false;
  code = 0;
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    unsigned digit;
    if (IsDigit(static_cast<char>(c))) digit = c - '0';
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') digit = (c | 0x20) - 'a' + 10;
    else return false;
    code = code << 4 | digit;
  }
  return true;
}

// Past the escape at `p` (just after its backslash), in a text that ends
// at `end`, as JsonScanner accepts it: one of \" \\ \/ \b \f \n \r \t, or
// \uXXXX, a high surrogate only with an escaped low one after it;
// nullptr otherwise.
inline const char* SkipEscape(const char* p, const char* end) {
  if (p == end) return nullptr;
  switch (*p) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
      return p + 1;
    case 'u': {
      unsigned code;
      if (!ReadHex4(p + 1, end, code) || (code >= 0xDC00 && code <= 0xDFFF)) return nullptr;
      p += 5;
      if (code < 0xD800 || code > 0xDBFF) return p;
      if (end - p < 2 || p[0] != '\\' || p[1] != 'u' || !ReadHex4(p + 2, end, code) ||
          code < 0xDC00 || code > 0xDFFF)
        return nullptr;
      return p + 6;
    }
    default:
      return nullptr;
  }
}

// Past the UTF-8 sequence at `p` (a byte >= 0x80), in a text that ends at
// `end`, when it is well-formed (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), as JsonScanner accepts it; nullptr
// otherwise.
inline const char* SkipUtf8(const char* p, const char* end) {
  const json_bytes::Utf8Lead rule = json_bytes::Utf8LeadOf(static_cast<unsigned char>(*p));
  if (rule.continuation == 0) return nullptr;
  ++p;
  for (int i = 0; i < rule.continuation; ++i, ++p) {
    if (p == end) return nullptr;
    const auto c = static_cast<unsigned char>(*p);
    if (c < (i == 0 ? rule.second_lo : 0x80) || c > (i == 0 ? rule.second_hi : 0xBF))
      return nullptr;
  }
  return p;
}

// Past the characters of the string whose opening quote is just before
// `p`, up to its closing quote (which stays for the next literal), in a
// text that ends at `end`: any string JsonScanner accepts, escapes and
// UTF-8 included (the value of a key passed over, never decoded). nullptr
// when it holds anything else or does not end before `end`.
inline const char* SkipStringBody(const char* p, const char* end) {
  for (;;) {
    p = SkipIdBytes(p, end);
    if (p == end) return nullptr;
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return p;
    if (c == '\\') p = SkipEscape(p + 1, end);
    else if (c >= 0x80) p = SkipUtf8(p, end);
    else if (c >= 0x20) ++p;  // printable, or DEL: a string may hold it
    else return nullptr;      // a control character
    if (!p) return nullptr;
  }
}

// Past the spaces and tabs at `p`, in a text that ends at `end`.
inline const char* SkipBlanks(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  return p;
}

// Past the block id at `p`, an integer below 2^64 without sign, leading
// zero, fraction or exponent (what the decoder reads as a block id, but
// "-0"), its value in `id`; nullptr when it is not one.
inline const char* ReadBlockId(const char* p, const char* end, std::uint64_t& id) {
  if (end - p >= 8) {
    // Up to seven digits from one word, without a branch per digit (whose
    // exit mispredicts once a number).
    const std::uint64_t v = LoadWord(p);
    const unsigned digits = DigitRun(v);
    if (digits < 8) {
      if (digits == 0 || (digits > 1 && *p == '0')) return nullptr;
      p += digits;  // before `end`: a byte of the word that is not a digit
      if (*p == '.' || *p == 'e' || *p == 'E') return nullptr;
      id = DigitsValue(v, digits);
      return p;
    }
  }
  const char* const first = p;
  std::uint64_t value = 0;
  // 19 digits stay below 10^19 < 2^64: only a 20th needs overflow checks,
  // which would otherwise lengthen every digit's step.
  const char* const unchecked_end = end - p > 19 ? p + 19 : end;
  for (; p != unchecked_end && IsDigit(*p); ++p) value = value * 10 + static_cast<unsigned>(*p - '0');
  for (; p != end && IsDigit(*p); ++p)
    if (__builtin_mul_overflow(value, 10u, &value) ||
        __builtin_add_overflow(value, static_cast<unsigned>(*p - '0'), &value))
      return nullptr;
  if (p == first || (*first == '0' && p - first > 1)) return nullptr;
  if (p != end && (*p == '.' || *p == 'e' || *p == 'E')) return nullptr;
  id = value;
  return p;
}

// Past the array of block ids at `p` (an arrival's prefix_blocks: '[', ids
// ReadBlockId reads separated by ',', ']', spaces and tabs between), the
// ids appended to `ids` when it is not null; nullptr when it is not one
// (`ids` may then hold some of them).
inline const char* ReadBlockIds(const char* p, const char* end, std::vector<std::uint64_t>* ids) {
  if (p == end || *p != '[') return nullptr;
  p = SkipBlanks(p + 1, end);
  if (p != end && *p == ']') return p + 1;
  // A prompt's ids count up (Mooncake's hash_ids): after an id of at most
  // six digits followed by ", ", the next is guessed to be that id plus one
  // (without a carry), and its text compared rather than parsed. The low
  // `width` bytes of `guess` (those `mask` keeps; none while it is 0) are
  // always the text of id `guessed` then ", "; `unit` adds one to its last
  // digit.
  std::uint64_t guess = 0, mask = 0, unit = 0, guessed = 0;
  unsigned width = 0;
  for (;;) {
    if (mask != 0 && end - p >= 8 && (LoadWord(p) & mask) == guess) {
      if (ids) ids->push_back(guessed++);
      if (static_cast<char>(guess >> (8 * (width - 3))) == '9') mask = 0;  // a carry next
      else guess += unit;
      p = SkipBlanks(p + width, end);
      continue;
    }
    const char* const first = p;
    std::uint64_t id;
    if (!(p = ReadBlockId(p, end, id))) return nullptr;
    if (ids) ids->push_back(id);
    const char* const id_end = p;
    p = SkipBlanks(p, end);
    if (p == end) return nullptr;
    if (*p == ']') return p + 1;
    if (*p != ',') return nullptr;
    // The next guess, when the id is followed by ", " right away (the
    // word holds both) and does not end in a 9.
    const auto digits = static_cast<unsigned>(id_end - first);
    if (p == id_end && digits <= 6 && end - first >= 8 && id_end[1] == ' ' && id_end[-1] != '9') {
      width = digits + 2;
      mask = ~std::uint64_t{0} >> (8 * (8 - width));
      unit = std::uint64_t{1} << (8 * (digits - 1));
      guess = (LoadWord(first) & mask) + unit;
      guessed = id + 1;
    }
    p = SkipBlanks(p + 1, end);
  }
}

// Past the string at `p` (its opening quote) that ReadId would read, or
// "", in a text that ends at `end`; nullptr when it is not one.
inline const char* SkipPlainString(const char* p, const char* end, std::string_view& out) {
  if (p == end || *p != '"') return nullptr;
  ++p;
  if (p < end && *p == '"') {
    out = {};
    return p + 1;
  }
  p = ReadId(p, end, end - p, out);
  return p && p < end && *p == '"' ? p + 1 : nullptr;
}

// Past the scalar at `p`, of a key the decoder passes over: a string (see
// SkipStringBody, its quotes included), a number (see SkipPassedNumber),
// true, false or null. nullptr when it is none of these.
inline const char* SkipPassedScalar(const char* p, const char* end) {
  if (p == end) return nullptr;
  if (*p == '"') {
    p = SkipStringBody(p + 1, end);
    return p ? p + 1 : nullptr;  // past the closing quote
  }
  if (*p == 't' || *p == 'f' || *p == 'n') return ReadWord(p, end);
  return SkipPassedNumber(p, end);
}

// The keys of one JSON object read so far, at most N: Add remembers a
// key unless it is a repeat or the N+1st. A repeat is the general path's
// to report. The storage is left uninitialized (only the entries Add
// wrote are read): zeroing it cost more than reading a small object.
// The keys' bytes must outlive it.
template <std::size_t N>
class KeysSeen {
 public:
  // Whether `key` is new and one of the first N; it is then remembered.
  bool Add(std::string_view key) {
    if (count_ == N) return false;
    for (std::size_t i = 0; i < count_; ++i)
      if (key == std::string_view(data_[i], size_[i])) return false;
    data_[count_] = key.data();
    size_[count_++] = key.size();
    return true;
  }

 private:
  const char* data_[N];
  std::size_t size_[N];
  std::size_t count_ = 0;
};

// The deepest a passed-over object or array may nest here (1: flat).
inline constexpr std::size_t kMaxPassedDepth = 16;
// The most keys one object in a passed-over value may have here (each is
// compared with the ones before it).
inline constexpr std::size_t kMaxObjectKeys = 32;

// Past the object or array at `p`, of a key the decoder passes over, when
// it is plain: its members scalars SkipPassedScalar reads past, or objects
// and arrays of this kind, nested at most `depth` levels (this one
// included); an object's keys plain strings (as SkipPlainString reads
// them), at most kMaxObjectKeys, all different (a key repeated in a nested
// object is the scanner's to report); an array's members any number; only
// spaces and tabs between. A request's chat body (`"messages": [{"role":
// ..., "content": ...}]`) is one. Otherwise nullptr: the general path
// decides.
// Out of line: it is rare, and inlined it kept the hint readers from being
// inlined themselves.
const char* SkipPassedContainer(const char* p, const char* end,
                                std::size_t depth = kMaxPassedDepth);

// Past the value at `p`, of a key the decoder passes over: a scalar
// SkipPassedScalar reads past, or an object or array SkipPassedContainer
// does. nullptr when it is neither.
inline const char* SkipPassedValue(const char* p, const char* end) {
  if (p != end && (*p == '{' || *p == '[')) return SkipPassedContainer(p, end);
  return SkipPassedScalar(p, end);
}

}  // namespace lbsim::layout_text
