#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "base/input/input_file.h"
#include "base/input/prefetched_bytes.h"
#include "replay_fixture.h"

namespace lbsim {
namespace {

// JSON Lines text of about `bytes` bytes, no two lines alike.
std::string Lines(std::size_t bytes) {
  std::string text;
  for (std::uint64_t i = 0; text.size() < bytes; ++i)
    text += "{\"t\": " + std::to_string(i * 0.001) + ", \"type\": \"arrival\", \"id\": \"r" +
            std::to_string(i * 7919 % 100'003) + "\"}\n";
  return text;
}

std::string Gzip(const std::string& text) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// Reads `f` from where it is to its end.
std::string ReadRest(std::FILE* f) {
  std::string text;
  char buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
  return text;
}

}  // namespace

TEST_CASE("InputFile: gzip content of many prefetched chunks, read again from the start") {
  // 7 MB of content: more than the prefetch ring, so the producer runs
  // ahead when the first read stops and the seek back restarts it.
  const std::string text = Lines(7'000'000);
  REQUIRE(text.size() > kPrefetchChunks * kPrefetchChunkBytes);
  testing::TempFile file(Gzip(text), "trace.ndjson.gz");
  InputFile input = InputFile::Open(file.path(), "trace");
  CHECK(input.compression() == Compression::kGzip);
  CHECK(input.PeekLine() == text.substr(0, text.find('\n')));
  std::string head(1'000'003, '\0');
  REQUIRE(std::fread(head.data(), 1, head.size(), input.get()) == head.size());
  CHECK(head == text.substr(0, head.size()));
  REQUIRE(::fseeko(input.get(), 0, SEEK_SET) == 0);
  CHECK(ReadRest(input.get()) == text);
  CHECK_FALSE(std::ferror(input.get()));
}

TEST_CASE("InputFile: truncated gzip content hands out its bytes, then what went wrong") {
  const std::string text = Lines(3'000'000);
  const std::string gzip = Gzip(text);
  testing::TempFile file(gzip.substr(0, gzip.size() / 2), "trace.ndjson.gz");
  InputFile input = InputFile::Open(file.path(), "trace");
  const std::string got = ReadRest(input.get());
  REQUIRE(std::ferror(input.get()));
  const int error = errno;
  CHECK(input.ReadErrorText(error) ==
        "gzip: the compressed data ends too early (a truncated file?)");
  // Every byte the decoder could make, and only the content's.
  CHECK(got.size() > text.size() / 3);
  CHECK(got == text.substr(0, got.size()));
}

TEST_CASE("InputFile: a pipe whose writer stays open is read, and closed without waiting") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], "{\"a\": 1}\n", 9) == 9);
  auto input = std::make_unique<InputFile>(
      InputFile::Open("/dev/fd/" + std::to_string(fds[0]), "trace"));
  char line[9];
  REQUIRE(std::fread(line, 1, sizeof line, input->get()) == sizeof line);
  CHECK(std::string(line, sizeof line) == "{\"a\": 1}\n");
  // Closing must not wait for the writer, which has more to say, or not.
  std::atomic<bool> closed{false};
  std::thread closer([&] {
    input.reset();
    closed = true;
  });
  for (int i = 0; i < 10'000 && !closed; ++i) ::usleep(1000);
  CHECK(closed);
  ::close(fds[1]);  // a closer stuck in a read returns now
  closer.join();
  ::close(fds[0]);
}

}  // namespace lbsim
