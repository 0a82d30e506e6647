#include "memory_file.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace lbsim::fuzz {

MemoryFile::MemoryFile() {
  fd_ = ::memfd_create("lbsim-fuzz-input", 0);
  if (fd_ < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemoryFile::~MemoryFile() { ::close(fd_); }

void MemoryFile::Write(const std::uint8_t* data, std::size_t size) {
  if (::ftruncate(fd_, 0) != 0) {
    std::perror("ftruncate");
    std::abort();
  }
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) {
      std::perror("pwrite");
      std::abort();
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace lbsim::fuzz
