#include "base/json/flat_object_scanner.h"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/json/json_limits.h"

namespace lbsim {
namespace {

// The longest line (less trailing whitespace) taken on the fast path: its
// byte classes fit two 64-bit words with the position after it.
constexpr std::size_t kMaxFlatLine = 127;
// With the object itself far below kMaxEventValues: the fast path never
// meets the value limit.
static_assert(FlatObject::kMaxMembers + 1 < kMaxEventValues);
static_assert(kMaxNestingDepth >= 1);

// 128 flags, bit i for the byte at index i.
struct Bits128 {
  std::uint64_t word[2] = {0, 0};

  void Or(std::uint32_t bits, std::size_t at) {
    // 16-bit chunks start at multiples of 16 below 128: never split.
    word[at / 64] |= std::uint64_t{bits} << (at % 64);
  }
  // The index of the first set bit at or after `from`, or 128.
  std::size_t NextAt(std::size_t from) const {
    if (from < 64) {
      if (const std::uint64_t low = word[0] & (~std::uint64_t{0} << from))
        return static_cast<std::size_t>(std::countr_zero(low));
      from = 64;
    }
    if (from < 128) {
      if (const std::uint64_t high = word[1] & (~std::uint64_t{0} << (from - 64)))
        return 64 + static_cast<std::size_t>(std::countr_zero(high));
    }
    return 128;
  }
  Bits128 operator~() const { return {{~word[0], ~word[1]}}; }
};

// The classes of 16 bytes the scan needs, bit i for byte i.
struct Classes {
  std::uint32_t quote = 0;  // '"'
  std::uint32_t space = 0;  // ' '
  std::uint32_t digit = 0;  // '0'-'9'
  std::uint32_t bad = 0;    // '\\', below 0x20 or from 0x80 up

  Classes operator>>(unsigned n) const { return {quote >> n, space >> n, digit >> n, bad >> n}; }
};

// Classifies the `count` (<= 16) bytes at `text`, one at a time.
Classes ClassifyShort(const char* text, std::size_t count) {
  Classes c;
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char b = static_cast<unsigned char>(text[i]);
    c.quote |= std::uint32_t{b == '"'} << i;
    c.space |= std::uint32_t{b == ' '} << i;
    c.digit |= std::uint32_t{b >= '0' && b <= '9'} << i;
    c.bad |= std::uint32_t{b == '\\' || b < 0x20 || b >= 0x80} << i;
  }
  return c;
}

// Classifies the 16 bytes at `text`.
Classes Classify16(const char* text) {
#if defined(__SSE2__)
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text));
  const auto mask = [](__m128i m) { return static_cast<std::uint32_t>(_mm_movemask_epi8(m)); };
  const auto is = [&](char c) { return _mm_cmpeq_epi8(bytes, _mm_set1_epi8(c)); };
  // Signed compares: bytes from 0x80 up are negative, so below 0x20 too.
  return {mask(is('"')), mask(is(' ')),
          mask(_mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8('0' - 1)),
                             _mm_cmplt_epi8(bytes, _mm_set1_epi8('9' + 1)))),
          mask(_mm_or_si128(is('\\'), _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20))))};
#else
  return ClassifyShort(text, 16);
#endif
}

// Where a line's quotes, spaces and digits are, found 16 bytes at a time,
// so that the scan finds the end of a string, a run of spaces or a run of
// digits with a bit search instead of a loop over bytes.
struct LineMap {
  Bits128 quote;
  Bits128 not_space;  // set from the end of the line on
  Bits128 not_digit;  // set from the end of the line on

  // False when text[0, size) (size <= kMaxFlatLine) holds a backslash, a
  // control character or a byte from 0x80 up: then a string may hold an
  // escape or need a UTF-8 check, which the general scanner does.
  bool Map(const char* text, std::size_t size) {
    Bits128 space, digit;
    std::uint32_t bad = 0;
    for (std::size_t at = 0; at < size; at += 16) {
      const std::size_t count = size - at < 16 ? size - at : 16;
      Classes c;
      if (count == 16) {
        c = Classify16(text + at);
      } else if (size >= 16) {
        // The line's last 16 bytes, less those classified already: no
        // byte past the line is read.
        c = Classify16(text + size - 16) >> static_cast<unsigned>(16 - count);
      } else {
        c = ClassifyShort(text, count);
      }
      quote.Or(c.quote, at);
      space.Or(c.space, at);
      digit.Or(c.digit, at);
      bad |= c.bad;
    }
    not_space = ~space;
    not_digit = ~digit;
    return bad == 0;
  }
};

}  // namespace

bool ScanFlatObject(std::string_view line, FlatObject& out) {
  // Trailing whitespace (a CR before the newline) is left out of the map.
  std::size_t size = line.size();
  while (size > 0 && (line[size - 1] == ' ' || line[size - 1] == '\r' ||
                      line[size - 1] == '\t' || line[size - 1] == '\n'))
    --size;
  if (size > kMaxFlatLine) return false;
  LineMap map;
  if (!map.Map(line.data(), size)) return false;
  const char* text = line.data();
  // From here on every byte before `size` is printable ASCII, and the map
  // answers for every position up to `size`, where it finds no quote, no
  // space and no digit. text[size] is readable (a space or the NUL after
  // the line), so looking at the byte where a search stopped is safe.
  // Most runs of spaces are none or one: those need no search.
  const auto skip_spaces = [&](std::size_t at) {
    if (text[at] != ' ') return at;
    if (text[at + 1] != ' ') return at + 1;
    return map.not_space.NextAt(at);
  };

  std::size_t i = skip_spaces(0);
  // Moves `i` past `word` (a literal) when the line holds it there.
  const auto take_literal = [&](std::string_view word) {
    if (size - i < word.size() || std::memcmp(text + i, word.data(), word.size()) != 0)
      return false;
    i += word.size();
    return true;
  };
  if (text[i] != '{') return false;
  const std::size_t object = i;
  i = skip_spaces(i + 1);
  if (text[i] == '}') return false;  // rare: left to the general scanner
  std::size_t count = 0;
  for (;;) {
    if (text[i] != '"' || count == FlatObject::kMaxMembers) return false;
    const std::size_t key = i;
    i = map.quote.NextAt(i + 1);
    if (i >= size) return false;
    const std::string_view key_text(text + key, i + 1 - key);
    i = skip_spaces(i + 1);
    if (text[i] != ':') return false;
    i = skip_spaces(i + 1);
    const std::size_t start = i;
    JsonKind kind;
    switch (text[i]) {
      case '"':
        kind = JsonKind::kString;
        i = map.quote.NextAt(i + 1);
        if (i >= size) return false;
        ++i;
        break;
      case 't':
        kind = JsonKind::kTrue;
        if (!take_literal("true")) return false;
        break;
      case 'f':
        kind = JsonKind::kFalse;
        if (!take_literal("false")) return false;
        break;
      case 'n':
        kind = JsonKind::kNull;
        if (!take_literal("null")) return false;
        break;
      case '-':
      case '0': case '1': case '2': case '3': case '4':
      case '5': case '6': case '7': case '8': case '9': {
        // JSON's grammar less the exponent: -?(0|[1-9][0-9]*)(.[0-9]+)?
        // (an exponent fails the check for a delimiter after the value).
        // Within kMaxFlatLine bytes such a number is finite as a double.
        kind = JsonKind::kNumber;
        const std::size_t digits = i + (text[i] == '-');
        i = map.not_digit.NextAt(digits);
        if (i == digits || (text[digits] == '0' && i > digits + 1)) return false;
        if (text[i] == '.') {
          const std::size_t fraction = i + 1;
          i = map.not_digit.NextAt(fraction);
          if (i == fraction) return false;
        }
        break;
      }
      default:
        return false;
    }
    out.members[count++] = JsonMember{JsonView{JsonKind::kString, false, key_text},
                                      JsonView{kind, false, std::string_view(text + start, i - start)}};
    i = skip_spaces(i);
    if (text[i] == '}') break;
    if (text[i] != ',') return false;
    i = skip_spaces(i + 1);
  }
  ++i;
  out.value = JsonView{JsonKind::kObject, false, std::string_view(text + object, i - object)};
  out.count = count;
  return i == size;
}

}  // namespace lbsim
