#include "sim/io/write_stream.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

WriteStream::WriteStream(int fd) : fd_(fd) {
  cookie_io_functions_t io{};
  io.write = &WriteStream::Write;
  stream_ = ::fopencookie(this, "w", io);
  if (!stream_)
    throw UsageError(fmt::format("cannot set up an output stream: {}", std::strerror(errno)));
  // Larger than any one decision log line, so that a line goes out whole.
  std::setvbuf(stream_, nullptr, _IOFBF, 1 << 16);
}

WriteStream::~WriteStream() {
  if (stream_) std::fclose(stream_);  // a failure here was reported by Flush, or not wanted
}

ssize_t WriteStream::Write(void* cookie, const char* data, std::size_t size) {
  auto* self = static_cast<WriteStream*>(cookie);
  if (self->error_) {
    errno = self->error_;
    return 0;
  }
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(self->fd_, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      self->error_ = n < 0 ? errno : EIO;
      errno = self->error_;
      // What was written, 0 for nothing: never negative, which glibc's
      // fwrite would add to what it has left to write (fopencookie(3)).
      return static_cast<ssize_t>(done);
    }
    done += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

int WriteStream::Flush() {
  const bool ok = std::fflush(stream_) == 0 && !std::ferror(stream_);
  if (ok) return 0;
  return error_ ? error_ : EIO;
}

void WriteStandardOutput(std::string_view text, std::string_view what) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw UsageError(fmt::format("standard output: cannot write {}: {}", what,
                                   std::strerror(n < 0 ? errno : EIO)));
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace lbsim
