#include "base/input/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/input/input_file.h"

namespace lbsim {
std::string WideTextMessage(std::string_view text) {
  const char* encoding = nullptr;
  if (text.starts_with(std::string_view("\xFF\xFE\0\0", 4))) encoding = "UTF-32 (little-endian)";
  else if (text.starts_with(std::string_view("\0\0\xFE\xFF", 4))) encoding = "UTF-32 (big-endian)";
  else if (text.starts_with("\xFF\xFE")) encoding = "UTF-16 (little-endian)";
  else if (text.starts_with("\xFE\xFF")) encoding = "UTF-16 (big-endian)";
  if (!encoding) return "";
  return fmt::format(
      "{} text (it starts with that byte order mark); lbsim reads UTF-8: convert it, e.g. "
      "iconv -f {} -t UTF-8",
      encoding, std::string_view(encoding).substr(0, 6));
}

std::string ReadTextFile(const std::string& path, std::string_view what, std::size_t max_bytes,
                         std::string_view too_large) {
  // gzip or zstd content is decompressed as it is read; the limits count
  // the text, not the compressed bytes.
  InputFile input = InputFile::Open(path, what);
  std::FILE* file = input.get();
  std::string text;
  std::size_t line = 1, line_start = 0;  // where the bytes read so far end
  char chunk[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(chunk, 1, sizeof chunk, file);
    if (n == 0) break;
    if (text.size() + n > max_bytes)
      throw InputError(too_large.empty()
                           ? fmt::format("{}: larger than the limit of {} MiB for a {}", path,
                                         max_bytes >> 20, what)
                           : fmt::format("{}: {}", path, too_large));
    const std::size_t start = text.size();
    text.append(chunk, n);
    if (start < 4) {
      const std::string wide = WideTextMessage(text);
      if (!wide.empty()) throw InputError(fmt::format("{}: {}", path, wide));
    }
    if (const void* nul = std::memchr(text.data() + start, '\0', n)) {
      const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nul) - text.data());
      for (std::size_t i = line_start; i < at; ++i)
        if (text[i] == '\n') ++line, line_start = i + 1;
      throw InputError(fmt::format(
          "{}:{}:{}: a NUL byte: a {} is text and holds none (is this a binary file?)", path,
          line, at - line_start + 1, what));
    }
  }
  if (std::ferror(file))
    throw InputError(fmt::format("{}: cannot read {}: {}", path, what,
                                 input.ReadErrorText(errno ? errno : EIO)));
  return text;
}

}  // namespace lbsim
