#include "compressed_copy.h"

#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

namespace lbsim::bench {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File OpenOrThrow(const std::string& path, const char* mode) {
  File f(std::fopen(path.c_str(), mode));
  if (!f) throw std::runtime_error("cannot open " + path);
  return f;
}

constexpr std::size_t kPiece = std::size_t{1} << 20;

}  // namespace

void WriteGzipCopy(const std::string& from, const std::string& to) {
  File in = OpenOrThrow(from, "rb");
  File out = OpenOrThrow(to, "wb");
  // zlib writes through a descriptor of its own; this one syncs the file.
  const int fd = ::dup(::fileno(out.get()));
  gzFile gz = fd < 0 ? nullptr : gzdopen(fd, "wb6");
  if (!gz) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot open " + to);
  }
  std::vector<char> piece(kPiece);
  bool ok = true;
  for (std::size_t n; ok && (n = std::fread(piece.data(), 1, piece.size(), in.get())) > 0;)
    ok = gzwrite(gz, piece.data(), static_cast<unsigned>(n)) == static_cast<int>(n);
  if (gzclose(gz) != Z_OK || !ok || std::ferror(in.get()) || ::fsync(::fileno(out.get())) != 0)
    throw std::runtime_error("cannot write " + to);
}

void WriteZstdCopy(const std::string& from, const std::string& to) {
  File in = OpenOrThrow(from, "rb");
  File out = OpenOrThrow(to, "wb");
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
  if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, 3)))
    throw std::runtime_error("cannot start zstd");
  std::vector<char> piece(kPiece), packed(ZSTD_CStreamOutSize());
  for (;;) {
    const std::size_t n = std::fread(piece.data(), 1, piece.size(), in.get());
    const ZSTD_EndDirective mode = n < piece.size() ? ZSTD_e_end : ZSTD_e_continue;
    ZSTD_inBuffer input{piece.data(), n, 0};
    for (bool done = false; !done;) {
      ZSTD_outBuffer output{packed.data(), packed.size(), 0};
      const std::size_t left = ZSTD_compressStream2(cctx.get(), &output, &input, mode);
      if (ZSTD_isError(left) ||
          std::fwrite(packed.data(), 1, output.pos, out.get()) != output.pos)
        throw std::runtime_error("cannot write " + to);
      done = mode == ZSTD_e_end ? left == 0 : input.pos == input.size;
    }
    if (mode == ZSTD_e_end) break;
  }
  if (std::ferror(in.get()) || std::fflush(out.get()) != 0 || ::fsync(::fileno(out.get())) != 0)
    throw std::runtime_error("cannot write " + to);
}

}  // namespace lbsim::bench
