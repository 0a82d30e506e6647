#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "base/input/file_window.h"

namespace lbsim {

TEST_CASE("FileWindow grows for a long line and goes back to one chunk after it") {
  // Chunks of 1 KiB; a line of 100 KB, then 220 KB of short lines.
  std::string text = std::string(100'000, 'x') + "\n";
  for (int k = 0; k < 20000; ++k) text += "short line\n";
  std::FILE* f = fmemopen(text.data(), text.size(), "r");
  REQUIRE(f);
  FileWindow window(f, nullptr, 1024);
  while (window.Refill(0) && window.size() <= 100'000) {
  }
  CHECK(window.capacity() >= 100'001);
  CHECK(std::string(window.data(), 100'001) == text.substr(0, 100'001));
  // The long line released, and then what was read with it: the window is
  // back to one chunk and yields the rest of the text unchanged.
  window.Refill(100'001);
  std::string rest(window.data(), window.size());
  std::size_t kept = window.size();
  window.Refill(kept);
  CHECK(window.capacity() == 1024);
  do rest.append(window.data(), window.size());
  while (window.Refill(window.size()));
  CHECK(rest == text.substr(100'001));
  std::fclose(f);
}

}  // namespace lbsim
