#include "sim/io/printable.h"

#include <cstdint>

#include <fmt/format.h>

namespace lbsim {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0.
std::size_t Utf8Length(std::string_view text, std::size_t i, char32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b = byte(i);
  std::size_t n;
  char32_t min;
  if (b < 0x80) {
    code = b;
    return 1;
  } else if ((b & 0xE0) == 0xC0) {
    n = 2, code = b & 0x1F, min = 0x80;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3, code = b & 0x0F, min = 0x800;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4, code = b & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if (code < min || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0;
  return n;
}

// Whether `code` is a format character (Unicode category Cf: bidi
// embeddings, overrides and isolates, zero-width characters, the byte order
// mark, ...) or a line or paragraph separator: invisible, or able to
// reorder or break what a terminal shows around it.
bool IsFormatOrSeparator(char32_t code) {
  struct Range {
    char32_t first, last;
  };
  static constexpr Range kRanges[] = {
      {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
      {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
      {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
      {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
      {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
      {0xE0020, 0xE007F}};
  if (code < 0xAD) return false;
  for (const Range& r : kRanges)
    if (code >= r.first && code <= r.last) return true;
  return false;
}

}  // namespace

std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t code = 0;
    std::size_t n = Utf8Length(text, i, code);
    if (n == 0) {
      fmt::format_to(std::back_inserter(out), "\\x{:02x}",
                     static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    switch (code) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (code < 0x20 || (code >= 0x7F && code <= 0x9F) || IsFormatOrSeparator(code))
          fmt::format_to(std::back_inserter(out), fmt::runtime(code > 0xFFFF ? "\\U{:08x}" : "\\u{:04x}"),
                         static_cast<std::uint32_t>(code));
        else
          out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

}  // namespace lbsim
