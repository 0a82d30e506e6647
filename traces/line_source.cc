#include "traces/line_source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "sim/errors.h"
#include "traces/trace_reader.h"

namespace lbsim {

// The buffer starts small (most traces have short lines) and grows by
// doubling, up to one byte past the line limit.
LineSource::LineSource(std::FILE* file, std::string display_path)
    : file_(file), path_(std::move(display_path)), buffer_(64u << 10) {}

bool LineSource::Next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const char* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    if (nl) {
      line = std::string_view(start, nl - start);
      begin_ += line.size() + 1;
      ++number_;
      return true;
    }
    if (end_ - begin_ > kMaxLineBytes)
      throw InputError(fmt::format("{}:{}: line is longer than the limit of {} MiB", path_,
                                   number_ + 1, kMaxLineBytes >> 20));
    if (eof_) {
      if (begin_ == end_) return false;
      line = std::string_view(start, end_ - begin_);
      begin_ = end_;
      ++number_;
      return true;
    }
    Fill();
  }
}

void LineSource::Fill() {
  if (begin_ > 0) {  // keep the partial line at the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  // Room for one byte past the limit, so that a line one byte too long is
  // seen as such.
  if (end_ == buffer_.size()) buffer_.resize(std::min(buffer_.size() * 2, kMaxLineBytes + 1));
  errno = 0;
  std::size_t n = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  end_ += n;
  if (n == 0) {
    if (std::ferror(file_))
      throw InputError(fmt::format("{}: cannot read trace: {} (after line {})", path_,
                                   std::strerror(errno ? errno : EIO), number_));
    eof_ = true;
  }
}

bool IsBlank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

}  // namespace lbsim
