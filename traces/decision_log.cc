#include "traces/decision_log.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/background_writer.h"
#include "base/short_decimal.h"
#include "traces/json_bytes.h"

namespace lbsim {

namespace {

// Whether `c` must be escaped inside a JSON string.
bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

// Whether some byte of `s` must be escaped: eight bytes at a time, the
// last word overlapping the one before it.
bool AnyNeedsEscape(std::string_view s) {
  const char* d = s.data();
  const std::size_t n = s.size();
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (NeedsEscape(static_cast<unsigned char>(d[i]))) return true;
    return false;
  }
  std::uint64_t flags = json_bytes::EscapeBytes(json_bytes::LoadWord(d + n - 8));
  for (std::size_t i = 0; i + 8 <= n; i += 8)
    flags |= json_bytes::EscapeBytes(json_bytes::LoadWord(d + i));
  return flags != 0;
}

// The most bytes WriteJsonString writes for `s`: the quotes, and six
// (\u00XX) for every byte.
std::size_t JsonStringBound(std::string_view s) { return 2 + 6 * s.size(); }

// Writes `s` as a JSON string literal (quotes included) at `p`, which has
// room for JsonStringBound(s) bytes; returns the end of what it wrote.
char* WriteJsonString(char* p, std::string_view s) {
  *p++ = '"';
  // Most strings (ids, names) need no escape and are copied whole.
  if (!AnyNeedsEscape(s)) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
    *p++ = '"';
    return p;
  }
  for (const char byte : s) {
    const auto c = static_cast<unsigned char>(byte);
    if (!NeedsEscape(c)) {
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

// The most bytes WriteInteger and WriteTraceTime write.
constexpr std::size_t kNumberBound = 32;
static_assert(kShortDecimalBound <= kNumberBound);

char* WriteInteger(char* p, std::uint64_t n) {
  const fmt::format_int text(n);
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

// Writes a trace time as JSON: an integer literal as written, otherwise the
// shortest text that reads back as the same double. At most kNumberBound
// bytes.
char* WriteTraceTime(char* p, const TraceTime& t) {
  if (t.integral) return WriteInteger(p, t.integer);
  // Most fractional times are short decimals, written without Grisu2.
  if (char* end = WriteShortDecimal(p, t.value)) return end;
  // The same text nlohmann::json (and Python's json) prints for a double:
  // its dump() writes what this function of its own writes, for a finite
  // IEEE double, without building a value and a string first.
  if (!std::isfinite(t.value)) {
    std::memcpy(p, "null", 4);
    return p + 4;
  }
  return nlohmann::detail::to_chars(p, p + kNumberBound, t.value);
}

char* WriteLiteral(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  const std::size_t at = out.size();
  out.resize(at + JsonStringBound(s));
  char* end = WriteJsonString(out.data() + at, s);
  out.resize(static_cast<std::size_t>(end - out.data()));
}

void AppendTraceTime(std::string& out, const TraceTime& t) {
  char text[kNumberBound];
  out.append(text, static_cast<std::size_t>(WriteTraceTime(text, t) - text));
}

void DecisionLogWriter::Write(const DecisionRecord& r) {
  // The line is written into a buffer with room for the longest text it
  // can be, then appended whole: on the stack for the lines of every
  // common id length.
  static constexpr std::string_view kKeys[] = {
      "{\"strategy\":", ",\"seq\":", ",\"t\":", ",\"request\":", ",\"instance\":",
      ",\"reason\":", ",\"candidates\":", "}\n"};
  std::size_t bound = 3 * kNumberBound + JsonStringBound(r.strategy) +
                      JsonStringBound(r.request) + JsonStringBound(r.reason) +
                      (r.instance ? JsonStringBound(*r.instance) : 4);
  for (std::string_view key : kKeys) bound += key.size();
  char stack[1024];
  std::string heap;
  char* begin = stack;
  if (bound > sizeof stack) {
    heap.resize(bound);
    begin = heap.data();
  }
  char* p = WriteLiteral(begin, kKeys[0]);
  p = WriteJsonString(p, r.strategy);
  p = WriteLiteral(p, kKeys[1]);
  p = WriteInteger(p, r.seq);
  p = WriteLiteral(p, kKeys[2]);
  p = WriteTraceTime(p, *r.t);
  p = WriteLiteral(p, kKeys[3]);
  p = WriteJsonString(p, r.request);
  p = WriteLiteral(p, kKeys[4]);
  p = r.instance ? WriteJsonString(p, *r.instance) : WriteLiteral(p, "null");
  p = WriteLiteral(p, kKeys[5]);
  p = WriteJsonString(p, r.reason);
  p = WriteLiteral(p, kKeys[6]);
  p = WriteInteger(p, r.candidates);
  p = WriteLiteral(p, kKeys[7]);
  const auto size = static_cast<std::size_t>(p - begin);
  if (!background_) {
    std::fwrite(begin, 1, size, out_);
    return;
  }
  line_.append(begin, size);
  if (line_.size() >= BackgroundWriter::kBlockBytes) background_->Submit(out_, line_);
}

void DecisionLogWriter::Flush() {
  if (background_ && !line_.empty()) background_->Submit(out_, line_);
}

}  // namespace lbsim
