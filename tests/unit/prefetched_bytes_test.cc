#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <future>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "base/input/prefetched_bytes.h"

namespace lbsim {
namespace {

// The byte at content offset `i` of the test's content: no period that a
// chunk or a read size would line up with.
char ContentByte(std::uint64_t i) { return static_cast<char>((i * 2654435761u) >> 13); }

// Reads `r` to its end in reads of varying sizes; the bytes, and the last
// result (0 or -1) in `last`.
std::string ReadAll(PrefetchedBytes& r, ssize_t& last) {
  std::string got;
  std::string buffer(300'000, '\0');
  for (std::size_t i = 0;; ++i) {
    const std::size_t want = 1 + (i * 7919) % buffer.size();
    const ssize_t n = r.Read(buffer.data(), want);
    if (n <= 0) {
      last = n;
      return got;
    }
    REQUIRE(static_cast<std::size_t>(n) <= want);
    got.append(buffer.data(), static_cast<std::size_t>(n));
  }
}

}  // namespace

TEST_CASE("PrefetchedBytes hands out what its producer made, in order, then its end every time") {
  // 10 MB in pieces of 1 to 70,000 bytes: more than the ring holds, so its
  // chunks are reused many times over, and pieces straddle chunks.
  const std::uint64_t total = 10'000'000;
  std::uint64_t made = 0, calls = 0;
  PrefetchedBytes r([&](char* out, std::size_t n, int) -> ssize_t {
    const std::uint64_t piece = 1 + (++calls * 104729) % 70'000;
    std::uint64_t k = std::min<std::uint64_t>({n, piece, total - made});
    for (std::uint64_t i = 0; i < k; ++i) out[i] = ContentByte(made + i);
    made += k;
    return static_cast<ssize_t>(k);
  });
  ssize_t last = 1;
  const std::string got = ReadAll(r, last);
  CHECK(last == 0);
  REQUIRE(got.size() == total);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < total; ++i) wrong += got[i] != ContentByte(i);
  CHECK(wrong == 0);
  char byte;
  CHECK(r.Read(&byte, 1) == 0);
  CHECK(r.Read(&byte, 1) == 0);
}

TEST_CASE("PrefetchedBytes hands out the bytes before a failure, then the failure's errno") {
  const std::uint64_t good = 600'001;
  std::uint64_t made = 0;
  PrefetchedBytes r([&](char* out, std::size_t n, int) -> ssize_t {
    if (made == good) {
      errno = EBADMSG;
      return -1;
    }
    const std::uint64_t k = std::min<std::uint64_t>({n, 65'536, good - made});
    for (std::uint64_t i = 0; i < k; ++i) out[i] = ContentByte(made + i);
    made += k;
    return static_cast<ssize_t>(k);
  });
  ssize_t last = 1;
  errno = 0;
  const std::string got = ReadAll(r, last);
  CHECK(last == -1);
  CHECK(errno == EBADMSG);
  CHECK(got.size() == good);
  char byte;
  errno = 0;
  CHECK(r.Read(&byte, 1) == -1);
  CHECK(errno == EBADMSG);
}

TEST_CASE("PrefetchedBytes hands a producer's bytes out at once, not when a chunk is full") {
  // A pipe whose writer stays: what it wrote first must be readable at
  // once, far less than a chunk as it is. The writer writes more only once
  // it was read (or after 10 s: a Read that waited for a full chunk gets
  // more than the first 5 bytes then). Then the producer waits for input,
  // and leaving the scope stops it there: no hang.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], "hello", 5) == 5);
  std::promise<void> first_read;
  std::thread writer([&, read = first_read.get_future()] {
    read.wait_for(std::chrono::seconds(10));
    const std::string more(300'000, 'x');
    for (std::size_t done = 0; done < more.size();) {
      const ssize_t n = ::write(fds[1], more.data() + done, more.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
  });
  std::atomic<int> cancelled{0};
  {
    PrefetchedBytes r([&](char* out, std::size_t n, int stop_fd) -> ssize_t {
      pollfd p[2] = {{fds[0], POLLIN, 0}, {stop_fd, POLLIN, 0}};
      if (::poll(p, 2, -1) < 0) return -1;
      if (p[1].revents != 0) {
        ++cancelled;
        errno = ECANCELED;
        return -1;
      }
      return ::read(fds[0], out, n);
    });
    char buffer[16];
    const ssize_t n = r.Read(buffer, sizeof buffer);
    first_read.set_value();
    writer.join();
    REQUIRE(n == 5);
    CHECK(std::string(buffer, 5) == "hello");
    // Take the rest: the producer has then made it all, and is in the
    // middle of its second chunk, waiting for input, when the scope ends.
    std::size_t rest = 0, wrong = 0;
    while (rest < 300'000) {
      const ssize_t k = r.Read(buffer, sizeof buffer);
      REQUIRE(k > 0);
      for (ssize_t i = 0; i < k; ++i) wrong += buffer[i] != 'x';
      rest += static_cast<std::size_t>(k);
    }
    CHECK(rest == 300'000);
    CHECK(wrong == 0);
  // the producer takes the 300,000 bytes: the ring has room
  }
  CHECK(cancelled == 1);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST_CASE("PrefetchedBytes runs a bounded way ahead and stops a producer that waits for room") {
  std::atomic<std::uint64_t> made{0};
  {
    PrefetchedBytes r([&](char* out, std::size_t n, int) -> ssize_t {
      for (std::size_t i = 0; i < n; ++i) out[i] = ContentByte(made + i);
      made += n;
      return static_cast<ssize_t>(n);
    });
    char buffer[10];
    REQUIRE(r.Read(buffer, sizeof buffer) == 10);
    for (std::uint64_t i = 0; i < 10; ++i) CHECK(buffer[i] == ContentByte(i));
    // Give the producer time to fill the ring; it must stop there.
    for (int i = 0; i < 10'000 && made < kPrefetchChunks * kPrefetchChunkBytes; ++i) ::usleep(1000);
    ::usleep(20'000);  // and a little longer, for bytes it should not make
  }
  CHECK(made == kPrefetchChunks * kPrefetchChunkBytes);
}

}  // namespace lbsim
