#pragma once

// Test helper: what a stdio stream holds.

#include <cstdio>
#include <string>

namespace lbsim::testing {

// Everything written to `f` so far (flushed first), read from its start.
inline std::string StreamContents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) out.append(buffer, n);
  return out;
}

}  // namespace lbsim::testing
