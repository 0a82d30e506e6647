#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "strategies/exec/child_process.h"

namespace lbsim {
namespace {

using namespace std::chrono_literals;
using Clock = ChildProcess::Clock;
using Status = ChildProcess::Status;

// Whether `pid` is a live process (not gone, not a zombie).
bool Running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  std::size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

// Whether `pid` is no longer a child of this process (it was reaped).
bool Reaped(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) < 0 && errno == ECHILD;
}

}  // namespace

TEST_CASE("ChildProcess exchanges lines with its program") {
  ChildProcess child("cat", 2s);
  CHECK(child.Write("one\ntwo\n", Clock::now() + 2s) == Status::kOk);
  std::string line;
  CHECK(child.ReadLine(line, 100, Clock::now() + 2s) == Status::kOk);
  CHECK(line == "one");
  CHECK(child.ReadLine(line, 100, Clock::now() + 2s) == Status::kOk);
  CHECK(line == "two");
  CHECK_FALSE(child.HasUnreadOutput());
  pid_t pid = child.pid();
  CHECK(child.Stop(Clock::now() + 2s) == "exited with status 0");  // cat ends at EOF
  CHECK(Reaped(pid));
}

TEST_CASE("ChildProcess reports an exit, a timeout and an over-long line") {
  std::string line;
  SUBCASE("exit") {
    ChildProcess child("echo partial-line-without-newline | tr -d '\\n'; exit 3", 1s);
    CHECK(child.ReadLine(line, 100, Clock::now() + 2s) == Status::kClosed);
    CHECK(child.Stop(Clock::now() + 2s) == "exited with status 3");
  }
  SUBCASE("timeout, then killed and reaped") {
    ChildProcess child("sleep 30", 1s);
    auto start = Clock::now();
    CHECK(child.ReadLine(line, 100, start + 100ms) == Status::kTimeout);
    CHECK(Clock::now() - start >= 100ms);
    pid_t pid = child.pid();
    CHECK(child.Stop(Clock::now()) == "was killed by signal 9 (Killed)");
    CHECK(Reaped(pid));
    CHECK_FALSE(Running(pid));
  }
  SUBCASE("too long") {
    ChildProcess child("head -c 5000 /dev/zero; sleep 30", 1s);
    CHECK(child.ReadLine(line, 1000, Clock::now() + 2s) == Status::kTooLong);
  }
  SUBCASE("command not found") {
    ChildProcess child("exec 2>/dev/null; no-such-program-for-lbsim-tests", 1s);
    CHECK(child.ReadLine(line, 100, Clock::now() + 2s) == Status::kClosed);
    CHECK(child.Stop(Clock::now() + 2s) == "exited with status 127");
  }
}

TEST_CASE("writing to a program that has exited is kClosed, not SIGPIPE") {
  ChildProcess child("exit 0", 1s);
  std::string line;
  CHECK(child.ReadLine(line, 100, Clock::now() + 2s) == Status::kClosed);
  ::usleep(50000);  // let it exit: its input has no reader any more
  std::string big(1 << 20, 'x');
  CHECK(child.Write(big, Clock::now() + 2s) == Status::kClosed);
  sigset_t pending;
  sigpending(&pending);
  CHECK_FALSE(sigismember(&pending, SIGPIPE));
}

TEST_CASE("a program that does not read its input makes Write time out") {
  ChildProcess child("sleep 30", 1s);
  std::string big(1 << 20, 'x');  // more than a pipe holds
  CHECK(child.Write(big, Clock::now() + 100ms) == Status::kTimeout);
}

TEST_CASE("Stop kills the whole process group, and the destructor reaps") {
  pid_t pid = 0, grandchild = 0;
  {
    ChildProcess child("sleep 30 & echo $!; wait", 50ms);
    std::string line;
    REQUIRE(child.ReadLine(line, 100, Clock::now() + 2s) == Status::kOk);
    grandchild = std::stoi(line);
    pid = child.pid();
    CHECK(Running(grandchild));
  }  // the shell ignores EOF on its input: killed after the 50 ms grace
  CHECK(Reaped(pid));
  for (int i = 0; i < 100 && Running(grandchild); ++i) ::usleep(10000);
  CHECK_FALSE(Running(grandchild));
}

}  // namespace lbsim
