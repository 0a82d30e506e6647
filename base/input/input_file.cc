#include "base/input/input_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <zlib.h>
#include <zstd.h>

#include "base/errors.h"
#include "base/usable_cpus.h"
#include "base/input/prefetched_bytes.h"

namespace lbsim {

// Reads the content of a file descriptor: raw bytes, or bytes decompressed
// from gzip or zstd, with bytes already produced (peeked) served first.
// Seekable when the descriptor is: a seek backwards decompresses again from
// the start, a seek forwards reads and drops the bytes in between. With two
// CPUs or more, reads past the peeked bytes are prefetched: the descriptor's
// reads and the decompression run on a thread of their own.
struct InputFile::Source {
  int fd = -1;
  bool own_fd = true;
  bool fd_seekable = false;
  Compression compression = Compression::kNone;

  // Raw bytes read ahead of the decoder (the magic bytes of a pipe first).
  std::vector<char> raw = std::vector<char>(std::size_t{64} << 10);
  std::size_t raw_begin = 0, raw_end = 0;
  bool raw_eof = false;

  // Content produced but not yet handed out (PeekLine).
  std::string pending;
  std::size_t pending_begin = 0;

  std::uint64_t position = 0;  // content offset of the next byte handed out
  std::string error;           // what went wrong with the compressed data

  z_stream gzip{};
  bool gzip_ready = false;
  bool gzip_member_done = false;  // the last member ended (EOF may follow)
  ZSTD_DStream* zstd = nullptr;
  bool zstd_frame_done = true;

  // Whether Read may produce on a thread of its own, and that thread's
  // prefetched bytes while it runs; it alone then touches what Produce
  // does. stop_fd is its PrefetchedBytes' (-1 without one): a pipe's read
  // waits for it too.
  bool may_prefetch = false;
  std::unique_ptr<PrefetchedBytes> prefetch;
  int stop_fd = -1;

  ~Source() {
    StopPrefetch();
    if (gzip_ready) inflateEnd(&gzip);
    if (zstd) ZSTD_freeDStream(zstd);
    if (own_fd && fd >= 0) ::close(fd);
  }

  // Stops the producing thread, if one runs; Produce is this thread's again.
  void StopPrefetch() {
    prefetch.reset();
    stop_fd = -1;
  }

  // Fills raw from fd when it is empty; false at the end of the input.
  // Sets errno and returns false on a read error (error stays empty), and
  // with ECANCELED when stop_fd became readable first.
  bool FillRaw() {
    if (raw_begin < raw_end) return true;
    if (raw_eof) return false;
    raw_begin = raw_end = 0;
    for (;;) {
      if (stop_fd >= 0 && !fd_seekable) {  // a pipe or a device may wait for ever
        pollfd fds[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
          if (errno == EINTR) continue;
          return false;
        }
        if (fds[1].revents != 0) {
          errno = ECANCELED;
          return false;
        }
      }
      const ssize_t n = ::read(fd, raw.data(), raw.size());
      if (n > 0) {
        raw_end = static_cast<std::size_t>(n);
        return true;
      }
      if (n == 0) {
        raw_eof = true;
        return false;
      }
      if (errno != EINTR) return false;
    }
  }

  bool StartDecoder() {
    if (compression == Compression::kGzip) {
      gzip = z_stream{};
      // 15 + 32: a zlib or gzip header, detected.
      if (inflateInit2(&gzip, 15 + 32) != Z_OK) return Fail("gzip: cannot start the decoder");
      gzip_ready = true;
      gzip_member_done = false;
    } else if (compression == Compression::kZstd) {
      if (!zstd) zstd = ZSTD_createDStream();
      if (!zstd || ZSTD_isError(ZSTD_initDStream(zstd)))
        return Fail("zstd: cannot start the decoder");
      zstd_frame_done = true;
    }
    return true;
  }

  bool Fail(std::string what) {
    error = std::move(what);
    errno = EBADMSG;
    return false;
  }

  // Produces up to n content bytes into out; the count, 0 at the end, -1
  // on an error (errno set; `error` says what, for bad compressed data).
  ssize_t Produce(char* out, std::size_t n) {
    switch (compression) {
      case Compression::kNone: {
        if (!FillRaw()) return raw_eof ? 0 : -1;
        const std::size_t k = std::min(n, raw_end - raw_begin);
        std::memcpy(out, raw.data() + raw_begin, k);
        raw_begin += k;
        return static_cast<ssize_t>(k);
      }
      case Compression::kGzip: return ProduceGzip(out, n);
      case Compression::kZstd: return ProduceZstd(out, n);
    }
    return -1;
  }

  ssize_t ProduceGzip(char* out, std::size_t n) {
    const uInt want = static_cast<uInt>(std::min<std::size_t>(n, std::size_t{1} << 30));
    gzip.next_out = reinterpret_cast<Bytef*>(out);
    gzip.avail_out = want;
    while (gzip.avail_out == want) {
      if (gzip_member_done) {
        if (!FillRaw()) return raw_eof ? 0 : -1;  // the input ends after a whole member
        if (inflateReset(&gzip) != Z_OK) {  // another member follows (concatenated gzip)
          Fail("gzip: cannot restart the decoder");
          return -1;
        }
        gzip_member_done = false;
      }
      if (!FillRaw()) {
        if (raw_eof) Fail("gzip: the compressed data ends too early (a truncated file?)");
        return -1;
      }
      gzip.next_in = reinterpret_cast<Bytef*>(raw.data() + raw_begin);
      gzip.avail_in = static_cast<uInt>(raw_end - raw_begin);
      const int status = inflate(&gzip, Z_NO_FLUSH);
      raw_begin = raw_end - gzip.avail_in;
      if (status == Z_STREAM_END) {
        gzip_member_done = true;
      } else if (status != Z_OK && status != Z_BUF_ERROR) {
        Fail(fmt::format("gzip: invalid compressed data ({})",
                         gzip.msg ? gzip.msg : "corrupt stream"));
        return -1;
      }
    }
    return static_cast<ssize_t>(want - gzip.avail_out);
  }

  ssize_t ProduceZstd(char* out, std::size_t n) {
    ZSTD_outBuffer output{out, n, 0};
    while (output.pos == 0) {
      if (!FillRaw()) {
        if (!raw_eof) return -1;
        if (zstd_frame_done) return 0;
        Fail("zstd: the compressed data ends too early (a truncated file?)");
        return -1;
      }
      ZSTD_inBuffer input{raw.data() + raw_begin, raw_end - raw_begin, 0};
      const std::size_t status = ZSTD_decompressStream(zstd, &output, &input);
      raw_begin += input.pos;
      if (ZSTD_isError(status)) {
        Fail(fmt::format("zstd: invalid compressed data ({})", ZSTD_getErrorName(status)));
        return -1;
      }
      zstd_frame_done = status == 0;
    }
    return static_cast<ssize_t>(output.pos);
  }

  // Hands out up to n bytes: pending ones first.
  ssize_t Read(char* out, std::size_t n) {
    if (pending_begin < pending.size()) {
      const std::size_t k = std::min(n, pending.size() - pending_begin);
      std::memcpy(out, pending.data() + pending_begin, k);
      pending_begin += k;
      if (pending_begin == pending.size()) {
        pending.clear();
        pending_begin = 0;
      }
      position += k;
      return static_cast<ssize_t>(k);
    }
    if (may_prefetch && !prefetch) {
      try {
        prefetch = std::make_unique<PrefetchedBytes>([this](char* to, std::size_t size, int stop) {
          stop_fd = stop;
          return Produce(to, size);
        });
      } catch (const std::exception&) {  // no thread or memory to be had: produce here
        may_prefetch = false;
      }
    }
    const ssize_t k = prefetch ? prefetch->Read(out, n) : Produce(out, n);
    if (k > 0) position += static_cast<std::uint64_t>(k);
    return k;
  }

  // Goes back to the first content byte; false when the fd cannot seek.
  bool Restart() {
    if (!fd_seekable) return false;
    StopPrefetch();
    if (::lseek(fd, 0, SEEK_SET) != 0) return false;
    raw_begin = raw_end = 0;
    raw_eof = false;
    pending.clear();
    pending_begin = 0;
    position = 0;
    if (gzip_ready) {
      inflateEnd(&gzip);
      gzip_ready = false;
    }
    return StartDecoder();
  }

  int Seek(std::uint64_t target) {
    if (target < position && !Restart()) {
      errno = ESPIPE;
      return -1;
    }
    std::array<char, 1 << 16> drop;
    while (position < target) {
      const ssize_t k = Read(drop.data(), std::min<std::uint64_t>(drop.size(), target - position));
      if (k <= 0) {
        if (k == 0) errno = EINVAL;  // past the end
        return -1;
      }
    }
    return 0;
  }

  static ssize_t CookieRead(void* cookie, char* buffer, std::size_t size) {
    return static_cast<Source*>(cookie)->Read(buffer, size);
  }
  static int CookieSeek(void* cookie, off64_t* offset, int whence) {
    Source& s = *static_cast<Source*>(cookie);
    std::int64_t target = *offset;
    if (whence == SEEK_CUR) target += static_cast<std::int64_t>(s.position);
    else if (whence != SEEK_SET || target < 0) {
      errno = EINVAL;
      return -1;
    }
    if (s.Seek(static_cast<std::uint64_t>(target)) != 0) return -1;
    *offset = static_cast<off64_t>(s.position);
    return 0;
  }
  static int CookieClose(void*) { return 0; }  // the InputFile owns the Source
};

namespace {

// The compression the first bytes of a content announce.
Compression Announced(const char* bytes, std::size_t n) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  if (n >= 2 && b(0) == 0x1f && b(1) == 0x8b) return Compression::kGzip;
  if (n >= 4 && b(0) == 0x28 && b(1) == 0xb5 && b(2) == 0x2f && b(3) == 0xfd)
    return Compression::kZstd;
  // A zstd skippable frame (magic 0x184D2A50-5F, little-endian), as pzstd
  // writes before its frames; the decoder steps over it.
  if (n >= 4 && (b(0) & 0xf0) == 0x50 && b(1) == 0x2a && b(2) == 0x4d && b(3) == 0x18)
    return Compression::kZstd;
  return Compression::kNone;
}

[[noreturn]] void CannotRead(const std::string& path, std::string_view what, int error) {
  throw InputError(fmt::format("{}: cannot read {}: {}", path, what, std::strerror(error)));
}

}  // namespace

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone: return "";
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
  }
  return "";
}

InputFile InputFile::Open(const std::string& path, std::string_view what) {
  InputFile in;
  in.path_ = path;
  in.what_ = what;
  // Standard input is read through a duplicate of descriptor 0, which
  // closing the input leaves open: standard input redirected from a file
  // can be opened again (to detect its encoding, then to read it).
  const int fd = path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                             : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) CannotRead(path, what, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    CannotRead(path, what, error);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw InputError(fmt::format("{}: cannot read {}: is a directory", path, what));
  }
  const bool regular = S_ISREG(st.st_mode);
  in.seekable_ = regular;
  in.disk_size_ = regular ? static_cast<std::uint64_t>(st.st_size) : 0;

  auto source = std::make_unique<Source>();
  source->fd = fd;
  source->fd_seekable = regular;
  // A regular file is read from its start, however far an earlier open of
  // the same standard input read it.
  if (regular && ::lseek(fd, 0, SEEK_SET) != 0) CannotRead(path, what, errno);
  // The magic bytes: read in place (a pipe keeps them as raw bytes ahead).
  std::size_t got = 0;
  while (got < 4) {
    const ssize_t n = ::read(fd, source->raw.data() + got, 4 - got);
    if (n == 0) {
      source->raw_eof = true;
      break;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      CannotRead(path, what, errno);
    }
    got += static_cast<std::size_t>(n);
  }
  source->raw_end = got;
  in.compression_ = Announced(source->raw.data(), got);
  source->compression = in.compression_;

  if (in.compression_ == Compression::kNone && regular) {
    // A plain regular file reads through stdio directly, at full speed.
    if (::lseek(fd, 0, SEEK_SET) != 0) CannotRead(path, what, errno);
    in.file_ = ::fdopen(fd, "rb");
    if (!in.file_) CannotRead(path, what, errno);
    source->own_fd = false;  // the FILE owns it now
    return in;
  }
  if (!source->StartDecoder()) throw InputError(fmt::format("{}: {}", path, source->error));
  source->may_prefetch = UsableCpus() >= 2;
  in.file_ = ::fopencookie(source.get(), "rb",
                           cookie_io_functions_t{&Source::CookieRead, nullptr,
                                                 &Source::CookieSeek, &Source::CookieClose});
  if (!in.file_) CannotRead(path, what, errno);
  in.source_ = std::move(source);
  return in;
}

InputFile::InputFile(InputFile&& other) noexcept { *this = std::move(other); }

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this == &other) return *this;
  Close();
  path_ = std::move(other.path_);
  what_ = std::move(other.what_);
  file_ = std::exchange(other.file_, nullptr);
  compression_ = other.compression_;
  seekable_ = other.seekable_;
  disk_size_ = other.disk_size_;
  source_ = std::move(other.source_);
  return *this;
}

InputFile::~InputFile() { Close(); }

void InputFile::Close() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  source_.reset();
}

std::FILE* InputFile::get() const { return file_; }
Compression InputFile::compression() const { return compression_; }
bool InputFile::seekable() const { return seekable_; }
std::uint64_t InputFile::disk_size() const { return disk_size_; }

std::string InputFile::PeekLine() {
  std::string line;
  if (!source_) {
    // A plain regular file: read the line, then go back to the start.
    char buffer[1 << 16];
    while (line.size() < kMaxPeekBytes) {
      const std::size_t n = std::fread(buffer, 1, sizeof buffer, file_);
      const char* newline = static_cast<const char*>(std::memchr(buffer, '\n', n));
      line.append(buffer, newline ? static_cast<std::size_t>(newline - buffer) : n);
      if (newline || n < sizeof buffer) break;
    }
    std::rewind(file_);
    if (line.size() > kMaxPeekBytes) line.resize(kMaxPeekBytes);
    return line;
  }
  Source& s = *source_;
  std::size_t scanned = 0;
  for (;;) {
    const std::size_t newline = s.pending.find('\n', scanned);
    if (newline != std::string::npos) return s.pending.substr(0, newline);
    scanned = s.pending.size();
    if (s.pending.size() >= kMaxPeekBytes) return s.pending.substr(0, kMaxPeekBytes);
    char buffer[1 << 16];
    const ssize_t n = s.Produce(buffer, sizeof buffer);
    if (n < 0) throw InputError(fmt::format("{}: cannot read {}: {}", path_, what_, ReadErrorText(errno)));
    if (n == 0) return s.pending;
    s.pending.append(buffer, static_cast<std::size_t>(n));
  }
}

void InputFile::MakeSeekable() {
  if (seekable_) return;
  const char* dir = std::getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  int fd = ::open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {  // no O_TMPFILE there: a named file, unlinked at once
    std::string name = std::string(dir) + "/lbsim-input.XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(name.c_str());
  }
  if (fd < 0)
    throw InputError(fmt::format("{}: cannot copy the input to a temporary file in {}: {}",
                                 path_, dir, std::strerror(errno)));
  std::FILE* copy = ::fdopen(fd, "w+b");
  if (!copy) {
    ::close(fd);
    throw InputError(fmt::format("{}: cannot copy the input: {}", path_, std::strerror(errno)));
  }
  std::uint64_t copied = 0;
  char buffer[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file_);
    if (n > 0 && std::fwrite(buffer, 1, n, copy) != n) {
      const int error = errno;
      std::fclose(copy);
      throw InputError(fmt::format("{}: cannot copy the input to a temporary file in {}: {}",
                                   path_, dir, std::strerror(error)));
    }
    copied += n;
    if (n < sizeof buffer) {
      if (std::ferror(file_)) {
        const std::string why = ReadErrorText(errno);
        std::fclose(copy);
        throw InputError(fmt::format("{}: cannot read {}: {}", path_, what_, why));
      }
      break;
    }
  }
  if (std::fflush(copy) != 0 || std::fseek(copy, 0, SEEK_SET) != 0) {
    const int error = errno;
    std::fclose(copy);
    throw InputError(fmt::format("{}: cannot copy the input to a temporary file in {}: {}",
                                 path_, dir, std::strerror(error)));
  }
  std::fclose(file_);
  source_.reset();
  file_ = copy;
  seekable_ = true;
  disk_size_ = copied;
  compression_ = Compression::kNone;  // the copy holds the content as it reads
}

std::string InputFile::ReadErrorText(int error) const {
  if (error == EBADMSG && source_ && !source_->error.empty()) return source_->error;
  return std::strerror(error);
}

}  // namespace lbsim
