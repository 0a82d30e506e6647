#include "base/json/json_view.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace lbsim {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

const char* SkipSpace(const char* p, const char* end) {
  while (p < end && IsSpace(*p)) ++p;
  return p;
}

// `p` is at an opening quote; returns the position after the closing one
// and says whether the string holds an escape.
const char* SkipString(const char* p, bool& escaped) {
  escaped = false;
  for (++p;; ++p) {
    if (*p == '\\') {
      escaped = true;
      ++p;
    } else if (*p == '"') {
      return p + 1;
    }
  }
}

const char* SkipString(const char* p) {
  bool escaped;
  return SkipString(p, escaped);
}

// `p` is at the first character of a value; returns the position after it.
const char* SkipValue(const char* p, const char* end) {
  if (*p == '"') return SkipString(p);
  if (*p == '{' || *p == '[') {
    int depth = 0;
    while (true) {
      char c = *p;
      if (c == '"') {
        p = SkipString(p);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      else if ((c == '}' || c == ']') && --depth == 0) return p + 1;
      ++p;
    }
  }
  while (p < end && !IsSpace(*p) && *p != ',' && *p != '}' && *p != ']') ++p;
  return p;
}

// The value whose first character is at `p`.
JsonView ViewValue(const char* p, const char* end) {
  JsonView v;
  v.kind = KindOf(*p);
  const char* value_end =
      v.kind == JsonKind::kString ? SkipString(p, v.escaped) : SkipValue(p, end);
  v.text = std::string_view(p, value_end - p);
  return v;
}

unsigned HexValue(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return static_cast<unsigned>(c - 'A' + 10);
}

unsigned Hex4(const char* p) {
  return HexValue(p[0]) << 12 | HexValue(p[1]) << 8 | HexValue(p[2]) << 4 | HexValue(p[3]);
}

void AppendUtf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

std::string_view Unescape(std::string_view content, std::string& out) {
  out.clear();
  const char* p = content.data();
  const char* end = p + content.size();
  while (p < end) {
    const char* backslash = static_cast<const char*>(std::memchr(p, '\\', end - p));
    if (!backslash) {
      out.append(p, end);
      break;
    }
    out.append(p, backslash);
    p = backslash + 1;
    char c = *p++;
    switch (c) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        unsigned code = Hex4(p);
        p += 4;
        if (code >= 0xD800 && code <= 0xDBFF) {  // a pair (the scanner checked)
          unsigned low = Hex4(p + 2);
          p += 6;
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        AppendUtf8(out, code);
        break;
      }
      default: out += c;  // " \ /
    }
  }
  return out;
}

JsonNumber ReadNumberInGeneral(std::string_view literal) {
  JsonNumber n;
  const char* first = literal.data();
  const char* last = first + literal.size();
  const bool negative = *first == '-';
  const char* p = first + negative;
  std::uint64_t magnitude = 0;
  bool fits = true;
  if (last - p <= 19) {  // up to 19 digits cannot overflow 64 bits
    for (; p < last && *p >= '0' && *p <= '9'; ++p) magnitude = magnitude * 10 + (*p - '0');
  } else {
    for (; p < last && *p >= '0' && *p <= '9'; ++p)
      fits = fits && !__builtin_mul_overflow(magnitude, 10u, &magnitude) &&
             !__builtin_add_overflow(magnitude, static_cast<unsigned>(*p - '0'), &magnitude);
  }
  if (p == last && fits) {  // an integer literal that fits 64 bits
    if (!negative) {
      n.type = JsonNumber::Type::kUnsigned;
      n.unsigned_value = magnitude;
      return n;
    }
    if (magnitude <= std::uint64_t{1} << 63) {
      n.type = JsonNumber::Type::kSigned;
      n.signed_value = static_cast<std::int64_t>(0 - magnitude);
      return n;
    }
  }
  // A fraction, an exponent or too big for 64 bits: a double, as
  // nlohmann::json and Python read it.
  n.type = JsonNumber::Type::kFloat;
  auto [ptr, ec] = std::from_chars(first, last, n.float_value);
  if (ec != std::errc() || ptr != last) {
    // Underflow: from_chars leaves the value unset; strtod rounds it as
    // nlohmann::json does.
    std::string copy(literal);
    n.float_value = std::strtod(copy.c_str(), nullptr);
  }
  return n;
}

std::string_view ReadEscapedString(const JsonView& string, std::string& scratch) {
  return Unescape(string.text.substr(1, string.text.size() - 2), scratch);
}

JsonObjectReader::JsonObjectReader(const JsonView& object)
    : p_(object.text.data() + 1), end_(object.text.data() + object.text.size() - 1) {}

bool JsonObjectReader::Next(JsonMember& member) {
  p_ = SkipSpace(p_, end_);
  if (p_ < end_ && *p_ == ',') p_ = SkipSpace(p_ + 1, end_);
  if (p_ >= end_) return false;
  member.key = ViewValue(p_, end_);
  p_ = SkipSpace(p_ + member.key.text.size(), end_);
  p_ = SkipSpace(p_ + 1, end_);  // the colon
  member.value = ViewValue(p_, end_);
  p_ += member.value.text.size();
  return true;
}

bool JsonWalker::EnterObject() {
  if (*p_ != '{') return false;
  ++p_;
  return true;
}

bool JsonWalker::NextKey(JsonView& key) {
  p_ = SkipSpace(p_, end_);
  if (*p_ == ',') p_ = SkipSpace(p_ + 1, end_);
  if (*p_ == '}') {
    ++p_;
    return false;
  }
  key.kind = JsonKind::kString;
  const char* start = p_;
  p_ = SkipString(p_, key.escaped);
  key.text = std::string_view(start, p_ - start);
  p_ = SkipSpace(p_, end_);
  p_ = SkipSpace(p_ + 1, end_);  // the colon
  return true;
}

JsonView JsonWalker::TakeValue() {
  JsonView v = ViewValue(p_, end_);
  p_ += v.text.size();
  return v;
}

void JsonWalker::Skip() { p_ = SkipValue(p_, end_); }

JsonArrayReader::JsonArrayReader(const JsonView& array)
    : p_(array.text.data() + 1), end_(array.text.data() + array.text.size() - 1) {}

bool JsonArrayReader::Next(JsonView& element) {
  p_ = SkipSpace(p_, end_);
  if (p_ < end_ && *p_ == ',') p_ = SkipSpace(p_ + 1, end_);
  if (p_ >= end_) return false;
  element = ViewValue(p_, end_);
  p_ += element.text.size();
  return true;
}

}  // namespace lbsim
