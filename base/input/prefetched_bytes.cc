#include "base/input/prefetched_bytes.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <system_error>
#include <utility>

#include "base/signal_cleanup.h"

namespace lbsim {

PrefetchedBytes::PrefetchedBytes(Producer produce) : produce_(std::move(produce)) {
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC);
  if (stop_fd_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
  try {
    // Signals stay with the threads that handle them.
    TerminationSignalsBlocked blocked;
    thread_ = std::thread([this] { Produce(); });
  } catch (...) {
    ::close(stop_fd_);
    throw;
  }
}

PrefetchedBytes::~PrefetchedBytes() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  room_.notify_one();
  const std::uint64_t one = 1;
  // An eventfd write of 1 cannot fail short of overflowing the counter.
  [[maybe_unused]] const ssize_t n = ::write(stop_fd_, &one, sizeof one);
  thread_.join();
  ::close(stop_fd_);
}

void PrefetchedBytes::Produce() {
  for (std::size_t next = 0;; next = (next + 1) % kPrefetchChunks) {
    {
      std::unique_lock lock(mutex_);
      room_.wait(lock, [&] { return stop_ || in_use_ < kPrefetchChunks; });
      if (stop_) return;
      ++in_use_;
      chunks_[next].size = 0;
      chunks_[next].last = 1;
    }
    // The bytes past chunk.size are the producer's alone.
    Chunk& chunk = chunks_[next];
    for (std::size_t size = 0; size < kPrefetchChunkBytes;) {
      ssize_t n;
      try {
        n = produce_(chunk.bytes.get() + size, kPrefetchChunkBytes - size, stop_fd_);
      } catch (const std::bad_alloc&) {  // a failure's message had no memory
        errno = ENOMEM;
        n = -1;
      }
      {
        std::lock_guard lock(mutex_);
        if (n > 0) {
          size += static_cast<std::size_t>(n);
          chunk.size = size;
        } else {
          chunk.last = n < 0 ? -1 : 0;
          chunk.error = n < 0 ? errno : 0;
        }
      }
      ready_.notify_one();
      if (n <= 0) return;
    }
  }
}

ssize_t PrefetchedBytes::Read(char* out, std::size_t n) {
  for (;;) {
    Chunk& chunk = chunks_[read_chunk_];
    std::size_t size;
    ssize_t last;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] {
        return in_use_ > 0 && (chunk.size > read_pos_ || chunk.last != 1 ||
                               read_pos_ == kPrefetchChunkBytes);
      });
      size = chunk.size;
      last = chunk.last;
      if (read_pos_ == kPrefetchChunkBytes) {  // handed out whole: free it
        --in_use_;
        read_chunk_ = (read_chunk_ + 1) % kPrefetchChunks;
        read_pos_ = 0;
        lock.unlock();
        room_.notify_one();
        continue;
      }
    }
    if (read_pos_ < size) {  // bytes below size stay as they are until freed
      const std::size_t k = std::min(n, size - read_pos_);
      std::memcpy(out, chunk.bytes.get() + read_pos_, k);
      read_pos_ += k;
      return static_cast<ssize_t>(k);
    }
    // The producer's end or failure, as often as asked.
    if (last < 0) errno = chunk.error;
    return last;
  }
}

}  // namespace lbsim
