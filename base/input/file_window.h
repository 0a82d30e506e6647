#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace lbsim {

class InputFile;

// A window onto a file read front to back in large chunks, so that trace
// readers work on the bytes in place: lines and values are views into the
// window, never copies. A NUL byte always follows the data (JsonScanner
// relies on it), and readers may overwrite bytes of the window. Memory
// stays at one chunk unless a single line or value needs more, and goes
// back to one chunk once the bytes kept fit in half of one again.
class FileWindow {
 public:
  // `input`, when given, is what `file` reads (it explains read errors).
  explicit FileWindow(std::FILE* file, const InputFile* input = nullptr,
                      std::size_t chunk_bytes = std::size_t{1} << 20);

  // The bytes read and not yet released; data()[size()] is a NUL byte.
  char* data() { return buffer_.get() + begin_; }
  const char* data() const { return buffer_.get() + begin_; }
  std::size_t size() const { return end_ - begin_; }
  // The bytes the window has room for now.
  std::size_t capacity() const { return capacity_ - 1; }
  // The file offset of data()[0].
  std::uint64_t offset() const { return offset_; }
  // Whether the end of the file has been read: size() bytes are all that is left.
  bool at_eof() const { return eof_; }
  // The errno of a failed read (rather than the end of the file), or 0.
  int read_error() const { return read_error_; }
  // What that failed read says: the system's error text, or what was wrong
  // with compressed data.
  std::string ReadErrorText() const;

  // Releases the first `consumed` bytes (which invalidates views into them)
  // and reads more, growing the window when it is full. Returns false when
  // no byte could be added: at the end of the file or on a read error.
  bool Refill(std::size_t consumed);

  // Empties the window and continues reading at file offset `offset`.
  // Returns false when the file cannot seek there.
  bool Seek(std::uint64_t offset);

 private:
  std::FILE* file_;
  const InputFile* input_;  // may be null
  // Not zero-filled: only the bytes read and the NUL after them are ever
  // looked at, and a short trace then touches only the pages it fills.
  std::unique_ptr<char[]> buffer_;
  std::size_t chunk_;         // the bytes one read asks for, at first
  std::size_t capacity_ = 0;  // bytes in buffer_, the NUL's place included
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::uint64_t offset_ = 0;
  bool eof_ = false;
  int read_error_ = 0;
};

}  // namespace lbsim
