#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace lbsim {

// A file that appears at its path only when complete: it is written to a
// temporary file in the same directory and renamed into place by Commit().
// Destroyed uncommitted, it removes the temporary file, so a failed run
// leaves nothing behind.
class OutputFile {
 public:
  // Creates the temporary file; throws UsageError when it cannot.
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() { return stream_; }
  const std::string& path() const { return path_; }

  // Flushes, closes and renames into place; throws UsageError on failure.
  void Commit();

 private:
  std::string path_;
  std::string temp_path_;
  std::FILE* stream_ = nullptr;
  bool committed_ = false;
};

// An unnamed scratch file in the directory of `near_path` (removed when
// closed); throws UsageError when it cannot be created.
std::FILE* ScratchFileNear(const std::string& near_path);

// Whether two paths name the same file: the same existing file, or, when
// neither exists yet, the same place once "." and ".." and symbolic links
// in the existing part are resolved.
bool SameFile(const std::string& a, const std::string& b);

// Throws UsageError when the output `out` given with `flag` (empty or "-":
// standard output) would overwrite the input trace `input`.
void RefuseOverwrite(const std::string& out, const std::string& input,
                     std::string_view flag);

}  // namespace lbsim
