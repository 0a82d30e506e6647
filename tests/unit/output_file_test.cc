// Output files (sim/io/output_file.h): a file appears only complete, on
// Commit; an uncommitted one leaves nothing behind; SameFile tells when two
// spellings name one file, so that outputs never overwrite each other or
// the trace.

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/errors.h"
#include "replay_fixture.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"

namespace lbsim {
namespace {

namespace fs = std::filesystem;

// The names in `dir`, hidden ones included.
std::size_t Entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("output file: appears at its path only when committed, with everything written") {
  testing::TempFile dir("", "unused");
  const std::string path = dir.dir() + "/report.txt";
  {
    OutputFile out(path);
    std::fputs("complete\n", out.stream());
    CHECK_FALSE(fs::exists(path));
    out.Commit();
  }
  CHECK(Contents(path) == "complete\n");
  CHECK(Entries(dir.dir()) == 2);  // the report and the fixture's file
}

TEST_CASE("output file: destroyed uncommitted, it leaves nothing, not even a temporary file") {
  testing::TempFile dir("", "unused");
  const std::string path = dir.dir() + "/report.txt";
  {
    OutputFile out(path);
    std::fputs("partial", out.stream());
    CHECK(Entries(dir.dir()) == 2);  // the fixture's file and the temporary
  }
  CHECK_FALSE(fs::exists(path));
  CHECK(Entries(dir.dir()) == 1);
}

TEST_CASE("output file: an uncommitted rewrite keeps the old file") {
  testing::TempFile old("old contents\n", "report.txt");
  { OutputFile out(old.path()); }
  CHECK(Contents(old.path()) == "old contents\n");
}

TEST_CASE("output file: a new file under /dev (in /dev/shm) is made like any other") {
  // Names under /dev such as /dev/stdout stand for open files, but
  // /dev/shm is a directory like any other.
  std::error_code ec;
  if (!fs::is_directory("/dev/shm", ec) || ::access("/dev/shm", W_OK) != 0) {
    MESSAGE("no writable /dev/shm here: not checked");
    return;
  }
  const std::string path = fmt::format("/dev/shm/lbsim-output-test-{}.txt", ::getpid());
  fs::remove(path, ec);
  {
    OutputFile out(path);
    std::fputs("in shared memory\n", out.stream());
    CHECK_FALSE(fs::exists(path));
    out.Commit();
  }
  CHECK(Contents(path) == "in shared memory\n");
  {
    OutputFile out(path);  // and replaced the same way
    std::fputs("again\n", out.stream());
    out.Commit();
  }
  CHECK(Contents(path) == "again\n");
  fs::remove(path, ec);
}

TEST_CASE("output file: a directory or a missing directory is a usage error") {
  testing::TempFile dir("", "unused");
  CHECK_THROWS_AS(OutputFile(dir.dir()), UsageError);
  CHECK_THROWS_AS(OutputFile(dir.dir() + "/missing/report.txt"), UsageError);
}

// What the race between a check of the path and the rename into place
// could meet: a directory made at the path after the output was opened.
// Nothing is written over it or moved away: the commit fails with one
// line, the directory keeps its place and contents, and no temporary file
// is left.
TEST_CASE("output file: a directory made at the path before the commit stays, and the commit fails") {
  for (const bool existed : {false, true}) {
    CAPTURE(existed);
    testing::TempFile dir("", "unused");
    const std::string path = dir.dir() + "/report.txt";
    if (existed) std::ofstream(path) << "old\n";
    std::optional<OutputFile> out(std::in_place, path);
    std::fputs("new\n", out->stream());
    fs::remove(path);
    fs::create_directory(path);
    std::ofstream(path + "/kept.txt") << "kept\n";
    try {
      out->Commit();
      FAIL("committed over a directory");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()) == path + ": cannot write output: is a directory");
    }
    out.reset();
    CHECK(fs::is_directory(path));
    CHECK(Contents(path + "/kept.txt") == "kept\n");
    CHECK(Entries(dir.dir()) == 2);  // the directory and the fixture's file
  }
}

TEST_CASE("output file: SameFile compares files, however spelled") {
  testing::TempFile file("x", "trace.json");
  const std::string& d = file.dir();
  CHECK(SameFile(file.path(), d + "/./trace.json"));
  CHECK(SameFile(file.path(), d + "/../" + fs::path(d).filename().string() + "/trace.json"));
  CHECK_FALSE(SameFile(file.path(), d + "/other.json"));
  CHECK_FALSE(SameFile(d + "/a.txt", d + "/b.txt"));
}

TEST_CASE("output file: SameFile also compares paths that do not exist yet") {
  testing::TempFile file("x", "trace.json");
  const std::string& d = file.dir();
  fs::create_directory(d + "/sub");
  CHECK(SameFile(d + "/out.txt", d + "/./out.txt"));
  CHECK(SameFile(d + "/out.txt", d + "/sub/../out.txt"));
  CHECK(SameFile("out.txt", "./out.txt"));
  CHECK_FALSE(SameFile(d + "/out.txt", d + "/out.txt.tmp"));
}


// The permission bits of `path`.
mode_t Mode(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Sets the umask while alive.
class Umask {
 public:
  explicit Umask(mode_t mask) : old_(::umask(mask)) {}
  ~Umask() { ::umask(old_); }

 private:
  mode_t old_;
};

TEST_CASE("output file: a new file's mode follows the umask") {
  testing::TempFile dir("", "unused");
  for (mode_t mask : {mode_t{022}, mode_t{027}, mode_t{077}}) {
    Umask umask(mask);
    const std::string path = fmt::format("{}/new-{:o}.txt", dir.dir(), mask);
    OutputFile out(path);
    out.Commit();
    CHECK(Mode(path) == (0666 & ~mask));
  }
}

TEST_CASE("output file: a replaced file keeps its mode") {
  testing::TempFile old("old\n", "report.txt");
  for (mode_t mode : {mode_t{0600}, mode_t{0640}, mode_t{0755}}) {
    REQUIRE(::chmod(old.path().c_str(), mode) == 0);
    OutputFile out(old.path());
    std::fputs("new\n", out.stream());
    out.Commit();
    CHECK(Contents(old.path()) == "new\n");
    CHECK(Mode(old.path()) == mode);
  }
}

TEST_CASE("output file: a replaced file leaves the directory, while another link to it stays") {
  testing::TempFile old("old\n", "report.txt");
  const std::string link = old.dir() + "/kept.txt";
  REQUIRE(::link(old.path().c_str(), link.c_str()) == 0);
  for (const char* text : {"new\n", "newer\n"}) {
    OutputFile out(old.path());
    std::fputs(text, out.stream());
    out.Commit();
    CHECK(Contents(old.path()) == text);
    CHECK(Entries(old.dir()) == 2);  // the output and the link: no temporary, no old file
  }
  CHECK(Contents(link) == "old\n");
  ::unlink(link.c_str());
}

TEST_CASE("output file: names up to the file system's 255 bytes, whatever the temporary name") {
  testing::TempFile dir("", "unused");
  for (std::size_t size : {200u, 243u, 244u, 250u, 255u}) {
    const std::string path = dir.dir() + "/" + std::string(size, 'n');
    OutputFile out(path);
    std::fputs("long\n", out.stream());
    out.Commit();
    CHECK(Contents(path) == "long\n");
    fs::remove(path);
  }
  // A name cut for the temporary file is cut between UTF-8 characters.
  const std::string path = dir.dir() + "/" + std::string(241, 'n') + "\xc3\xa9\xc3\xa9";
  OutputFile out(path);
  out.Commit();
  CHECK(fs::exists(path));
  CHECK(Entries(dir.dir()) == 2);
}

TEST_CASE("output file: an empty name is a usage error, not standard output") {
  CHECK_THROWS_WITH_AS(OutputFile(""), "cannot write output: the file name is empty", UsageError);
}

TEST_CASE("write stream: keeps the reason of the first failed write") {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    MESSAGE("no /dev/full here: not checked");
    return;
  }
  {
    WriteStream out(fd);
    // More than stdio buffers, so that the failure shows while writing,
    // and after it another write that would leave errno alone.
    const std::string block(1 << 17, 'x');
    std::fwrite(block.data(), 1, block.size(), out.get());
    std::fwrite("y", 1, 1, out.get());
    CHECK(out.Flush() == ENOSPC);
  }
  ::close(fd);
}

TEST_CASE("write stream: a full standard output is reported as such") {
  const int saved = ::dup(STDOUT_FILENO);
  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (full < 0) {
    ::close(saved);
    MESSAGE("no /dev/full here: not checked");
    return;
  }
  ::dup2(full, STDOUT_FILENO);
  std::string error;
  try {
    WriteStandardOutput("text", "the report");
  } catch (const UsageError& e) {
    error = e.what();
  }
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ::close(full);
  CHECK(error == "standard output: cannot write the report: No space left on device");
}

}  // namespace
}  // namespace lbsim
