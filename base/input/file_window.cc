#include "base/input/file_window.h"

#include <sys/types.h>

#include <cerrno>
#include <cstring>

#include "base/input/input_file.h"

namespace lbsim {

// The buffer holds the window's bytes and the NUL byte after them.
FileWindow::FileWindow(std::FILE* file, const InputFile* input, std::size_t chunk_bytes)
    : file_(file),
      input_(input),
      buffer_(new char[chunk_bytes + 1]),
      chunk_(chunk_bytes),
      capacity_(chunk_bytes + 1) {
  buffer_[0] = '\0';
}

std::string FileWindow::ReadErrorText() const {
  return input_ ? input_->ReadErrorText(read_error_) : std::strerror(read_error_);
}

bool FileWindow::Refill(std::size_t consumed) {
  begin_ += consumed;
  offset_ += consumed;
  if (eof_ || read_error_) return false;
  if (begin_ > 0) {  // keep the unreleased bytes at the front
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (capacity_ - 1 > 4 * chunk_ && end_ <= chunk_ / 2) {
    // Grown for a long line or value, which is gone: back to one chunk.
    std::unique_ptr<char[]> shrunk(new char[chunk_ + 1]);
    std::memcpy(shrunk.get(), buffer_.get(), end_);
    buffer_ = std::move(shrunk);
    capacity_ = chunk_ + 1;
  }
  if (end_ == capacity_ - 1) {  // full: double the window
    const std::size_t capacity = 2 * capacity_ - 1;
    std::unique_ptr<char[]> grown(new char[capacity]);
    std::memcpy(grown.get(), buffer_.get(), end_);
    buffer_ = std::move(grown);
    capacity_ = capacity;
  }
  errno = 0;
  std::size_t n = std::fread(buffer_.get() + end_, 1, capacity_ - 1 - end_, file_);
  end_ += n;
  buffer_[end_] = '\0';
  if (n == 0) {
    if (std::ferror(file_)) read_error_ = errno ? errno : EIO;
    else eof_ = true;
    return false;
  }
  return true;
}

bool FileWindow::Seek(std::uint64_t offset) {
  begin_ = end_ = 0;
  buffer_[0] = '\0';
  eof_ = false;
  read_error_ = 0;
  offset_ = offset;
  std::clearerr(file_);
  return ::fseeko(file_, static_cast<off_t>(offset), SEEK_SET) == 0;
}

}  // namespace lbsim
