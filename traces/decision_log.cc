#include "traces/decision_log.h"

#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/background_writer.h"
#include "base/short_decimal.h"

namespace lbsim {

namespace {

// Whether `c` must be escaped inside a JSON string.
bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

#if defined(__SSE2__)
// One bit per byte of `v` (movemask order) that a JSON string cannot hold
// as it is: '"', '\\' and control characters (below 0x20).
unsigned EscapeMask(__m128i v) {
  const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)));
}
#endif

// Copies the n bytes at `from` to `to` as they are tested; true when none
// of them needs escaping. Nothing is read or written past the n bytes: the
// last block of a string overlaps the one before it (SSE2 on x86-64: 16, 8
// or 4 bytes at a time; bytes one by one elsewhere).
bool CopyIfPlain(char* to, const char* from, std::size_t n) {
#if defined(__SSE2__)
  if (n >= 16) {
    unsigned flags = 0;
    for (std::size_t i = 0; i + 16 <= n; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), v);
      flags |= EscapeMask(v);
    }
    const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + n - 16));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 16), last);
    return (flags | EscapeMask(last)) == 0;
  }
  if (n >= 8) {
    const __m128i first = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from));
    const __m128i last = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from + n - 8));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(to), first);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(to + n - 8), last);
    return EscapeMask(_mm_unpacklo_epi64(first, last)) == 0;
  }
  if (n >= 4) {
    std::uint32_t first, last;
    std::memcpy(&first, from, 4);
    std::memcpy(&last, from + n - 4, 4);
    std::memcpy(to, &first, 4);
    std::memcpy(to + n - 4, &last, 4);
    const __m128i both = _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(first)),
                                            _mm_cvtsi32_si128(static_cast<int>(last)));
    return (EscapeMask(both) & 0xff) == 0;  // the other bytes are zeros
  }
#endif
  bool plain = true;
  for (std::size_t i = 0; i < n; ++i) {
    to[i] = from[i];
    plain = plain && !NeedsEscape(static_cast<unsigned char>(from[i]));
  }
  return plain;
}

// The most bytes WriteJsonString writes for `s`: the quotes, and six
// (\u00XX) for every byte.
std::size_t JsonStringBound(std::string_view s) { return 2 + 6 * s.size(); }

// Writes `s` as a JSON string literal (quotes included) at `p`, which has
// room for JsonStringBound(s) bytes; returns the end of what it wrote.
char* WriteJsonString(char* p, std::string_view s) {
  *p++ = '"';
  // Most strings (ids, names) need no escape: copied as they are tested,
  // and written again, escaped, only when some byte needs it.
  if (CopyIfPlain(p, s.data(), s.size())) {
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
                      (r.instance ? JsonStringBound(*r.instance) : 4) +
                      (r.queue_depths.empty() ? 0 : r.queue_depths.size() + 16);
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
  if (!r.queue_depths.empty()) {
    p = WriteLiteral(p, ",\"queue_depths\":");
    p = WriteLiteral(p, r.queue_depths);
  }
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
