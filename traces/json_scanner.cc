#include "traces/json_scanner.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "traces/trace_reader.h"

namespace lbsim {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool InRange(char c, unsigned lo, unsigned hi) {
  unsigned u = static_cast<unsigned char>(c);
  return u >= lo && u <= hi;
}

// Eight bytes at `p` as a word whose least significant byte is p[0].
std::uint64_t LoadWord(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

// Flags (high bit per byte) the bytes a string scan must look at: '"',
// '\\', control characters and non-ASCII. The lowest flag is always exact
// (false flags can only appear above a true one).
std::uint64_t SpecialBytes(std::uint64_t v) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  constexpr std::uint64_t kHighs = 0x8080808080808080u;
  auto zero_bytes = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  return zero_bytes(v ^ (kOnes * '"')) | zero_bytes(v ^ (kOnes * '\\')) |
         ((v - kOnes * 0x20) & ~v & kHighs) | (v & kHighs);
}

// Whether the number literal [first, last) overflows a double, given its
// count of integer digits and its (saturated) decimal exponent.
bool Overflows(const char* first, const char* last, long integer_digits, long exponent) {
  if (integer_digits + exponent <= 300) return false;  // below 1e300
  std::string copy(first, last);
  return !std::isfinite(std::strtod(copy.c_str(), nullptr));
}

}  // namespace

bool JsonScanner::Count() { return ++values_ <= kMaxEventValues; }

std::string LimitMessage(JsonScanner::Status status) {
  if (status == JsonScanner::Status::kTooMany)
    return fmt::format("more than the limit of {} JSON values", kMaxEventValues);
  return fmt::format("nesting deeper than the limit of {} levels", kMaxNestingDepth);
}

JsonScanner::Status JsonScanner::ScanText(std::string_view text, JsonView& value) {
  end_ = text.data() + text.size();
  final_ = true;
  members_.clear();
  values_ = 0;
  const char* p = text.data();
  if (p < end_ && static_cast<unsigned char>(*p) == 0xEF) {
    if (end_ - p < 3 || !InRange(p[1], 0xBB, 0xBB) || !InRange(p[2], 0xBF, 0xBF))
      return Status::kInvalid;
    p += 3;
  }
  p = Space(p);
  if (p == end_ || *p == '\0') return Status::kInvalid;
  const char* start = p;
  p = Value(p, 0);
  if (!p) return status_;
  value = JsonView{KindOf(*start), std::string_view(start, p - start)};
  p = Space(p);
  if (p != end_ && *p != '\0') return Status::kInvalid;
  return Status::kOk;
}

JsonScanner::Status JsonScanner::ScanValue(const char* p, const char* end, bool final,
                                           JsonView& value) {
  end_ = end;
  final_ = final;
  members_.clear();
  values_ = 0;
  const char* start = p;
  p = Value(p, 0);
  if (!p) return status_;
  value = JsonView{KindOf(*start), std::string_view(start, p - start)};
  return Status::kOk;
}

const char* JsonScanner::Space(const char* p) const {
  while (p < end_ && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
  return p;
}

const char* JsonScanner::Value(const char* p, std::size_t depth) {
  if (p == end_) return OutOfData();
  const char* end;
  switch (*p) {
    case '{': return Object(p, depth);
    case '[': return Array(p, depth);
    case '"': end = String(p); break;
    case 't': end = Literal(p, "true"); break;
    case 'f': end = Literal(p, "false"); break;
    case 'n': end = Literal(p, "null"); break;
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      end = Number(p);
      break;
    default:
      return Fail(Status::kInvalid);
  }
  // A scalar counts once it is read whole, as nlohmann's parser reports it.
  if (end && !Count()) return Fail(Status::kTooMany);
  return end;
}

const char* JsonScanner::Object(const char* p, std::size_t depth) {
  if (depth >= kMaxNestingDepth) return Fail(Status::kTooDeep);
  if (!Count()) return Fail(Status::kTooMany);
  const bool record = depth == 0;
  p = Space(p + 1);
  if (p == end_) return OutOfData();
  if (*p == '}') return p + 1;
  for (;;) {
    if (*p != '"') return Fail(Status::kInvalid);
    const char* key = p;
    p = String(p);
    if (!p) return nullptr;
    std::string_view raw_key(key + 1, p - key - 2);
    p = Space(p);
    if (p == end_) return OutOfData();
    if (*p != ':') return Fail(Status::kInvalid);
    p = Space(p + 1);
    const char* value = p;
    p = Value(p, depth + 1);
    if (!p) return nullptr;
    if (record)
      members_.push_back(
          JsonMember{raw_key, JsonView{KindOf(*value), std::string_view(value, p - value)}});
    p = Space(p);
    if (p == end_) return OutOfData();
    if (*p == '}') return p + 1;
    if (*p != ',') return Fail(Status::kInvalid);
    p = Space(p + 1);
    if (p == end_) return OutOfData();
  }
}

const char* JsonScanner::Array(const char* p, std::size_t depth) {
  if (depth >= kMaxNestingDepth) return Fail(Status::kTooDeep);
  if (!Count()) return Fail(Status::kTooMany);
  p = Space(p + 1);
  if (p == end_) return OutOfData();
  if (*p == ']') return p + 1;
  for (;;) {
    p = Value(p, depth + 1);
    if (!p) return nullptr;
    p = Space(p);
    if (p == end_) return OutOfData();
    if (*p == ']') return p + 1;
    if (*p != ',') return Fail(Status::kInvalid);
    p = Space(p + 1);
  }
}

const char* JsonScanner::String(const char* p) {
  ++p;  // the opening quote
  for (;;) {
    while (end_ - p >= 8) {
      std::uint64_t special = SpecialBytes(LoadWord(p));
      if (special == 0) {
        p += 8;
        continue;
      }
      p += std::countr_zero(special) / 8;
      break;
    }
    if (p == end_) return OutOfData();
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') return p + 1;
    if (c == '\\') {
      p = Escape(p + 1);
      if (!p) return nullptr;
    } else if (c < 0x20) {
      return Fail(Status::kInvalid);
    } else if (c >= 0x80) {
      p = Utf8(p);
      if (!p) return nullptr;
    } else {
      ++p;
    }
  }
}

// `p` is just after a backslash.
const char* JsonScanner::Escape(const char* p) {
  auto hex4 = [this](const char*& q, unsigned& code) -> bool {
    code = 0;
    for (int i = 0; i < 4; ++i, ++q) {
      if (q == end_) {
        OutOfData();
        return false;
      }
      if (!IsHex(*q)) {
        Fail(Status::kInvalid);
        return false;
      }
      char c = *q;
      code = code << 4 | static_cast<unsigned>(IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return true;
  };
  if (p == end_) return OutOfData();
  switch (*p) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
      return p + 1;
    case 'u': {
      ++p;
      unsigned code;
      if (!hex4(p, code)) return nullptr;
      if (code >= 0xDC00 && code <= 0xDFFF) return Fail(Status::kInvalid);
      if (code < 0xD800 || code > 0xDBFF) return p;
      // A high surrogate must be followed by an escaped low one.
      for (char expected : {'\\', 'u'}) {
        if (p == end_) return OutOfData();
        if (*p++ != expected) return Fail(Status::kInvalid);
      }
      if (!hex4(p, code)) return nullptr;
      if (code < 0xDC00 || code > 0xDFFF) return Fail(Status::kInvalid);
      return p;
    }
    default:
      return Fail(Status::kInvalid);
  }
}

// `p` is at a byte >= 0x80: one well-formed UTF-8 sequence (RFC 3629).
const char* JsonScanner::Utf8(const char* p) {
  unsigned lead = static_cast<unsigned char>(*p);
  unsigned second_lo = 0x80, second_hi = 0xBF;
  int continuation;
  if (lead >= 0xC2 && lead <= 0xDF) {
    continuation = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    continuation = 2;
    if (lead == 0xE0) second_lo = 0xA0;       // no overlong forms
    else if (lead == 0xED) second_hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    continuation = 3;
    if (lead == 0xF0) second_lo = 0x90;       // no overlong forms
    else if (lead == 0xF4) second_hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return Fail(Status::kInvalid);
  }
  ++p;
  for (int i = 0; i < continuation; ++i, ++p) {
    if (p == end_) return OutOfData();
    if (!InRange(*p, i == 0 ? second_lo : 0x80, i == 0 ? second_hi : 0xBF))
      return Fail(Status::kInvalid);
  }
  return p;
}

const char* JsonScanner::Number(const char* p) {
  const char* first = p;
  if (*p == '-' && ++p == end_) return OutOfData();
  const char* digits = p;
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    while (++p < end_ && IsDigit(*p)) {
    }
  } else {
    return Fail(Status::kInvalid);
  }
  const long integer_digits = static_cast<long>(p - digits);
  if (p < end_ && *p == '.') {
    if (++p == end_) return OutOfData();
    if (!IsDigit(*p)) return Fail(Status::kInvalid);
    while (++p < end_ && IsDigit(*p)) {
    }
  }
  long exponent = 0;
  if (p < end_ && (*p == 'e' || *p == 'E')) {
    if (++p == end_) return OutOfData();
    bool negative = *p == '-';
    if ((*p == '+' || *p == '-') && ++p == end_) return OutOfData();
    if (!IsDigit(*p)) return Fail(Status::kInvalid);
    for (; p < end_ && IsDigit(*p); ++p)
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
    if (negative) exponent = -exponent;
  }
  if (p == end_ && !final_) return Fail(Status::kTruncated);  // may go on
  if (Overflows(first, p, integer_digits, exponent)) return Fail(Status::kInvalid);
  return p;
}

const char* JsonScanner::Literal(const char* p, std::string_view word) {
  std::size_t available = static_cast<std::size_t>(end_ - p);
  if (available < word.size()) {
    if (std::memcmp(p, word.data(), available) == 0) return OutOfData();
    return Fail(Status::kInvalid);
  }
  if (std::memcmp(p, word.data(), word.size()) != 0) return Fail(Status::kInvalid);
  return p + word.size();
}

}  // namespace lbsim
