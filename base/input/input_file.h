#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace lbsim {

// How an input's bytes are stored, told by their first bytes (never by the
// file's name).
enum class Compression : unsigned char { kNone, kGzip, kZstd };

// "gzip", "zstd" or "" (none).
std::string_view CompressionName(Compression c);

// Bytes of one peeked line at most (InputFile::PeekLine); a longer first
// line is cut there.
inline constexpr std::size_t kMaxPeekBytes = std::size_t{64} << 20;

// An input lbsim reads (a trace, an import input): a path, or "-" for
// standard input; a regular file (read from its start, standard input
// redirected from one too), a pipe or a device. Content compressed with
// gzip (concatenated members too) or zstd (any number of frames) is
// decompressed as it is read, streaming, in bounded memory. get() reads the
// content; before reading, its first line can be peeked at, and a pipe's
// content can be made seekable.
class InputFile {
 public:
  // Opens `path`; throws InputError "PATH: cannot read WHAT: REASON" when it
  // cannot (missing, unreadable, a directory).
  static InputFile Open(const std::string& path, std::string_view what);

  InputFile(InputFile&&) noexcept;
  InputFile& operator=(InputFile&&) noexcept;
  ~InputFile();

  // The content, for stdio reads. Owned by this object.
  std::FILE* get() const;
  Compression compression() const;
  // Whether the content can be read again from any offset (fseeko works): a
  // regular file, compressed or not (compressed content is decompressed
  // again from its start to seek backwards).
  bool seekable() const;
  // The bytes on disk of a regular file (compressed bytes when compressed),
  // 0 for anything else.
  std::uint64_t disk_size() const;

  // The first line of the content (without its '\n', at most kMaxPeekBytes),
  // read without consuming it: get() still starts at the first byte. Only
  // before anything is read from get().
  std::string PeekLine();

  // Makes the content seekable: a pipe's content (what was peeked at
  // included) is copied, decompressed, to a temporary file that is unlinked
  // at once, so that nothing is left behind whatever happens, and read from
  // there. Nothing to do for a regular file. Only before anything is read
  // from get(). Throws InputError when the copy fails (a full disk).
  void MakeSeekable();

  // What a failed read of get() (errno `error`) says: what was wrong with
  // the compressed data, or the system's error text.
  std::string ReadErrorText(int error) const;

  struct Source;  // the decompressing reader behind get(), when there is one

 private:
  InputFile() = default;
  // Closes what is open; the object is then empty.
  void Close();

  std::string path_;
  std::string what_;  // what it is, for messages: "trace", "input"
  std::FILE* file_ = nullptr;
  Compression compression_ = Compression::kNone;
  bool seekable_ = false;
  std::uint64_t disk_size_ = 0;
  std::unique_ptr<Source> source_;  // null: file_ reads the bytes as they are
};

}  // namespace lbsim
