#include "sim/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "sim/errors.h"

namespace lbsim {
namespace {

std::string DirectoryOf(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw UsageError(fmt::format("{}: cannot write output: is a directory", path_));
  // ".NAME.tmp.XXXXXX" in the destination's directory, so rename() stays
  // within one file system.
  const std::size_t slash = path_.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  temp_path_ = path_.substr(0, base) + "." + path_.substr(base) + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp_path_.data());
  if (fd < 0)
    throw UsageError(fmt::format("{}: cannot write output: {}", path_, std::strerror(errno)));
  ::fchmod(fd, 0644);
  stream_ = ::fdopen(fd, "wb");
  if (!stream_) {
    ::close(fd);
    ::unlink(temp_path_.c_str());
    throw UsageError(fmt::format("{}: cannot write output: {}", path_, std::strerror(errno)));
  }
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (stream_) std::fclose(stream_);
  ::unlink(temp_path_.c_str());
}

void OutputFile::Commit() {
  bool ok = std::fflush(stream_) == 0 && !std::ferror(stream_);
  ok = (std::fclose(stream_) == 0) && ok;
  stream_ = nullptr;
  if (!ok || std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    ::unlink(temp_path_.c_str());
    committed_ = true;  // nothing left to clean up
    throw UsageError(fmt::format("{}: cannot write output: {}", path_, std::strerror(err)));
  }
  committed_ = true;
}

std::FILE* ScratchFileNear(const std::string& near_path) {
  std::string temp = DirectoryOf(near_path) + "/.lbsim-scratch.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    throw UsageError(fmt::format("{}: cannot create a scratch file: {}",
                                 DirectoryOf(near_path), std::strerror(errno)));
  ::unlink(temp.c_str());
  std::FILE* f = ::fdopen(fd, "w+b");
  if (!f) {
    ::close(fd);
    throw UsageError(fmt::format("cannot create a scratch file: {}", std::strerror(errno)));
  }
  return f;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0;
  const bool b_exists = ::stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists || b_exists) return false;
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path pa = fs::weakly_canonical(fs::absolute(a, error), error);
  if (error) return false;
  const fs::path pb = fs::weakly_canonical(fs::absolute(b, error), error);
  return !error && pa == pb;
}

void RefuseOverwrite(const std::string& out, const std::string& input,
                     std::string_view flag) {
  if (out.empty() || out == "-") return;
  if (out == input || SameFile(out, input))
    throw UsageError(fmt::format("{} {}: refusing to overwrite the input trace", flag, out));
}

}  // namespace lbsim
