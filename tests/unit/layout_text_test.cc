// layout_text::ReadId, the id reader of learned line layouts: against a
// byte-at-a-time reading of the same rule, for ids of every length up to
// past two 16-byte steps, each ending at every kind of byte an id stops at,
// and texts that end right after it. layout_text::SkipStringBody, the
// reader of passed-over strings: against JsonScanner, on random strings of
// the bytes escapes and UTF-8 are made of. layout_text::ReadDecimal's
// fractions of more than 15 digits: against from_chars, bit for bit, on
// random ones and on ones at and beside the midpoints of two doubles.
// layout_text::KeysSeen: repeats and the key past its count refused.
// layout_text::SkipPassedNumber: against JsonScanner, on random numbers
// and near-numbers. layout_text::ReadBlockId: against a byte-at-a-time
// reading of its rule, for ids of 1 to 21 digits followed by every kind of
// byte, at every distance from the text's end. layout_text::ReadBlockIds:
// against a byte-at-a-time reading of its rule, on runs of ids that count
// up across carries, with every separator, broken bytes and every cut.

#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "base/json/json_scanner.h"
#include "traces/layout_text.h"

namespace lbsim {
namespace {

// ReadId's rule, one byte at a time: the id runs to the first '"'; any
// other byte outside printable ASCII, or a '\\', refuses it, as does an
// empty id or one longer than `max_bytes`. Returns its length, or -1.
long ReferenceIdLength(std::string_view text, std::size_t max_bytes) {
  std::size_t n = 0;
  for (; n < text.size() && text[n] != '"'; ++n) {
    const auto c = static_cast<unsigned char>(text[n]);
    if (c < 0x20 || c > 0x7E || c == '\\') return -1;
  }
  if (n == 0 || n > max_bytes) return -1;
  return static_cast<long>(n);
}

long ReadIdLength(std::string_view text, std::size_t max_bytes) {
  std::string_view id;
  const char* end = layout_text::ReadId(text.data(), text.data() + text.size(), max_bytes, id);
  if (!end) return -1;
  CHECK(id.data() == text.data());
  CHECK(end == text.data() + id.size());
  return static_cast<long>(id.size());
}

TEST_CASE("ReadId: stops where a byte-at-a-time reading stops, at every offset") {
  const std::string stops[] = {"\"", "\\", std::string(1, '\0'), "\x1f", "\x7f",
                               "\x80", "\xff", "\n", "\xc3\xa9"};
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string id;
    for (std::size_t i = 0; i < length; ++i) id += static_cast<char>('a' + i % 26);
    for (const std::string& stop : stops) {
      for (const std::string& after : {std::string(), std::string("\", \"t\": 1}"),
                                       std::string(20, 'x')}) {
        const std::string text = id + stop + after;
        CAPTURE(length);
        CAPTURE(text);
        CHECK(ReadIdLength(text, 64) == ReferenceIdLength(text, 64));
        CHECK(ReadIdLength(text, 20) == ReferenceIdLength(text, 20));
      }
    }
    // No closing quote at all: the id runs to the end of the text.
    CHECK(ReadIdLength(id, 64) == ReferenceIdLength(id, 64));
  }
}

TEST_CASE("ReadId: a UUID request id, and one with a byte it refuses deep inside") {
  const std::string uuid = "22e2c43f-8a1a-434e-a73c-a28e4d361955";
  CHECK(ReadIdLength(uuid + "\", \"duration\": 0.1}", 64) == 36);
  std::string bad = uuid;
  bad[33] = '\x01';
  CHECK(ReadIdLength(bad + "\"}", 64) == -1);
  bad[33] = '\\';
  CHECK(ReadIdLength(bad + "\"}", 64) == -1);
  CHECK(ReadIdLength(uuid + "\"}", 35) == -1);
}

TEST_CASE("SkipStringBody: takes exactly the strings JsonScanner accepts") {
  // Pieces that make up escapes (good and bad), UTF-8 sequences (well-formed
  // and not), and plain bytes.
  const std::vector<std::string> pieces = {
      "a", "Z", " ", "~", "\x7f", "\\", "\\\\", "\\\"", "\\/", "\\b", "\\n", "\\t", "\\x",
      "\\u", "\\u00e9", "\\uD83D", "\\ude00", "\\uDBFF\\uDFFF", "\\u12", "u", "0", "f",
      "\xc3\xa9", "\xc3", "\xa9", "\xe2\x82\xac", "\xe0\x80\x80", "\xed\xa0\x80",
      "\xf0\x9f\x98\x80", "\xf4\x90\x80\x80", "\xc0\x80", "\xff", "\x01", "\t",
      std::string(1, '\0'), std::string(17, 'x')};
  std::mt19937_64 random(7);
  JsonScanner scanner;
  int accepted = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string body;
    const std::size_t n = random() % 6;
    for (std::size_t k = 0; k < n; ++k) body += pieces[random() % pieces.size()];
    const std::string text = "\"" + body + "\"";
    CAPTURE(text);
    JsonView value;
    const bool valid = scanner.ScanText(text, value) == JsonScanner::Status::kOk;
    // After the closing quote, what a line has next.
    const std::string line = text + ", \"t\": 1}";
    const char* const end = line.data() + line.size();
    const char* const stop = layout_text::SkipStringBody(line.data() + 1, end);
    // Valid: stops at the closing quote. Invalid: refused, or (a quote
    // escaped) stops at a later quote, which the next literal refuses.
    if (valid) {
      CHECK(stop == line.data() + text.size() - 1);
    } else {
      CHECK((stop == nullptr || stop != line.data() + text.size() - 1));
    }
    accepted += valid;
  }
  CHECK(accepted > 5000);
}

TEST_CASE("SkipPassedNumber: takes the numbers JsonScanner accepts, leaving those past 1e300 to it") {
  // Pieces of numbers, good and bad: signs, digits and runs of them,
  // points, exponent marks, and exponents that put a number past the
  // double range, or far below it.
  const std::vector<std::string> pieces = {
      "-", "+", "0", "00", "1", "7", "9", "12345678901234567890", std::string(40, '3'), ".",
      "e", "E", "e-", "E+", "e5", "e-05", "e300", "e-400", "e99999999999", "x"};
  std::mt19937_64 random(11);
  JsonScanner scanner;
  int accepted = 0, left = 0;
  for (int i = 0; i < 100000; ++i) {
    std::string text;
    const std::size_t n = 1 + random() % 5;
    for (std::size_t k = 0; k < n; ++k) text += pieces[random() % pieces.size()];
    CAPTURE(text);
    JsonView value;
    const bool valid = scanner.ScanText(text, value) == JsonScanner::Status::kOk &&
                       value.is_number();
    // What a line has after a passed-over value.
    const std::string line = text + ", \"t\": 1}";
    const char* const stop = layout_text::SkipPassedNumber(line.data(), line.data() + line.size());
    const char* const number_end = line.data() + text.size();
    if (!valid) {
      // Refused, or stopped short of the text's end (the next literal
      // refuses the line then).
      CHECK(stop != number_end);
    } else {
      // Read past whole, or left to the general path (a number the
      // scanner checks for overflow).
      CHECK((stop == number_end || stop == nullptr));
      accepted += stop == number_end;
      left += stop == nullptr;
    }
  }
  CHECK(accepted > 10000);
  CHECK(left > 100);
  // Python's floats below 1e-4 and above 1e16, integers of any length: read past.
  for (const std::string text : {"1e-05", "-2.5e-07", "1e+16", "1.5E299",
                                 "123456789012345678901234567890", "-0", "0.0", "1e-99999999"}) {
    CAPTURE(text);
    CHECK(layout_text::SkipPassedNumber(text.data(), text.data() + text.size()) ==
          text.data() + text.size());
  }
  // Whole digits and exponent past 300: the scanner's to decide (it
  // refuses 1e309 in an event's own members, and takes 1e301 and 0e99999).
  for (const std::string& text : std::vector<std::string>{"1e301", "10e300", "-1e999", "0e99999",
                                                          std::string(301, '1')}) {
    CAPTURE(text);
    CHECK(layout_text::SkipPassedNumber(text.data(), text.data() + text.size()) == nullptr);
  }
  // Not numbers at all.
  for (const std::string text : {"", "-", "01", ".5", "1.", "1e", "1e+", "+1", "--1"}) {
    CAPTURE(text);
    const char* const stop = layout_text::SkipPassedNumber(text.data(), text.data() + text.size());
    CHECK(stop != text.data() + text.size());
  }
}

// `text` read by ReadDecimal and by from_chars: the same double, bit for
// bit, or both refused (ReadDecimal refuses nothing from_chars reads here).
void CheckReadsAsFromChars(const std::string& text) {
  INFO(text);
  TraceTime got;
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  double expected = 0.0;
  const auto [ptr, ec] = std::from_chars(begin, end, expected);
  REQUIRE(ec == std::errc());
  REQUIRE(ptr == end);
  REQUIRE(layout_text::ReadDecimal(begin, begin, end, got) == end);
  CHECK_FALSE(got.integral);
  CHECK(std::bit_cast<std::uint64_t>(got.value) == std::bit_cast<std::uint64_t>(expected));
}

// `digits` (a run of significant digits, the first not 0) written with its
// point after `point` of them, or, when `point` is 0, after "0." and
// `zeros` zeros.
std::string Positional(const std::string& digits, std::size_t point, std::size_t zeros) {
  if (point == 0) return "0." + std::string(zeros, '0') + digits;
  if (point >= digits.size()) return digits + std::string(point - digits.size(), '0') + ".0";
  return digits.substr(0, point) + "." + digits.substr(point);
}

TEST_CASE("ReadDecimal: fractions of 16 to 24 digits read as from_chars reads them") {
  std::mt19937_64 random(29);
  for (int i = 0; i < 300000; ++i) {
    const std::size_t n = 16 + random() % 9;  // significant digits
    std::string digits(1, static_cast<char>('1' + random() % 9));
    while (digits.size() < n) digits += static_cast<char>('0' + random() % 10);
    const std::size_t point = random() % n;  // 0: below 1
    CheckReadsAsFromChars(Positional(digits, point, point == 0 ? random() % 6 : 0));
  }
  // Python's shortest digits of sums of random steps, as a script writes
  // times: 17 significant digits or fewer, most above 2^53 as integers.
  double t = 0.0;
  for (int i = 0; i < 300000; ++i) {
    t += static_cast<double>(random() >> 11) * 0x1p-53 * (i % 2 ? 0.003 : 50.0);
    char text[64];
    const auto [ptr, ec] = std::to_chars(text, text + sizeof text, t, std::chars_format::fixed);
    REQUIRE(ec == std::errc());
    const std::string fixed(text, ptr);
    if (fixed.find('.') == std::string::npos) continue;
    CheckReadsAsFromChars(fixed);
  }
}

TEST_CASE("ReadDecimal: fractions at and beside the midpoint of two doubles round as from_chars") {
  // The midpoint of a double and the next is exact as a long double (54
  // bits); its first 17 to 19 significant digits, and those digits one
  // more or one less in the last place, are decimals whose quotient a
  // 64-bit rounding can put on the midpoint from either side.
  std::mt19937_64 random(31);
  int written = 0;
  for (int i = 0; i < 200000; ++i) {
    const double d = std::ldexp(1.0 + static_cast<double>(random() >> 11) * 0x1p-53,
                                static_cast<int>(random() % 80) - 20);
    const long double mid =
        (static_cast<long double>(d) + static_cast<long double>(std::nextafter(d, 2 * d))) / 2;
    const int significant = 17 + static_cast<int>(random() % 3);
    char text[64];
    std::snprintf(text, sizeof text, "%.*Le", significant - 1, mid);
    // d.ddd...e[+-]XX: the digits, and where the point goes.
    std::string digits;
    const char* p = text;
    for (; *p != 'e'; ++p)
      if (*p != '.') digits += *p;
    const int exponent = std::atoi(p + 1);
    for (int delta : {0, 1, -1}) {
      std::string shifted = digits;
      // One more or one less in the last place (a carry or borrow that
      // would change the digit count is skipped).
      if (delta == 1 && shifted.back() != '9') ++shifted.back();
      else if (delta == -1 && shifted.back() != '0') --shifted.back();
      else if (delta != 0) continue;
      const std::string value =
          exponent >= 0 ? Positional(shifted, static_cast<std::size_t>(exponent) + 1, 0)
                        : Positional(shifted, 0, static_cast<std::size_t>(-exponent - 1));
      CheckReadsAsFromChars(value);
      ++written;
    }
  }
  CHECK(written > 500000);
  // A few by hand: 2^53 + 1 is the midpoint of 2^53 and 2^53 + 2; the
  // decimals just above it round up, those just below and it itself to
  // the even 2^53.
  for (const std::string text :
       {"9007199254740993.0", "9007199254740993.0004", "9007199254740993.001",
        "9007199254740992.9996", "9007199254740993.00", "4503599627370496.5",
        "4503599627370496.50", "4503599627370496.49", "4503599627370496.51"})
    CheckReadsAsFromChars(text);
  // Whole parts that wrap to 0 in 64 bits (2^64 and 2^65): not a "0".
  for (const std::string text : {"18446744073709551616.5", "36893488147419103232.25",
                                 "18446744073709551616.0000000000000000001"})
    CheckReadsAsFromChars(text);
}

// ReadBlockId's rule, one byte at a time: digits, the value below 2^64,
// no leading zero, and no '.', 'e' or 'E' after them. The end of the id,
// or nullptr.
const char* BlockIdByteAtATime(const char* p, const char* end, std::uint64_t& id) {
  const char* const first = p;
  while (p != end && *p >= '0' && *p <= '9') ++p;
  if (p == first || (*first == '0' && p - first > 1)) return nullptr;
  if (p != end && (*p == '.' || *p == 'e' || *p == 'E')) return nullptr;
  const auto [at, error] = std::from_chars(first, p, id);
  return error == std::errc() && at == p ? p : nullptr;
}

TEST_CASE("ReadBlockId: reads what a byte-at-a-time reading reads, at every length and offset") {
  std::mt19937_64 random(41);
  // Every kind of byte after an id, those just past '9' (':' to '?')
  // included.
  const std::string followers = ",] \t.eE-x0\":;?";
  int read = 0;
  for (int digits = 1; digits <= 21; ++digits) {
    for (int trial = 0; trial < 200; ++trial) {
      std::string id;
      for (int i = 0; i < digits; ++i) id += static_cast<char>('0' + random() % 10);
      if (trial % 4 == 0) id[0] = '0';                    // a leading zero
      if (trial % 7 == 0) id = std::string(digits, '9');  // the largest of its length
      if (digits == 20 && trial % 5 == 0) id = "18446744073709551615";  // 2^64 - 1
      if (digits == 20 && trial % 5 == 1) id = "18446744073709551616";  // 2^64
      for (const char follower : followers) {
        // The text ends right after the id, or a byte or more later: every
        // distance up to past a word.
        for (std::size_t tail = 0; tail <= 9; ++tail) {
          std::string text = id;
          if (tail > 0) text += follower;
          while (text.size() < id.size() + tail) text += ',';
          CAPTURE(text);
          // Digits lie past the text's end, where no byte may be read; and
          // in a copy of its exact size, nothing does (under ASan, a read
          // past it fails).
          const std::vector<char> exact(text.begin(), text.end());
          text += "12345678";
          std::uint64_t got = 1, expected = 2;
          const char* const end = text.data() + exact.size();
          const char* const got_end = layout_text::ReadBlockId(text.data(), end, got);
          const char* const expected_end = BlockIdByteAtATime(text.data(), end, expected);
          REQUIRE(got_end == expected_end);
          if (got_end) {
            REQUIRE(got == expected);
            ++read;
          }
          std::uint64_t in_exact = 3;
          const char* const exact_end =
              layout_text::ReadBlockId(exact.data(), exact.data() + exact.size(), in_exact);
          REQUIRE((exact_end ? exact_end - exact.data() : -1) == (got_end ? got_end - text.data() : -1));
          if (exact_end) REQUIRE(in_exact == expected);
        }
      }
    }
  }
  CHECK(read > 20000);
  // No digits at all.
  for (const std::string text : {"", ",", "]", "-1", "x12345678"}) {
    std::uint64_t id;
    CHECK(layout_text::ReadBlockId(text.data(), text.data() + text.size(), id) == nullptr);
  }
}

// ReadBlockIds' rule, one byte at a time: '[', blanks (spaces and tabs),
// then either ']' or ids as BlockIdByteAtATime reads them, each followed
// by blanks and ',' (then blanks) or ']'. Where it ends, or -1.
std::ptrdiff_t BlockIdsByteAtATime(std::string_view text, std::vector<std::uint64_t>& ids) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = begin;
  const auto blanks = [&] {
    while (p != end && (*p == ' ' || *p == '\t')) ++p;
  };
  if (p == end || *p != '[') return -1;
  ++p;
  blanks();
  if (p != end && *p == ']') return p + 1 - begin;
  for (;;) {
    std::uint64_t id;
    if (!(p = BlockIdByteAtATime(p, end, id))) return -1;
    ids.push_back(id);
    blanks();
    if (p == end) return -1;
    if (*p == ']') return p + 1 - begin;
    if (*p != ',') return -1;
    ++p;
    blanks();
  }
}

TEST_CASE("ReadBlockIds: reads what a byte-at-a-time reading reads, ids counting up or not") {
  // Runs of ids that count up, across carries at every length (9 to 10,
  // 999999 to 1000000, past 8 digits), with each separator and broken
  // ones, and every text cut short of its end: the ids a prompt's blocks
  // have, and what a guess of the next id must not get wrong.
  std::mt19937_64 random(43);
  const std::vector<std::string> separators = {", ", ",", ",  ", " , ", "  , ", ",\t", "\t,\t "};
  const std::vector<std::uint64_t> starts = {0,      1,       7,        95,        990,
                                             9995,   99990,   999995,   9999990,   99999995,
                                             123456, 1234567, 12345678, 18446744073709551610u};
  const std::string breaks = ".eE-x0 ]";
  int read = 0, refused = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::string text = random() % 5 == 0 ? "[ " : "[";
    const std::size_t runs = 1 + random() % 3;
    bool first = true;
    for (std::size_t r = 0; r < runs; ++r) {
      const std::uint64_t start = starts[random() % starts.size()] + random() % 3;
      const std::size_t length = 1 + random() % 14;
      // Most runs keep one separator, ", " or another; some mix them.
      const std::string usual = random() % 2 ? ", " : separators[random() % separators.size()];
      const bool mixed = random() % 4 == 0;
      for (std::size_t i = 0; i < length; ++i, first = false) {
        if (!first) text += mixed ? separators[random() % separators.size()] : usual;
        text += std::to_string(start + i);  // wraps past 2^64 - 1: still an id
      }
    }
    text += random() % 6 == 0 ? " ]" : "]";
    text += R"(, "duration": 0.25})";
    if (trial % 3 == 0) {
      // One byte made something an id or a separator may not be, or may be.
      text[1 + random() % (text.size() - 1)] = breaks[random() % breaks.size()];
    }
    for (std::size_t size = 0; size <= text.size(); ++size) {
      // A copy of the cut's exact size: a read past it fails under ASan.
      const std::vector<char> exact(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(size));
      const std::string_view cut(exact.data(), size);
      CAPTURE(cut);
      std::vector<std::uint64_t> expected, got;
      const std::ptrdiff_t expected_end = BlockIdsByteAtATime(cut, expected);
      const char* const got_end = layout_text::ReadBlockIds(exact.data(), exact.data() + size, &got);
      REQUIRE((got_end ? got_end - exact.data() : -1) == expected_end);
      if (expected_end < 0) {
        ++refused;
        continue;
      }
      REQUIRE(got == expected);
      // Without a vector to fill, the same end.
      REQUIRE(layout_text::ReadBlockIds(exact.data(), exact.data() + size, nullptr) == got_end);
      ++read;
    }
  }
  CHECK(read > 3000);
  CHECK(refused > 3000);
  // After an id ending in 9 the next one's last digit would be ':' if
  // guessed without its carry: such text is refused, not read as an id.
  for (const std::string text :
       {"[19, 1:, 21]        ", "[9, :, 11]          ", "[17, 18, 19, 1:, 21]        ",
        "[7, 8, 9, :, 11]        ", "[197, 198, 199, 19:, 201]   ", "[17, 18, 19, 20, 21]        "}) {
    CAPTURE(text);
    std::vector<std::uint64_t> expected, got;
    const std::ptrdiff_t expected_end = BlockIdsByteAtATime(text, expected);
    const char* const got_end = layout_text::ReadBlockIds(text.data(), text.data() + text.size(), &got);
    CHECK((got_end ? got_end - text.data() : -1) == expected_end);
    if (got_end) CHECK(got == expected);
  }
}

TEST_CASE("KeysSeen: refuses a repeated key and the key past its count, by bytes not by address") {
  layout_text::KeysSeen<3> keys;
  const std::string text = "userstreamuser";  // the two "user"s at different addresses
  CHECK(keys.Add(std::string_view(text).substr(0, 4)));
  CHECK_FALSE(keys.Add(std::string_view(text).substr(10, 4)));  // the same bytes
  CHECK(keys.Add("use"));                                       // a prefix is another key
  CHECK(keys.Add("users"));                                     // and so is a longer one
  CHECK_FALSE(keys.Add("stream"));                              // a fourth: past the count
  CHECK_FALSE(keys.Add("user"));                                // still remembered
  layout_text::KeysSeen<1> one;
  CHECK(one.Add(""));  // an empty key is a key like any other
  CHECK_FALSE(one.Add(""));
}

}  // namespace
}  // namespace lbsim
