#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace lbsim::fuzz {

// An anonymous in-memory file (memfd) with a path, so that fuzz inputs reach
// the public path-based ReadTrace API without touching the disk. The path
// stays valid while the object lives; every Write replaces the contents.
class MemoryFile {
 public:
  MemoryFile();
  ~MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  // Replaces the contents with `size` bytes at `data`. Aborts on failure
  // (a broken fuzzing harness must not look like a clean run).
  void Write(const std::uint8_t* data, std::size_t size);

  // A path that opens the file: /proc/self/fd/N.
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace lbsim::fuzz
