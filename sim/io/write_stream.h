#pragma once

#include <sys/types.h>

#include <cstdio>
#include <string_view>

namespace lbsim {

// A buffered stdio stream onto a file descriptor that keeps the errno of
// its first failed write, so that a full disk is reported as "No space left
// on device" however much stdio buffered before it showed. The descriptor
// is not owned.
class WriteStream {
 public:
  // Throws UsageError when the stream cannot be made.
  explicit WriteStream(int fd);
  ~WriteStream();
  WriteStream(const WriteStream&) = delete;
  WriteStream& operator=(const WriteStream&) = delete;

  std::FILE* get() { return stream_; }
  // Writes out what is buffered; returns 0, or the errno of the first
  // write that failed (EIO when none was given).
  int Flush();

 private:
  // The stream's write function: writes all `size` bytes, or records the
  // first failure and returns how many went out before it (0 once failed);
  // never negative, as fopencookie(3) requires.
  static ssize_t Write(void* cookie, const char* data, std::size_t size);

  int fd_;
  int error_ = 0;
  std::FILE* stream_ = nullptr;
};

// Writes all of `text` to standard output (not through stdio), or throws
// UsageError "standard output: cannot write WHAT: REASON".
void WriteStandardOutput(std::string_view text, std::string_view what = "output");

}  // namespace lbsim
