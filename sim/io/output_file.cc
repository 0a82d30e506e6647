#include "sim/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <filesystem>
#include <random>
#include <system_error>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/signal_cleanup.h"

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
  throw UsageError(fmt::format("{}: cannot write output: {}", path,
                               err == EISDIR ? "is a directory" : std::strerror(err)));
}

// The longest file name the temporary name may make (NAME_MAX of Linux's
// file systems).
constexpr std::size_t kMaxFileName = 255;

// A temporary name beside `destination`: ".NAME.tmp.XXXXXX", with NAME cut
// (at a UTF-8 character boundary) so that the name fits kMaxFileName.
std::string TempPathFor(const std::string& destination, std::random_device& random) {
  const std::size_t slash = destination.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  std::string_view name = std::string_view(destination).substr(base);
  constexpr std::string_view kSuffix = ".tmp.XXXXXX";
  const std::size_t room = kMaxFileName - 1 - kSuffix.size();
  if (name.size() > room) {
    std::size_t cut = room;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
    name = name.substr(0, cut);
  }
  constexpr std::string_view kLetters =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string letters;
  std::uint64_t bits = (std::uint64_t{random()} << 32) ^ random();
  for (int i = 0; i < 6; ++i, bits /= kLetters.size()) letters += kLetters[bits % kLetters.size()];
  return fmt::format("{}.{}.tmp.{}", std::string_view(destination).substr(0, base), name,
                     letters);
}

// An unnamed scratch file in `directory`, open for reading and writing:
// made and unlinked with termination signals blocked, so that no signal
// leaves it behind. -1 with errno set when it cannot be made.
int UnnamedScratchFile(const std::string& directory) {
  TerminationSignalsBlocked blocked;
  std::string temp = directory + "/.lbsim-scratch.XXXXXX";
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(temp.c_str());
  return fd;
}

// The directory for scratch files that belong to no output directory.
std::string TempDirectory() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

}  // namespace

std::string OutputDestination(const std::string& path) { return FollowLinks(path); }

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), destination_(FollowLinks(path_)) {
  if (path_.empty()) throw UsageError("cannot write output: the file name is empty");
  // Still a link after following them (not one under /dev, which is
  // written through): a loop, or a chain too long.
  std::error_code ec;
  if (!IsSpecialFile(destination_) && fs::is_symlink(fs::symlink_status(destination_, ec)))
    FailWrite(path_, ELOOP);
  struct stat st {};
  // ("-" is standard output, whatever the working directory holds.)
  const bool exists = path_ != "-" && ::stat(destination_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) FailWrite(path_, EISDIR);
  if (IsSpecialFile(destination_)) {
    fd_ = UnnamedScratchFile(TempDirectory());
    if (fd_ < 0) FailWrite(Name(), errno);
    stream_ = std::make_unique<WriteStream>(fd_);
    return;
  }
  // Beside the destination: same file system, so the rename is atomic.
  std::random_device random;
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temp_path_ = TempPathFor(destination_, random);
    // Made and remembered for the signal handler as one step.
    TerminationSignalsBlocked blocked;
    // 0666: the umask decides a new file's mode, as for any other program.
    fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      if (errno == EEXIST && attempt < 100) continue;
      const int err = errno;
      temp_path_.clear();
      FailWrite(Name(), err);
    }
    cleanup_slot_ = RememberTempFile(temp_path_.c_str());
    if (cleanup_slot_ < 0) {
      ::close(fd_);
      ::unlink(temp_path_.c_str());
      fd_ = -1;
      temp_path_.clear();
      throw UsageError(fmt::format("{}: cannot write output: more than {} output files at once",
                                   path_, kMaxCleanupFiles));
    }
  }
  // A file replaced keeps its mode.
  if (exists && S_ISREG(st.st_mode)) ::fchmod(fd_, st.st_mode & 07777);
  stream_ = std::make_unique<WriteStream>(fd_);
}

OutputFile::~OutputFile() {
  if (committed_) return;
  stream_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) {
    TerminationSignalsBlocked blocked;
    ::unlink(temp_path_.c_str());
    ForgetTempFile(cleanup_slot_);
  }
}

void OutputFile::Finish() {
  if (finished_) return;
  finished_ = true;
  int err = stream_->Flush();
  stream_.reset();
  if (!temp_path_.empty()) {
    if (::close(fd_) != 0 && err == 0) err = errno;
    fd_ = -1;
  }
  if (err) FailWrite(Name(), err);
}

void OutputFile::Commit() {
  Finish();
  if (temp_path_.empty()) {
    CopyIntoSpecialFile();
  } else {
    TerminationSignalsBlocked blocked;
    // An existing file is exchanged with the new one, then removed from
    // the temporary name: renamed over, on ext4 (auto_da_alloc), the new
    // file would first be allocated and queued for writing to disk, on
    // this thread (0.1 s for a 160 MB decision log). Where names cannot be
    // exchanged (no such file, a file system without it), a rename.
    if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, destination_.c_str(),
                    RENAME_EXCHANGE) == 0) {
      // What was at the path is now at the temporary name. A directory
      // (made there since the output was opened) cannot be removed, nor
      // written over: it goes back, and the new file is left to the
      // destructor to remove.
      if (::unlink(temp_path_.c_str()) != 0) {
        const int err = errno;
        if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, destination_.c_str(),
                        RENAME_EXCHANGE) != 0)
          throw UsageError(fmt::format("{}: cannot write output: {}; what was there is now {}",
                                       Name(), std::strerror(err), temp_path_));
        FailWrite(Name(), err);
      }
    } else if (std::rename(temp_path_.c_str(), destination_.c_str()) != 0) {
      FailWrite(Name(), errno);  // the destructor removes the temporary file
    }
    ForgetTempFile(cleanup_slot_);
  }
  committed_ = true;
}

void OutputFile::CopyIntoSpecialFile() {
  const bool to_stdout = path_ == "-";
  int out = to_stdout ? STDOUT_FILENO : ::open(destination_.c_str(), O_WRONLY | O_CLOEXEC);
  if (out < 0) FailWrite(Name(), errno);
  char buffer[1 << 16];
  int err = 0;
  for (off_t at = 0; err == 0;) {
    const ssize_t n = ::pread(fd_, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    at += n;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out, buffer + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        err = w < 0 ? errno : EIO;
        break;
      }
      done += w;
    }
  }
  if (!to_stdout && ::close(out) != 0 && err == 0) err = errno;
  ::close(fd_);
  fd_ = -1;
  if (err != 0) FailWrite(Name(), err);
}

std::FILE* ScratchFileNear(const std::string& near_path) {
  std::string destination = FollowLinks(near_path);
  const bool special = IsSpecialFile(destination);
  const std::string directory = special ? TempDirectory() : DirectoryOf(destination);
  const int fd = UnnamedScratchFile(directory);
  if (fd < 0)
    throw UsageError(fmt::format("{}: cannot create a scratch file: {}", directory,
                                 std::strerror(errno)));
  std::FILE* f = ::fdopen(fd, "w+b");
  if (!f) {
    const int err = errno;
    ::close(fd);
    throw UsageError(fmt::format("cannot create a scratch file: {}", std::strerror(err)));
  }
  return f;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0;
  const bool b_exists = ::stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists || b_exists) return false;
  // Neither exists yet: the places they would be made, dangling symbolic
  // links followed (an output's link to another output's place).
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path pa = fs::weakly_canonical(fs::absolute(FollowLinks(a), error), error);
  if (error) return false;
  const fs::path pb = fs::weakly_canonical(fs::absolute(FollowLinks(b), error), error);
  return !error && pa == pb;
}

bool StandardOutputIs(const std::string& input) {
  struct stat out {}, in {};
  if (::fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode)) return false;
  const bool found = input == "-" ? ::fstat(STDIN_FILENO, &in) == 0 : ::stat(input.c_str(), &in) == 0;
  return found && in.st_dev == out.st_dev && in.st_ino == out.st_ino;
}

void RefuseOverwrite(const std::string& out, const std::string& input,
                     std::string_view flag, std::string_view kind) {
  if (IsStandardOutputPath(out)) {
    if (StandardOutputIs(input))
      throw UsageError(input == "-"
                           ? std::string("standard output is the file standard input reads: "
                                         "refusing to write over it")
                           : fmt::format("standard output is {}, the input {}: refusing to "
                                         "write over it",
                                         input, kind));
    return;
  }
  if (input == "-" ? IsStandardInput(out) : out == input || SameFile(out, input))
    throw UsageError(fmt::format("{} {}: refusing to overwrite the input {}{}", flag, out, kind,
                                 input == "-" ? " (standard input reads it)" : ""));
}

void RefuseStandardOutputAs(const std::string& out, std::string_view flag) {
  if (!IsStandardOutputPath(out) && StandardOutputIs(OutputDestination(out)))
    throw UsageError(fmt::format("{} {}: standard output writes to the same file", flag, out));
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
    WriteStandardOutput(text);
    return;
  }
  WriteText(text, file_->stream(), file_->path() + ": cannot write output");
  file_->Commit();
}

}  // namespace lbsim
