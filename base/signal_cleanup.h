#pragma once

// One cleanup path for interrupted runs. A run remembers here what a
// termination signal must undo: the temporary files it is writing (outputs
// not yet renamed into place) and the process groups of the programs it
// started (exec strategies). The handler InstallSignalCleanup() sets up
// removes those files, kills those groups and exits with 128 + the signal
// number.
//
// This registry is lbsim's one piece of global mutable state, and only
// because a signal handler can reach nothing else. It is a fixed set of
// slots: nothing is allocated, and the handler only reads lock-free atomics
// and calls async-signal-safe functions (unlink, kill, write, _exit).
// Temporary files are remembered and forgotten on the thread that handles
// the signals (the main thread: every thread lbsim starts blocks them, see
// TerminationSignalsBlocked); process groups may come from any thread.

#include <sys/types.h>

#include <csignal>

namespace lbsim {

// Temporary files remembered at once; more is an error for the caller.
inline constexpr int kMaxCleanupFiles = 32;
// Process groups remembered at once.
inline constexpr int kMaxCleanupGroups = 1024;

// Remembers `path`, a temporary file about to be created (remember first,
// then create: a signal in between finds nothing to remove), for removal
// on a termination signal. Returns the slot for ForgetTempFile, or -1 when
// every slot is taken or the path is longer than PATH_MAX.
int RememberTempFile(const char* path) noexcept;
// Forgets the file of `slot` (it was renamed into place or removed); -1 is
// ignored.
void ForgetTempFile(int slot) noexcept;

// Remembers the process group `group` for SIGKILL on a termination signal.
// Returns the slot for ForgetChildGroup, or -1 when every slot is taken.
int RememberChildGroup(pid_t group) noexcept;
// Forgets the group of `slot` (it was killed and reaped); -1 is ignored.
void ForgetChildGroup(int slot) noexcept;

// Installs the cleanup handler for SIGINT, SIGTERM and SIGHUP (each unless
// it was ignored when lbsim started, as under nohup or for a background
// job) and for SIGPIPE. The handler removes every remembered temporary
// file, kills every remembered process group, writes one line for SIGINT,
// SIGTERM and SIGHUP ("lbsim: interrupted by SIGINT; unfinished outputs
// removed"; nothing for SIGPIPE: a reader that went away, as for
// `lbsim ... | head -1`, is no error to report) and exits with status
// 128 + the signal number.
void InstallSignalCleanup();

// While alive, blocks SIGINT, SIGTERM, SIGHUP and SIGPIPE in the calling
// thread; threads started meanwhile inherit the block, so the handler runs
// on the thread that remembers temporary files. Restores the mask after.
class TerminationSignalsBlocked {
 public:
  TerminationSignalsBlocked() noexcept;
  ~TerminationSignalsBlocked();
  TerminationSignalsBlocked(const TerminationSignalsBlocked&) = delete;
  TerminationSignalsBlocked& operator=(const TerminationSignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

// The signals InstallSignalCleanup handles, for a child process to reset
// to their defaults before it runs another program.
inline constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

}  // namespace lbsim
