#include "strategies/exec/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/signal_cleanup.h"

namespace lbsim {
namespace {

// Blocks SIGPIPE in this thread while alive; a SIGPIPE raised meanwhile
// (by writing to a pipe nobody reads) is discarded instead of killing lbsim.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      timespec zero{0, 0};
      sigtimedwait(&pipe_, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_, old_;
  bool was_pending_ = false;
};

// Milliseconds until `deadline`, rounded up, at least 0.
int MillisUntil(ChildProcess::Clock::time_point deadline) {
  auto left = deadline - ChildProcess::Clock::now();
  if (left <= left.zero()) return 0;
  return static_cast<int>(
      std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

// Waits for `events` on `fd` until `deadline`; false on timeout.
bool WaitFor(int fd, short events, ChildProcess::Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, MillisUntil(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return true;  // let the read or write report it
  }
}

// A pipe end that is not one of the standard descriptors, close-on-exec.
int AboveStandard(int fd) {
  if (fd > STDERR_FILENO) return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  ::close(fd);
  return moved;
}

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string Describe(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                       ::strsignal(WTERMSIG(status)));
  return fmt::format("ended with wait status {}", status);
}

}  // namespace

ChildProcess::ChildProcess(const std::string& command, std::chrono::milliseconds grace)
    : grace_(grace) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0)
    throw UsageError(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    int err = errno;
    ::close(in[0]);
    ::close(in[1]);
    throw UsageError(fmt::format("cannot create a pipe: {}", std::strerror(err)));
  }
  bool moved = true;
  for (int* fd : {&in[0], &in[1], &out[0], &out[1]}) {
    *fd = AboveStandard(*fd);
    moved = moved && *fd >= 0;
  }
  if (!moved) {
    int err = errno;
    for (int fd : {in[0], in[1], out[0], out[1]})
      if (fd >= 0) ::close(fd);
    throw UsageError(fmt::format("cannot create a pipe: {}", std::strerror(err)));
  }

  const pid_t parent = ::getpid();
  // Started and remembered for the signal cleanup as one step.
  TerminationSignalsBlocked blocked;
  pid_ = ::fork();
  if (pid_ == 0) {
    // In the child: only async-signal-safe calls until exec. lbsim's
    // handlers are not the program's: every signal gets its default back.
    ::setpgid(0, 0);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int signal : kCleanupSignals) ::sigaction(signal, &dfl, nullptr);
    // Should lbsim die without cleaning up (SIGKILL), the child dies too.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::closefrom(STDERR_FILENO + 1);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int err = errno;
  ::close(in[0]);
  ::close(out[1]);
  if (pid_ < 0) {
    ::close(in[1]);
    ::close(out[0]);
    throw UsageError(fmt::format("cannot start a process: {}", std::strerror(err)));
  }
  ::setpgid(pid_, pid_);  // also here, so that it holds before we kill the group
  cleanup_slot_ = RememberChildGroup(pid_);
  to_child_ = in[1];
  from_child_ = out[0];
  ::fcntl(to_child_, F_SETFL, ::fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  ::fcntl(from_child_, F_SETFL, ::fcntl(from_child_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess() { Stop(Clock::now() + grace_); }

ChildProcess::Status ChildProcess::Write(std::string_view data, Clock::time_point deadline) {
  if (to_child_ < 0) return Status::kClosed;
  SigpipeBlocked blocked;
  while (!data.empty()) {
    ssize_t n = ::write(to_child_, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      if (!WaitFor(to_child_, POLLOUT, deadline)) return Status::kTimeout;
    } else {
      return Status::kClosed;  // EPIPE: the child does not read any more
    }
  }
  return Status::kOk;
}

ChildProcess::Status ChildProcess::ReadLine(std::string& line, std::size_t max_bytes,
                                            Clock::time_point deadline) {
  if (from_child_ < 0) return Status::kClosed;
  std::size_t scanned = 0;
  for (;;) {
    std::size_t nl = buffer_.find('\n', scanned);
    if (nl != std::string::npos) {
      line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      return Status::kOk;
    }
    scanned = buffer_.size();
    if (buffer_.size() > max_bytes) return Status::kTooLong;
    if (output_ended_) return Status::kClosed;
    if (!WaitFor(from_child_, POLLIN, deadline)) return Status::kTimeout;
    ReadAvailable();
  }
}

void ChildProcess::ReadAvailable() {
  char chunk[1 << 16];
  ssize_t n = ::read(from_child_, chunk, sizeof chunk);
  if (n > 0) buffer_.append(chunk, static_cast<std::size_t>(n));
  else if (n == 0 || (errno != EINTR && errno != EAGAIN)) output_ended_ = true;
}

bool ChildProcess::HasUnreadOutput() {
  if (buffer_.empty() && from_child_ >= 0 && !output_ended_) ReadAvailable();
  return !buffer_.empty();
}

std::string ChildProcess::Stop(Clock::time_point deadline) {
  if (pid_ < 0) return ended_;
  CloseFd(to_child_);  // end of input: a well-behaved child exits now
  siginfo_t info{};
  for (auto pause = std::chrono::microseconds(100);;) {
    info.si_pid = 0;
    // WNOWAIT: leave it a zombie, so its process group id cannot be reused
    // before the group is killed below.
    int rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
    if ((rc == 0 && info.si_pid != 0) || (rc < 0 && errno != EINTR)) break;
    if (Clock::now() >= deadline) break;
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(10)) pause *= 2;
  }
  ::kill(-pid_, SIGKILL);  // the child if still running, and anything it left
  ::kill(pid_, SIGKILL);   // in case it never got its own process group
  // Forgotten before it is reaped: until then its group id cannot be reused.
  ForgetChildGroup(cleanup_slot_);
  cleanup_slot_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  CloseFd(from_child_);
  ended_ = Describe(status);
  pid_ = -1;
  return ended_;
}

}  // namespace lbsim
