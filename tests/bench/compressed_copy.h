#pragma once

#include <string>

namespace lbsim::bench {

// Writes the bytes of the file `from` to `to` compressed as gzip at level
// 6 (gzip's default, what logrotate writes), and waits until it is on
// disk, so that its writing back does not slow the runs after. Throws std::runtime_error when
// a file cannot be read or written.
void WriteGzipCopy(const std::string& from, const std::string& to);

// The same as zstd at level 3 (the zstd tool's default).
void WriteZstdCopy(const std::string& from, const std::string& to);

}  // namespace lbsim::bench
