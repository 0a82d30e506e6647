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

#include <unistd.h>

#include <fmt/format.h>

#include "base/errors.h"
#include "replay_fixture.h"
#include "sim/io/output_file.h"

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

}  // namespace
}  // namespace lbsim
