// BackgroundWriter: blocks reach their streams whole, in the order they
// were submitted, by the time Drain returns; a failing write shows as the
// stream's own error; and the decision log written through it is the one
// written line by line.

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "base/background_writer.h"
#include "stream_contents.h"
#include "traces/decision_log.h"

namespace lbsim {
namespace {

using testing::StreamContents;

TEST_CASE("background writer: blocks arrive in order, per stream, by Drain") {
  std::FILE* a = std::tmpfile();
  std::FILE* b = std::tmpfile();
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  std::string want_a, want_b;
  {
    BackgroundWriter writer;
    std::string block;
    // Many more blocks than may wait at once, of varied sizes, so that
    // Submit waits for room and storage is handed back and reused.
    for (int i = 0; i < 200; ++i) {
      block = fmt::format("{}:{}|", i, std::string(static_cast<std::size_t>(i * 37 % 5000), 'x'));
      std::string& want = i % 3 ? want_a : want_b;
      want += block;
      writer.Submit(i % 3 ? a : b, block);
      CHECK(block.empty());
    }
    writer.Drain();
    CHECK(StreamContents(a) == want_a);
    CHECK(StreamContents(b) == want_b);
    std::fseek(a, 0, SEEK_END);
    block = "after drain";
    writer.Submit(a, block);
    want_a += "after drain";
  }  // the destructor writes what waits before it stops
  CHECK(StreamContents(a) == want_a);
  std::fclose(a);
  std::fclose(b);
}

TEST_CASE("background writer: a failing write is the stream's error after Drain") {
  std::FILE* full = std::fopen("/dev/full", "w");
  if (!full) return;  // no /dev/full here
  BackgroundWriter writer;
  std::string block(BackgroundWriter::kBlockBytes, 'x');
  writer.Submit(full, block);
  writer.Drain();
  CHECK((std::fflush(full) != 0 || std::ferror(full)));
  std::fclose(full);
}

TEST_CASE("decision log: lines written through a BackgroundWriter equal those written one by one") {
  std::FILE* direct = std::tmpfile();
  std::FILE* blocked = std::tmpfile();
  REQUIRE(direct != nullptr);
  REQUIRE(blocked != nullptr);
  const std::string instance = "inst-\"7\"";
  {
    BackgroundWriter background;
    DecisionLogWriter one_by_one(direct);
    DecisionLogWriter in_blocks(blocked, &background);
    // Enough lines for several blocks, and a last partial one for Flush.
    for (std::uint64_t seq = 1; seq <= 9000; ++seq) {
      const TraceTime t{static_cast<double>(seq) / 7.0, false, 0};
      const std::string request = fmt::format("req-{}-{}", seq, std::string(seq % 90, 'r'));
      const DecisionRecord r{"least_load", seq, &t, request, seq % 5 ? &instance : nullptr,
                             seq % 5 ? "least" : "no_instances", seq % 17};
      one_by_one.Write(r);
      in_blocks.Write(r);
    }
    in_blocks.Flush();
    background.Drain();
  }
  const std::string want = StreamContents(direct);
  CHECK(want.size() > 3 * BackgroundWriter::kBlockBytes);
  CHECK(StreamContents(blocked) == want);
  std::fclose(direct);
  std::fclose(blocked);
}

}  // namespace
}  // namespace lbsim
