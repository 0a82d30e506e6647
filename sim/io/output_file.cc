#include "sim/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {
namespace {

namespace fs = std::filesystem;

std::string DirectoryOf(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Whether output to `path` is written into the file as it is, never
// replaced: "-" (standard output), an existing file that is neither regular
// nor a directory (a device, a FIFO, a socket), and existing names that
// stand for open files (/proc/self/fd/1, /dev/stdout). A new file is made
// beside its name and renamed into place, wherever it is.
bool IsSpecialFile(const std::string& path) {
  if (path == "-") return true;
  struct stat st {};
  // A file still to be made is made like any other (also in /dev/shm).
  if (::stat(path.c_str(), &st) != 0) return false;
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return true;  // a device, pipe or socket
  // Under /proc, and through a link under /dev (/dev/stdout leads to
  // /proc/self/fd/1), a regular file stands for one already open: it is
  // written to, not replaced.
  std::error_code ec;
  const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (ec) return false;
  if (absolute.starts_with("/proc/")) return true;
  struct stat link {};
  return absolute.starts_with("/dev/") && ::lstat(path.c_str(), &link) == 0 &&
         S_ISLNK(link.st_mode);
}

// `path`, or for a symbolic link the path it leads to (links followed one
// after another, also when the last one dangles).
std::string FollowLinks(const std::string& path) {
  if (IsSpecialFile(path)) return path;
  fs::path p(path);
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p.string();
}

// Whether `path` is the regular file standard input reads.
bool IsStandardInput(const std::string& path) {
  struct stat in {}, out {};
  return ::fstat(STDIN_FILENO, &in) == 0 && ::stat(path.c_str(), &out) == 0 &&
         S_ISREG(in.st_mode) && in.st_dev == out.st_dev && in.st_ino == out.st_ino;
}

[[noreturn]] void FailWrite(std::string_view path, int err) {
  throw UsageError(fmt::format("{}: cannot write output: {}", path, std::strerror(err)));
}

}  // namespace

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), destination_(FollowLinks(path_)) {
  struct stat st {};
  // ("-" is standard output, whatever the working directory holds.)
  if (path_ != "-" && ::stat(destination_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw UsageError(fmt::format("{}: cannot write output: is a directory", path_));
  if (IsSpecialFile(destination_)) {
    stream_ = std::tmpfile();
    if (!stream_) FailWrite(Name(), errno);
    return;
  }
  // ".NAME.tmp.XXXXXX" beside the destination: same file system, so the
  // rename is atomic.
  std::size_t slash = destination_.rfind('/');
  std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  temp_path_ = fmt::format("{}.{}.tmp.XXXXXX", std::string_view(destination_).substr(0, base),
                           std::string_view(destination_).substr(base));
  int fd = ::mkstemp(temp_path_.data());
  if (fd < 0) FailWrite(Name(), errno);
  ::fchmod(fd, 0644);
  stream_ = ::fdopen(fd, "wb");
  if (!stream_) {
    int err = errno;
    ::close(fd);
    ::unlink(temp_path_.c_str());
    FailWrite(Name(), err);
  }
  // Larger than any one decision log line, so that every write goes through
  // the buffer and a failing write is retried, with its errno, by Finish().
  std::setvbuf(stream_, nullptr, _IOFBF, 1 << 16);
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (stream_) std::fclose(stream_);
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void OutputFile::Finish() {
  if (finished_) return;
  finished_ = true;
  errno = 0;
  bool ok = std::fflush(stream_) == 0 && !std::ferror(stream_);
  int err = errno;
  if (!temp_path_.empty()) {
    bool closed = std::fclose(stream_) == 0;
    if (ok && !closed) err = errno;
    ok = ok && closed;
    stream_ = nullptr;
  }
  if (!ok) FailWrite(Name(), err ? err : EIO);
}

void OutputFile::Commit() {
  Finish();
  if (temp_path_.empty()) {
    CopyIntoSpecialFile();
  } else if (std::rename(temp_path_.c_str(), destination_.c_str()) != 0) {
    FailWrite(Name(), errno);  // the destructor removes the temporary file
  }
  committed_ = true;
}

void OutputFile::CopyIntoSpecialFile() {
  const bool to_stdout = path_ == "-";
  if (to_stdout && std::fflush(stdout) != 0) FailWrite(Name(), errno);
  int fd = to_stdout ? STDOUT_FILENO : ::open(destination_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) FailWrite(Name(), errno);
  std::rewind(stream_);
  char buffer[1 << 16];
  std::size_t n;
  int err = 0;
  while (err == 0 && (n = std::fread(buffer, 1, sizeof buffer, stream_)) > 0) {
    for (std::size_t done = 0; done < n;) {
      ssize_t w = ::write(fd, buffer + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        err = w < 0 ? errno : EIO;
        break;
      }
      done += static_cast<std::size_t>(w);
    }
  }
  if (err == 0 && std::ferror(stream_)) err = EIO;
  if (!to_stdout && ::close(fd) != 0 && err == 0) err = errno;
  std::fclose(stream_);
  stream_ = nullptr;
  if (err != 0) FailWrite(Name(), err);
}

std::FILE* ScratchFileNear(const std::string& near_path) {
  std::string destination = FollowLinks(near_path);
  if (IsSpecialFile(destination)) {
    std::FILE* f = std::tmpfile();
    if (!f)
      throw UsageError(fmt::format("cannot create a scratch file: {}", std::strerror(errno)));
    return f;
  }
  std::string temp = DirectoryOf(destination) + "/.lbsim-scratch.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    throw UsageError(fmt::format("{}: cannot create a scratch file: {}",
                                 DirectoryOf(destination), std::strerror(errno)));
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
                     std::string_view flag, std::string_view kind) {
  if (IsStandardOutputPath(out)) return;
  if (input == "-" ? IsStandardInput(out) : out == input || SameFile(out, input))
    throw UsageError(fmt::format("{} {}: refusing to overwrite the input {}{}", flag, out, kind,
                                 input == "-" ? " (standard input reads it)" : ""));
}

void WriteText(std::string_view text, std::FILE* out, std::string_view failure) {
  errno = 0;
  bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  ok = std::fflush(out) == 0 && ok && !std::ferror(out);
  if (!ok)
    throw UsageError(fmt::format("{}: {}", failure, std::strerror(errno ? errno : EIO)));
}

OutputTarget::OutputTarget(const std::string& path) {
  if (!IsStandardOutputPath(path)) file_ = std::make_unique<OutputFile>(path);
}

void OutputTarget::Write(std::string_view text) {
  if (!file_) {
    WriteText(text, stdout, "standard output: cannot write output");
    return;
  }
  WriteText(text, file_->stream(), file_->path() + ": cannot write output");
  file_->Commit();
}

}  // namespace lbsim
