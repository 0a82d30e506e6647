// JSON Lines: the first non-blank line is the header, every further
// non-blank line one event. Read through a fixed buffer, one line at a
// time, so memory does not grow with the number of events.

#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/errors.h"
#include "traces/json_value_builder.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

// Yields the lines of a file; the view stays valid until the next call.
class LineSource {
 public:
  explicit LineSource(std::FILE* file) : file_(file), buffer_(1u << 20) {}

  // False at end of input. Throws InputError for over-long lines.
  bool Next(std::string_view& line, const std::string& path) {
    for (;;) {
      const char* start = buffer_.data() + begin_;
      const char* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
      if (nl) {
        line = std::string_view(start, nl - start);
        begin_ += line.size() + 1;
        ++number_;
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        line = std::string_view(start, end_ - begin_);
        begin_ = end_;
        ++number_;
        return true;
      }
      Fill(path);
    }
  }

  std::uint64_t number() const { return number_; }

 private:
  void Fill(const std::string& path) {
    if (begin_ > 0) {  // keep the partial line at the front
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buffer_.size()) {
      if (buffer_.size() > kMaxLineBytes)
        throw InputError(fmt::format(
            "{}:{}: line is longer than the limit of {} MiB", path, number_ + 1,
            kMaxLineBytes >> 20));
      buffer_.resize(buffer_.size() * 2);
    }
    std::size_t n = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    end_ += n;
    if (n == 0) {
      if (std::ferror(file_))
        throw InputError(fmt::format("{}: read error after line {}", path, number_));
      eof_ = true;
    }
  }

  std::FILE* file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  std::uint64_t number_ = 0;
  bool eof_ = false;
};

bool IsBlank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

}  // namespace

void ReadLinesTrace(std::FILE* file, TraceStream& stream) {
  LineSource lines(file);
  BoundedJsonSax<nlohmann::json> sax;
  std::string_view line;
  bool header = true;
  while (lines.Next(line, stream.path())) {
    if (IsBlank(line)) continue;
    sax.builder.Reset();
    sax.error.clear();
    bool ok = nlohmann::json::sax_parse(line.begin(), line.end(), &sax);
    if (!ok) {
      std::string what = sax.builder.too_deep()
                             ? fmt::format("nesting deeper than the limit of {} levels",
                                           kMaxNestingDepth)
                             : fmt::format("invalid JSON at column {}: {}", sax.error_position,
                                           ParseErrorDetail(sax.error));
      throw InputError(fmt::format("{}:{}: {}", stream.path(), lines.number(), what));
    }
    if (header) {
      stream.Header(sax.builder.value(), lines.number());
      header = false;
    } else {
      stream.Event(sax.builder.value(), lines.number());
    }
  }
  if (header)
    throw InputError(fmt::format(
        "{}: empty trace: expected a header line {{\"lbsim_trace\": 1, ...}}",
        stream.path()));
}

}  // namespace lbsim
