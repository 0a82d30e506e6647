#pragma once

// A stdio stream as an iterator range for nlohmann's SAX parser, with an end
// the reader moves along: the parser sees the input end `allowance` bytes
// after the last point the reader allowed from. A JSON document reader
// re-allows after every event and header value, so no single value can make
// the parser buffer more than that, however large the file.

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <vector>

namespace lbsim {

class BoundedInput {
 public:
  explicit BoundedInput(std::FILE* file) : file_(file), buffer_(64u << 10) {}
  BoundedInput(const BoundedInput&) = delete;
  BoundedInput& operator=(const BoundedInput&) = delete;

  // Lets the parser read at most `bytes` more bytes from the current offset.
  void AllowFromHere(std::uint64_t bytes) { limit_ = offset_ + bytes; }
  // Whether the parser's input ended at the limit rather than at the end of
  // the file.
  bool hit_limit() const { return hit_limit_; }
  // errno of a failed read, or 0.
  int read_error() const { return read_error_; }

  // An input iterator; the default-constructed one is the end.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    Iterator() = default;
    explicit Iterator(BoundedInput* input) : input_(input) {}

    reference operator*() const { return input_->Current(); }
    Iterator& operator++() {
      input_->Advance();
      return *this;
    }
    void operator++(int) { input_->Advance(); }
    friend bool operator==(const Iterator& a, const Iterator& b) {
      return a.AtEnd() == b.AtEnd();
    }

   private:
    bool AtEnd() const { return !input_ || input_->AtEnd(); }
    BoundedInput* input_ = nullptr;
  };

  Iterator begin() { return Iterator(this); }
  Iterator end() { return Iterator(); }

 private:
  // Whether there is no byte to read: end of file, a read error (the caller
  // checks ferror) or the limit.
  bool AtEnd() {
    if (offset_ >= limit_) {
      hit_limit_ = hit_limit_ || !Exhausted();
      return true;
    }
    return Exhausted();
  }
  bool Exhausted() {
    if (pos_ < size_) return false;
    if (eof_) return true;
    size_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
    if (size_ < buffer_.size() && std::ferror(file_)) read_error_ = errno ? errno : EIO;
    pos_ = 0;
    eof_ = size_ == 0;
    return eof_;
  }
  const char& Current() const { return buffer_[pos_]; }
  void Advance() {
    ++pos_;
    ++offset_;
  }

  std::FILE* file_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, size_ = 0;
  std::uint64_t offset_ = 0;
  std::uint64_t limit_ = UINT64_MAX;
  bool eof_ = false;
  bool hit_limit_ = false;
  int read_error_ = 0;
};

}  // namespace lbsim
