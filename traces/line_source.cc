#include "traces/line_source.h"

#include <cstring>

#include <fmt/format.h>

#include "sim/errors.h"
#include "traces/trace_reader.h"

namespace lbsim {

LineSource::LineSource(std::FILE* file, std::string display_path)
    : file_(file), path_(std::move(display_path)), buffer_(1u << 20) {}

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
  if (end_ == buffer_.size()) {
    if (buffer_.size() > kMaxLineBytes)
      throw InputError(fmt::format("{}:{}: line is longer than the limit of {} MiB",
                                   path_, number_ + 1, kMaxLineBytes >> 20));
    buffer_.resize(buffer_.size() * 2);
  }
  std::size_t n = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  end_ += n;
  if (n == 0) {
    if (std::ferror(file_))
      throw InputError(fmt::format("{}: read error after line {}", path_, number_));
    eof_ = true;
  }
}

bool IsBlank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

}  // namespace lbsim
