#include "base/json/json_scanner.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "base/json/json_write.h"
#include "base/json/json_bytes.h"
#include "base/json/json_limits.h"

namespace lbsim {
namespace {

// Character classes, one table lookup each.
enum CharClass : std::uint8_t {
  kSpace = 1,  // JSON whitespace
  kDigit = 2,
  kPlain = 4,  // may appear unescaped in a string and needs no further check
  kHex = 8,
};

constexpr std::array<std::uint8_t, 256> kClass = [] {
  std::array<std::uint8_t, 256> c{};
  for (int i = 0x20; i < 0x80; ++i) c[i] = kPlain;
  c['"'] = c['\\'] = 0;
  c[' '] |= kSpace;
  c['\t'] = c['\n'] = c['\r'] = kSpace;
  for (int i = '0'; i <= '9'; ++i) c[i] |= kDigit | kHex;
  for (int i = 'a'; i <= 'f'; ++i) c[i] |= kHex;
  for (int i = 'A'; i <= 'F'; ++i) c[i] |= kHex;
  return c;
}();

bool Is(char c, CharClass cls) { return kClass[static_cast<unsigned char>(c)] & cls; }

const char* SkipSpace(const char* p) {
  while (Is(*p, kSpace)) ++p;
  return p;
}

bool InRange(char c, unsigned lo, unsigned hi) {
  unsigned u = static_cast<unsigned char>(c);
  return u >= lo && u <= hi;
}

using json_bytes::LoadWord;

// Flags (high bit per byte) the bytes a string scan must look at: '"',
// '\\', control characters and non-ASCII. The lowest flag is always exact
// (false flags can only appear above a true one).
std::uint64_t SpecialBytes(std::uint64_t v) {
  return json_bytes::EscapeBytes(v) | (v & json_bytes::kHighs);
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

std::string DuplicateKeyMessage(std::string_view key) {
  std::string quoted;
  AppendJsonString(quoted, key);
  return fmt::format("key {} appears twice in one object", quoted);
}

void JsonScanner::ResetBuffers() {
  auto reset = [](auto& buffer) {
    if (buffer.capacity() > kKeptEntries) std::remove_reference_t<decltype(buffer)>().swap(buffer);
    else buffer.clear();
  };
  reset(members_);
  reset(nested_keys_);
  reset(sorted_keys_);
  reset(decoded_keys_);
  for (std::string& s : scratch_) reset(s);
}

JsonScanner::Status JsonScanner::ScanText(std::string_view text, JsonView& value) {
  end_ = text.data() + text.size();
  assert(*end_ == '\0');
  final_ = true;
  ResetBuffers();
  values_ = 0;
  const char* p = text.data();
  if (static_cast<unsigned char>(*p) == 0xEF) {  // a byte order mark, if well-formed
    if (!InRange(p[1], 0xBB, 0xBB) || !InRange(p[2], 0xBF, 0xBF)) return Status::kInvalid;
    p += 3;
  }
  p = SkipSpace(p);
  if (*p == '\0') return Status::kInvalid;
  const char* start = p;
  p = Value(p, 0);
  if (!p) return status_;
  value = View(start, p);
  // Only whitespace up to the end: a NUL byte before it is no end.
  return SkipSpace(p) == end_ ? Status::kOk : Status::kInvalid;
}

JsonScanner::Status JsonScanner::ScanValue(const char* p, const char* end, bool final,
                                           JsonView& value) {
  end_ = end;
  assert(*end_ == '\0');
  final_ = final;
  ResetBuffers();
  values_ = 0;
  const char* start = p;
  p = Value(p, 0);
  if (!p) return status_;
  value = View(start, p);
  return Status::kOk;
}

const char* JsonScanner::Value(const char* p, std::size_t depth) {
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
      end = Number(p, depth);
      break;
    case '\0':
      return AtNul(p);
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
  const std::size_t first_key = nested_keys_.size();
  p = SkipSpace(p + 1);
  if (*p == '}') return p + 1;
  for (;;) {
    if (*p != '"') return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    const char* key_start = p;
    p = String(p);
    if (!p) return nullptr;
    JsonView key = View(key_start, p);
    p = SkipSpace(p);
    if (*p != ':') return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    p = SkipSpace(p + 1);
    const char* value = p;
    p = Value(p, depth + 1);
    if (!p) return nullptr;
    if (record) members_.push_back(JsonMember{key, View(value, p)});
    else nested_keys_.push_back(key);
    p = SkipSpace(p);
    if (*p == ',') {
      p = SkipSpace(p + 1);
    } else if (*p == '}') {
      if (!record) {
        if (!UniqueKeys(first_key)) return Fail(Status::kDuplicateKey);
        nested_keys_.resize(first_key);
      }
      return p + 1;
    } else {
      return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    }
  }
}

bool JsonScanner::UniqueKeys(std::size_t first) {
  const std::size_t n = nested_keys_.size() - first;
  const JsonView* keys = nested_keys_.data() + first;
  if (n < 2) return true;
  // Few keys, as in a hint's per-Instance queue fields: compared pairwise,
  // first by length and last eight bytes (quotes included), which tell most
  // keys apart without a call.
  if (n <= 16) {
    for (std::size_t i = 1; i < n; ++i) {
      const std::string_view a = keys[i].text;
      for (std::size_t j = 0; j < i; ++j) {
        const std::string_view b = keys[j].text;
        bool same;
        if (keys[i].escaped || keys[j].escaped) {
          same = ReadString(keys[i], scratch_[0]) == ReadString(keys[j], scratch_[1]);
        } else {
          same = a.size() == b.size() &&
                 (a.size() < 8 ||
                  LoadWord(a.data() + a.size() - 8) == LoadWord(b.data() + b.size() - 8)) &&
                 a == b;
        }
        if (same) {
          duplicate_key_ = ReadString(keys[i], scratch_[0]);
          return false;
        }
      }
    }
    return true;
  }
  // Many keys: decoded and sorted.
  decoded_keys_.clear();
  decoded_keys_.reserve(n);  // the views below point into these
  sorted_keys_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (keys[i].escaped) {
      decoded_keys_.emplace_back(ReadString(keys[i], scratch_[0]));
      sorted_keys_.push_back(decoded_keys_.back());
    } else {
      sorted_keys_.push_back(ReadString(keys[i], scratch_[0]));
    }
  }
  std::sort(sorted_keys_.begin(), sorted_keys_.end());
  const auto twice = std::adjacent_find(sorted_keys_.begin(), sorted_keys_.end());
  if (twice == sorted_keys_.end()) return true;
  duplicate_key_ = *twice;
  return false;
}

const char* JsonScanner::Array(const char* p, std::size_t depth) {
  if (depth >= kMaxNestingDepth) return Fail(Status::kTooDeep);
  if (!Count()) return Fail(Status::kTooMany);
  p = SkipSpace(p + 1);
  if (*p == ']') return p + 1;
  for (;;) {
    p = Value(p, depth + 1);
    if (!p) return nullptr;
    p = SkipSpace(p);
    if (*p == ',') {
      p = SkipSpace(p + 1);
    } else if (*p == ']') {
      return p + 1;
    } else {
      return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    }
  }
}

const char* JsonScanner::String(const char* p) {
  ++p;  // the opening quote
  escaped_ = false;
  for (;;) {
    // Eight bytes at a time while eight remain before the end of the data;
    // the lowest flagged byte is the first one to look at.
    for (;;) {
      if (end_ - p < 8) {
        while (Is(*p, kPlain)) ++p;
        break;
      }
      const std::uint64_t special = SpecialBytes(LoadWord(p));
      if (special != 0) {
        p += std::countr_zero(special) / 8;
        break;
      }
      p += 8;
    }
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') return p + 1;
    if (c == '\\') {
      escaped_ = true;
      p = Escape(p + 1);
      if (!p) return nullptr;
    } else if (c >= 0x80) {
      p = Utf8(p);
      if (!p) return nullptr;
    } else {  // a control character, or the NUL after the data
      return p == end_ ? OutOfData() : Fail(Status::kInvalid);
    }
  }
}

// `p` is just after a backslash.
const char* JsonScanner::Escape(const char* p) {
  auto hex4 = [this](const char*& q, unsigned& code) -> bool {
    code = 0;
    for (int i = 0; i < 4; ++i, ++q) {
      if (!Is(*q, kHex)) {
        if (q == end_) OutOfData();
        else Fail(Status::kInvalid);
        return false;
      }
      char c = *q;
      code = code << 4 | static_cast<unsigned>(Is(c, kDigit) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return true;
  };
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
        if (*p != expected) return p == end_ ? OutOfData() : Fail(Status::kInvalid);
        ++p;
      }
      if (!hex4(p, code)) return nullptr;
      if (code < 0xDC00 || code > 0xDFFF) return Fail(Status::kInvalid);
      return p;
    }
    default:
      return p == end_ ? OutOfData() : Fail(Status::kInvalid);
  }
}

// `p` is at a byte >= 0x80: one well-formed UTF-8 sequence (RFC 3629).
const char* JsonScanner::Utf8(const char* p) {
  const json_bytes::Utf8Lead rule = json_bytes::Utf8LeadOf(static_cast<unsigned char>(*p));
  if (rule.continuation == 0) return Fail(Status::kInvalid);
  ++p;
  for (int i = 0; i < rule.continuation; ++i, ++p) {
    if (p == end_) return OutOfData();
    if (!InRange(*p, i == 0 ? rule.second_lo : 0x80, i == 0 ? rule.second_hi : 0xBF))
      return Fail(Status::kInvalid);
  }
  return p;
}

const char* JsonScanner::Number(const char* p, std::size_t depth) {
  const char* first = p;
  if (*p == '-') ++p;
  const char* digits = p;
  if (*p == '0') {
    ++p;
  } else if (Is(*p, kDigit)) {
    while (Is(*++p, kDigit)) {
    }
  } else {
    return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
  }
  const long integer_digits = static_cast<long>(p - digits);
  if (*p == '.') {
    if (!Is(*++p, kDigit)) return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    while (Is(*++p, kDigit)) {
    }
  }
  long exponent = 0;
  if (*p == 'e' || *p == 'E') {
    bool negative = *++p == '-';
    if (*p == '+' || *p == '-') ++p;
    if (!Is(*p, kDigit)) return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    for (; Is(*p, kDigit); ++p)
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
    if (negative) exponent = -exponent;
  }
  if (p == end_ && !final_) return Fail(Status::kTruncated);  // may go on
  if (integer_digits + exponent > 300 && depth < overflow_from_depth_ &&
      Overflows(first, p, integer_digits, exponent))
    return Fail(Status::kInvalid);
  return p;
}

const char* JsonScanner::Literal(const char* p, std::string_view word) {
  for (char c : word) {
    if (*p != c) return *p == '\0' ? AtNul(p) : Fail(Status::kInvalid);
    ++p;
  }
  return p;
}

}  // namespace lbsim
