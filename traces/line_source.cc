#include "traces/line_source.h"

#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

#include "base/errors.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// The first '\n' in [p, end), or nullptr. Lines are short, so 16 bytes at a
// time inline beat a call to memchr, which pays a setup for long searches.
char* FindNewline(char* p, char* end) {
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  for (; end - p >= 16; p += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if (const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, newline))))
      return p + std::countr_zero(m);
  }
#endif
  return static_cast<char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
}

}  // namespace

LineSource::LineSource(std::FILE* file, std::string display_path, const InputFile* input)
    : window_(file, input), path_(std::move(display_path)) {}

bool LineSource::Next(std::string_view& line) {
  for (;;) {
    char* start = window_.data() + pos_;
    const std::size_t available = window_.size() - pos_;
    char* newline = FindNewline(start, start + available);
    if (!newline && !window_.at_eof()) {
      if (available > kMaxLineBytes)
        throw InputError(fmt::format("{}:{}: line is longer than the limit of {} MiB", path_,
                                     number_ + 1, kMaxLineBytes >> 20));
      if (!window_.Refill(pos_) && window_.read_error())
        throw InputError(fmt::format("{}: cannot read trace: {} (after line {})", path_,
                                     window_.ReadErrorText(), number_));
      pos_ = 0;
      continue;
    }
    if (!newline && available == 0) return false;
    line = std::string_view(start, newline ? static_cast<std::size_t>(newline - start) : available);
    ++number_;
    if (line.size() > kMaxLineBytes)
      throw InputError(fmt::format("{}:{}: line is longer than the limit of {} MiB", path_,
                                   number_, kMaxLineBytes >> 20));
    if (newline) *newline = '\0';  // the window keeps one after its last byte
    pos_ += newline ? line.size() + 1 : line.size();
    return true;
  }
}

bool IsBlank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

}  // namespace lbsim
