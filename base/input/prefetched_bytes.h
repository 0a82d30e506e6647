#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace lbsim {

// Bytes per chunk handed from the producing thread to the reading one, and
// chunks the producer may fill ahead: 4 MiB in all, whatever the input's
// size. The producer, the reader and the strategies' thread share two CPUs,
// so either side may be off its CPU for a scheduler's time slice: the ring
// covers some milliseconds of reading. With 1 MiB, replays of the realistic
// trace through a pipe took 12% longer, its zstd twin through a pipe 29%.
inline constexpr std::size_t kPrefetchChunkBytes = std::size_t{256} << 10;
inline constexpr std::size_t kPrefetchChunks = 16;

// Runs a byte producer (a descriptor's reads, a decompressor) on a thread
// of its own, up to kPrefetchChunks chunks ahead of Read, so that the bytes
// are read and decompressed while the reader parses the ones before them.
// Read hands out exactly what the producer produced, in its order, then its
// end or its failure (with the producer's errno), as if it had called the
// producer itself. Every byte is Read's as soon as the producer call that
// made it returns: a pipe's bytes are not held back for more to come.
class PrefetchedBytes {
 public:
  // Produces up to `n` bytes into `out`: their count, 0 at the end, -1 on a
  // failure with errno set. A producer that waits for input (a pipe) waits
  // for `stop_fd` too, and returns -1 when it becomes readable: the reader
  // has gone.
  using Producer = std::function<ssize_t(char* out, std::size_t n, int stop_fd)>;

  // Starts the producing thread, with termination signals blocked in it.
  // Throws std::system_error when there is no thread or descriptor to be had.
  explicit PrefetchedBytes(Producer produce);
  // Stops the producer (at once when it waits for input or room) and joins it.
  ~PrefetchedBytes();
  PrefetchedBytes(const PrefetchedBytes&) = delete;
  PrefetchedBytes& operator=(const PrefetchedBytes&) = delete;

  // Hands out up to `n` produced bytes: their count; once they are all out,
  // 0 at the producer's end, or -1 with its errno on its failure, every time.
  ssize_t Read(char* out, std::size_t n);

 private:
  // The producer fills a chunk to the end before it takes the next; Read
  // frees a chunk when it has handed all of it out.
  struct Chunk {
    // Not zero-filled: a short input touches only the pages it fills.
    std::unique_ptr<char[]> bytes = std::make_unique_for_overwrite<char[]>(kPrefetchChunkBytes);
    std::size_t size = 0;  // bytes produced so far (under mutex_)
    ssize_t last = 1;  // 1: more may follow; else the producer's 0 or -1 (under mutex_)
    int error = 0;     // the producer's errno with last == -1
  };

  void Produce();

  Producer produce_;
  int stop_fd_ = -1;  // an eventfd, readable once stop_ is set
  std::mutex mutex_;
  std::condition_variable ready_;  // bytes were produced, or the producer ended
  std::condition_variable room_;   // a chunk was freed, or stop_ was set
  Chunk chunks_[kPrefetchChunks];
  std::size_t in_use_ = 0;  // chunks the producer took and Read has not freed (under mutex_)
  bool stop_ = false;       // under mutex_
  // Read's own: the chunk it hands out and how far.
  std::size_t read_chunk_ = 0, read_pos_ = 0;
  std::thread thread_;
};

}  // namespace lbsim
