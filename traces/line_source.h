#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "base/input/file_window.h"

namespace lbsim {

// Yields the lines of a file (without their '\n') in place in a FileWindow
// that grows only to the longest line, so memory does not grow with the
// file. Each line is followed in memory by a NUL byte (it replaces the
// '\n'), as JsonScanner needs.
class LineSource {
 public:
  // Reads `file` (not owned); `display_path` names it in error messages;
  // `input`, when given, is what `file` reads (it explains read errors).
  LineSource(std::FILE* file, std::string display_path, const InputFile* input = nullptr);

  // Sets `line` to the next line, valid until the next call; false at end
  // of input. Throws InputError for a line longer than kMaxLineBytes or a
  // read error.
  bool Next(std::string_view& line);

  // The bytes read ahead from the start of the next line, valid until the
  // next call of Next: a reader may take the line there itself with Skip.
  std::string_view Buffered() const {
    return std::string_view(window_.data() + pos_, window_.size() - pos_);
  }
  // Takes the next line, the first `size` bytes of Buffered(), which the
  // caller found followed by '\n' there, as if Next had returned it.
  void Skip(std::size_t size) {
    ++number_;
    pos_ += size + 1;
  }

  // Takes the empty lines ("\n" or "\r\n") at the start of Buffered(),
  // as many calls of Next would; false when there is none.
  bool SkipEmptyLines() {
    const std::size_t start = pos_;
    const char* p = window_.data();
    const std::size_t end = window_.size();
    for (;;) {
      if (pos_ < end && p[pos_] == '\n') {
        ++pos_;
      } else if (pos_ + 1 < end && p[pos_] == '\r' && p[pos_ + 1] == '\n') {
        pos_ += 2;
      } else {
        break;
      }
      ++number_;
    }
    return pos_ != start;
  }

  // The 1-based number of the line Next returned (or Skip took) last.
  std::uint64_t number() const { return number_; }
  // The bytes of the file read up to the end of that line.
  std::uint64_t offset() const { return window_.offset() + pos_; }
  const std::string& display_path() const { return path_; }

 private:
  FileWindow window_;
  std::string path_;
  std::size_t pos_ = 0;  // start of the next line in the window
  std::uint64_t number_ = 0;
};

// Whether `line` holds only spaces, tabs and carriage returns.
bool IsBlank(std::string_view line);

}  // namespace lbsim
