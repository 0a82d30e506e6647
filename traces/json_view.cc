#include "traces/json_view.h"

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

// `p` is at an opening quote; returns the position after the closing one.
const char* SkipString(const char* p) {
  for (++p;; ++p) {
    if (*p == '\\') ++p;
    else if (*p == '"') return p + 1;
  }
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

// Decodes the escapes of validated string content.
std::string_view Unescape(std::string_view content, std::string& out) {
  if (std::memchr(content.data(), '\\', content.size()) == nullptr) return content;
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

}  // namespace

JsonKind KindOf(char first) {
  switch (first) {
    case '"': return JsonKind::kString;
    case '{': return JsonKind::kObject;
    case '[': return JsonKind::kArray;
    case 't': return JsonKind::kTrue;
    case 'f': return JsonKind::kFalse;
    case 'n': return JsonKind::kNull;
    default: return JsonKind::kNumber;
  }
}

double JsonNumber::AsDouble() const {
  switch (type) {
    case Type::kUnsigned: return static_cast<double>(unsigned_value);
    case Type::kSigned: return static_cast<double>(signed_value);
    case Type::kFloat: break;
  }
  return float_value;
}

JsonNumber ReadNumber(std::string_view literal) {
  JsonNumber n;
  const char* first = literal.data();
  const char* last = first + literal.size();
  const bool negative = *first == '-';
  if (literal.find_first_of(".eE") == std::string_view::npos) {
    std::uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(first + negative, last, magnitude);
    if (ec == std::errc() && ptr == last) {
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
    // Too big for 64 bits: a double, as nlohmann::json and Python read it.
  }
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

std::string_view ReadString(std::string_view literal, std::string& scratch) {
  return Unescape(literal.substr(1, literal.size() - 2), scratch);
}

std::string_view ReadKey(std::string_view raw_key, std::string& scratch) {
  return Unescape(raw_key, scratch);
}

JsonObjectReader::JsonObjectReader(const JsonView& object)
    : p_(object.text.data() + 1), end_(object.text.data() + object.text.size() - 1) {}

bool JsonObjectReader::Next(JsonMember& member) {
  p_ = SkipSpace(p_, end_);
  if (p_ < end_ && *p_ == ',') p_ = SkipSpace(p_ + 1, end_);
  if (p_ >= end_) return false;
  const char* key_end = SkipString(p_);
  member.raw_key = std::string_view(p_ + 1, key_end - p_ - 2);
  p_ = SkipSpace(key_end, end_);
  p_ = SkipSpace(p_ + 1, end_);  // the colon
  const char* value_end = SkipValue(p_, end_);
  member.value = JsonView{KindOf(*p_), std::string_view(p_, value_end - p_)};
  p_ = value_end;
  return true;
}

JsonArrayReader::JsonArrayReader(const JsonView& array)
    : p_(array.text.data() + 1), end_(array.text.data() + array.text.size() - 1) {}

bool JsonArrayReader::Next(JsonView& element) {
  p_ = SkipSpace(p_, end_);
  if (p_ < end_ && *p_ == ',') p_ = SkipSpace(p_ + 1, end_);
  if (p_ >= end_) return false;
  const char* value_end = SkipValue(p_, end_);
  element = JsonView{KindOf(*p_), std::string_view(p_, value_end - p_)};
  p_ = value_end;
  return true;
}

}  // namespace lbsim
