// The progress line: silent for the first second, then bytes, share,
// events, rate and ETA, redrawn in place and erased at the end.

#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "sim/io/progress_line.h"
#include "stream_contents.h"

namespace lbsim {
namespace {

using testing::StreamContents;

TEST_CASE("The progress line shows bytes, share, events, rate, elapsed time and ETA") {
  CHECK(ProgressLine::Render(512u << 20, 2048u << 20, 3'100'000, 2.0) ==
        "lbsim: 512.0 MiB processed (25%), 3.1M events, 1.6M events/s, 2 s, ETA 6 s");
  // Unknown size (standard input, compressed input): no share, no ETA.
  CHECK(ProgressLine::Render(3u << 20, 0, 4'200, 1.5) ==
        "lbsim: 3.0 MiB processed, 4.2k events, 2.8k events/s, 1 s");
}

TEST_CASE("The progress line stays silent for a second, redraws in place, then erases itself") {
  double now = 100.0;
  std::FILE* out = std::tmpfile();
  {
    ProgressLine line(out, [&now] { return now; });
    now = 100.5;
    line.Update(1u << 20, 4u << 20, 1000);
    CHECK(StreamContents(out).empty());
    now = 102.0;
    line.Update(2u << 20, 4u << 20, 2000);
    CHECK(StreamContents(out) ==
          "\rlbsim: 2.0 MiB processed (50%), 2.0k events, 1.0k events/s, 2 s, ETA 2 s\033[K");
    now = 102.1;  // too soon to redraw
    line.Update(3u << 20, 4u << 20, 3000);
    CHECK(StreamContents(out).find("3.0 MiB") == std::string::npos);
  }
  CHECK(StreamContents(out).ends_with("\r\033[K"));
  std::fclose(out);
}

TEST_CASE("A replay shorter than a second leaves no trace on the terminal") {
  double now = 0.0;
  std::FILE* out = std::tmpfile();
  {
    ProgressLine line(out, [&now] { return now; });
    now = 0.9;
    line.Update(10, 10, 10);
  }
  CHECK(StreamContents(out).empty());
  std::fclose(out);
}

}  // namespace
}  // namespace lbsim
