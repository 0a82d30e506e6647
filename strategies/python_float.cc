#include "strategies/python_float.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

namespace lbsim {
namespace {

// The first code point of every run of ten Unicode decimal digits (0-9)
// beyond ASCII, Unicode 15.0 (Python 3.12), ascending.
constexpr std::array<char32_t, 67> kDigitZeros = {
    0x660,   0x6F0,   0x7C0,   0x966,   0x9E6,   0xA66,   0xAE6,   0xB66,   0xBE6,   0xC66,
    0xCE6,   0xD66,   0xDE6,   0xE50,   0xED0,   0xF20,   0x1040,  0x1090,  0x17E0,  0x1810,
    0x1946,  0x19D0,  0x1A80,  0x1A90,  0x1B50,  0x1BB0,  0x1C40,  0x1C50,  0xA620,  0xA8D0,
    0xA900,  0xA9D0,  0xA9F0,  0xAA50,  0xABF0,  0xFF10,  0x104A0, 0x10D30, 0x11066, 0x110F0,
    0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950,
    0x11C50, 0x11D50, 0x11DA0, 0x11F50, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2,
    0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0, 0x1E950, 0x1FBF0};
// The runs Unicode 15.0 added (Kawi, Nag Mundari): not digits to 3.11.
constexpr std::array<char32_t, 2> kDigitZerosSince15 = {0x11F50, 0x1E4F0};

// The decimal value of a non-ASCII code point, or -1 when it is no digit.
int UnicodeDigit(char32_t c, PythonVersion python) {
  auto after = std::upper_bound(kDigitZeros.begin(), kDigitZeros.end(), c);
  if (after == kDigitZeros.begin()) return -1;
  const char32_t zero = *(after - 1);
  if (c - zero >= 10) return -1;
  if (python == PythonVersion::k311 &&
      std::find(kDigitZerosSince15.begin(), kDigitZerosSince15.end(), zero) !=
          kDigitZerosSince15.end())
    return -1;
  return static_cast<int>(c - zero);
}

// Whether a non-ASCII code point is a space to str.isspace() (the same set
// in Unicode 14.0 and 15.0).
bool UnicodeSpace(char32_t c) {
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Decodes one UTF-8 sequence at text[i], advancing i; false when it is not
// well formed.
bool NextCodePoint(std::string_view text, std::size_t& i, char32_t& out) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || lead >= 0xF8 || i + length > text.size()) return false;
  char32_t c = lead & (0x3F >> (length - 1));
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return false;
    c = (c << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  out = c;
  return true;
}

// CPython's first step: the text in ASCII, each Unicode digit as its
// digit and each Unicode space as ' '. False when another non-ASCII
// character (or bad UTF-8) is met: float() rejects such a text.
bool ToAscii(std::string_view text, PythonVersion python, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      out.push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    char32_t c = 0;
    if (!NextCodePoint(text, i, c)) return false;
    if (UnicodeSpace(c)) {
      out.push_back(' ');
    } else if (int digit = UnicodeDigit(c, python); digit >= 0) {
      out.push_back(static_cast<char>('0' + digit));
    } else {
      return false;
    }
  }
  return true;
}

bool AsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool Digit(char c) { return c >= '0' && c <= '9'; }

// Removes underscores that each stand between two digits; false when one
// does not.
bool DropUnderscores(std::string& text) {
  std::string kept;
  char previous = '\0';
  for (char c : text) {
    if (c == '_') {
      if (!Digit(previous)) return false;
    } else {
      if (previous == '_' && !Digit(c)) return false;
      kept.push_back(c);
    }
    previous = c;
  }
  if (previous == '_') return false;
  text = std::move(kept);
  return true;
}

// Lower-cased equality with an ASCII word.
bool EqualsIgnoringCase(std::string_view text, std::string_view word) {
  if (text.size() != word.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[i]) return false;
  }
  return true;
}

// Whether `text` is a whole decimal literal: digits with an optional
// point (at least one digit), then an optional exponent.
bool DecimalLiteral(std::string_view text) {
  std::size_t i = 0, digits = 0;
  while (i < text.size() && Digit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && Digit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t first = i;
    while (i < text.size() && Digit(text[i])) ++i;
    if (i == first) return false;
  }
  return i == text.size();
}

}  // namespace

std::optional<double> PythonFloatOfText(std::string_view text, PythonVersion python) {
  std::string ascii;
  if (!ToAscii(text, python, ascii)) return std::nullopt;
  std::size_t first = 0, last = ascii.size();
  while (first < last && AsciiSpace(ascii[first])) ++first;
  while (last > first && AsciiSpace(ascii[last - 1])) --last;
  if (first == last) return std::nullopt;
  std::string body = ascii.substr(first, last - first);
  if (body.find('_') != std::string::npos && !DropUnderscores(body)) return std::nullopt;

  std::string_view number = body;
  bool negative = false;
  if (!number.empty() && (number.front() == '+' || number.front() == '-')) {
    negative = number.front() == '-';
    number.remove_prefix(1);
  }
  const double sign = negative ? -1.0 : 1.0;
  if (EqualsIgnoringCase(number, "inf") || EqualsIgnoringCase(number, "infinity"))
    return sign * std::numeric_limits<double>::infinity();
  if (EqualsIgnoringCase(number, "nan")) return std::copysign(std::nan(""), sign);
  if (!DecimalLiteral(number)) return std::nullopt;

  double value = 0.0;
  auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error == std::errc::result_out_of_range) {
    // Past the double range (inf) or below it (0 or a subnormal): strtod
    // rounds both as Python does.
    const std::string copy(number);
    value = std::strtod(copy.c_str(), nullptr);
  } else if (error != std::errc() || end != number.data() + number.size()) {
    return std::nullopt;
  }
  return negative ? -value : value;
}

}  // namespace lbsim
