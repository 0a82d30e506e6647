// The signal cleanup registry (base/signal_cleanup.h): on a termination
// signal the remembered temporary files are removed, the remembered process
// groups killed, and the process exits with 128 + the signal number. Each
// case runs in a forked child, which the signal ends.

#include <doctest/doctest.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "base/signal_cleanup.h"
#include "replay_fixture.h"

namespace lbsim {
namespace {

namespace fs = std::filesystem;

// Runs `body` in a child process with the cleanup handler installed and
// stderr silenced, then sends it `signal`; returns its wait status.
template <typename Body>
int RunAndSignal(Body body, int signal) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDERR_FILENO);
    InstallSignalCleanup();
    body();
    ::kill(::getpid(), signal);
    ::_exit(99);  // not reached: the handler exits
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return status;
}

bool Dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  return text.empty() || text.substr(text.rfind(')') + 2, 1) == "Z";
}

TEST_CASE("signal cleanup: remembered temporary files are removed, forgotten ones kept") {
  testing::TempFile dir("", "unused");
  const std::string removed = dir.dir() + "/.out.tmp.1";
  const std::string kept = dir.dir() + "/.done.tmp.2";
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    CAPTURE(signal);
    const int status = RunAndSignal(
        [&] {
          std::ofstream(removed) << "partial";
          std::ofstream(kept) << "complete";
          RememberTempFile(removed.c_str());
          ForgetTempFile(RememberTempFile(kept.c_str()));
        },
        signal);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + signal);
    CHECK_FALSE(fs::exists(removed));
    CHECK(fs::exists(kept));
    fs::remove(kept);
  }
}

TEST_CASE("signal cleanup: a remembered process group is killed") {
  testing::TempFile dir("", "unused");
  const std::string pid_file = dir.dir() + "/pid";
  const int status = RunAndSignal(
      [&] {
        const pid_t grandchild = ::fork();
        if (grandchild == 0) {
          ::setpgid(0, 0);
          ::execl("/bin/sleep", "sleep", "1000", static_cast<char*>(nullptr));
          ::_exit(127);
        }
        ::setpgid(grandchild, grandchild);
        std::ofstream(pid_file) << grandchild;
        RememberChildGroup(grandchild);
      },
      SIGTERM);
  CHECK(WEXITSTATUS(status) == 128 + SIGTERM);
  pid_t grandchild = 0;
  std::ifstream(pid_file) >> grandchild;
  REQUIRE(grandchild > 0);
  bool dead = false;
  for (int i = 0; i < 500 && !dead; ++i) {
    dead = Dead(grandchild);
    if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(dead);
  if (!dead) ::kill(grandchild, SIGKILL);
}

TEST_CASE("signal cleanup: slots are reused and their number is bounded") {
  int slots[kMaxCleanupFiles];
  for (int& slot : slots) {
    slot = RememberTempFile("/nonexistent/lbsim-test");
    REQUIRE(slot >= 0);
  }
  CHECK(RememberTempFile("/nonexistent/lbsim-test") == -1);
  for (int slot : slots) ForgetTempFile(slot);
  const int again = RememberTempFile("/nonexistent/lbsim-test");
  CHECK(again >= 0);
  ForgetTempFile(again);
  CHECK(RememberTempFile(std::string(PATH_MAX, 'x').c_str()) == -1);
}

}  // namespace
}  // namespace lbsim
