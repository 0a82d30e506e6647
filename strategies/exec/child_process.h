#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace lbsim {

// A program run by /bin/sh -c COMMAND in its own process group, with its
// standard input and output on pipes held here (its standard error is
// lbsim's). Every wait has a deadline. Whatever happens, the object reaps
// the child and kills what is left of its process group, so no process
// outlives it: a termination signal kills the group too (the group is in
// the signal cleanup registry, base/signal_cleanup.h), and the child gets
// SIGKILL should lbsim die without cleaning up. Writing to a child that is
// gone never raises SIGPIPE.
class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  enum class Status {
    kOk,
    kTimeout,  // the deadline passed
    kClosed,   // the child closed the pipe (or exited)
    kTooLong,  // ReadLine: no newline within the byte limit
  };

  // Starts `command`. `grace`: how long the destructor lets the child exit
  // by itself once its input is closed. Throws UsageError when no pipe or
  // process can be created. A command that cannot run shows as a child
  // that exits with status 127 (the shell's "not found").
  ChildProcess(const std::string& command, std::chrono::milliseconds grace);
  // Stop(now + grace) unless stopped already.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `data` to the child's standard input.
  Status Write(std::string_view data, Clock::time_point deadline);

  // Reads the next line of the child's standard output, without its '\n'.
  // kClosed at the end of its output (an unterminated last line is
  // dropped); kTooLong when `max_bytes` arrive without a newline.
  Status ReadLine(std::string& line, std::size_t max_bytes, Clock::time_point deadline);

  // Whether output beyond the lines read so far has already arrived
  // (takes in what is waiting in the pipe, without waiting for more).
  bool HasUnreadOutput();

  // Closes the child's input, waits until `deadline` for it to exit, then
  // kills its process group (SIGKILL) and reaps it. Returns how it ended:
  // "exited with status 3", "was killed by signal 9 (Killed)". Idempotent.
  std::string Stop(Clock::time_point deadline);

  pid_t pid() const { return pid_; }

 private:
  // One read of what the pipe holds into buffer_; notes the end of output.
  void ReadAvailable();

  pid_t pid_ = -1;
  int to_child_ = -1;    // the child's standard input
  int from_child_ = -1;  // the child's standard output
  std::string buffer_;   // output read but not yet returned
  bool output_ended_ = false;
  std::chrono::milliseconds grace_;
  std::string ended_;  // Stop's answer, once stopped
  int cleanup_slot_ = -1;  // of the process group in the signal cleanup registry
};

}  // namespace lbsim
