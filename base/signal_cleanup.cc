#include "base/signal_cleanup.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace lbsim {
namespace {

// A slot's word: the low two bits say what the slot holds, the rest count
// its changes, so that the handler can tell a path it copied from one that
// changed while it copied.
enum SlotState : std::uint32_t { kFree = 0, kWriting = 1, kArmed = 2 };
constexpr std::uint32_t kStateMask = 3;

std::uint32_t Next(std::uint32_t word, SlotState state) { return ((word >> 2) + 1) << 2 | state; }

struct FileSlot {
  std::atomic<std::uint32_t> word{0};
  char path[PATH_MAX];
};

static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);

FileSlot g_files[kMaxCleanupFiles];
std::atomic<pid_t> g_groups[kMaxCleanupGroups];

void WriteAll(const char* text) {
  std::size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

const char* SignalName(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

extern "C" void OnTerminationSignal(int signal) {
  for (FileSlot& slot : g_files) {
    const std::uint32_t before = slot.word.load(std::memory_order_acquire);
    if ((before & kStateMask) != kArmed) continue;
    char path[PATH_MAX];
    std::size_t i = 0;
    for (; i + 1 < sizeof path; ++i) {
      path[i] = static_cast<const volatile char&>(slot.path[i]);
      if (path[i] == '\0') break;
    }
    path[i] = '\0';
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.word.load(std::memory_order_relaxed) == before) ::unlink(path);
  }
  for (std::atomic<pid_t>& group : g_groups) {
    const pid_t g = group.load(std::memory_order_acquire);
    if (g > 0) ::kill(-g, SIGKILL);
  }
  if (signal != SIGPIPE) {
    WriteAll("lbsim: interrupted by ");
    WriteAll(SignalName(signal));
    WriteAll("; unfinished outputs removed\n");
  }
  ::_exit(128 + signal);
}

sigset_t CleanupSignalSet() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kCleanupSignals) sigaddset(&set, s);
  return set;
}

}  // namespace

int RememberTempFile(const char* path) noexcept {
  const std::size_t size = std::strlen(path) + 1;
  if (size > PATH_MAX) return -1;
  for (int i = 0; i < kMaxCleanupFiles; ++i) {
    FileSlot& slot = g_files[i];
    std::uint32_t word = slot.word.load(std::memory_order_relaxed);
    if ((word & kStateMask) != kFree) continue;
    const std::uint32_t writing = Next(word, kWriting);
    if (!slot.word.compare_exchange_strong(word, writing, std::memory_order_acquire)) continue;
    std::memcpy(slot.path, path, size);
    slot.word.store(Next(writing, kArmed), std::memory_order_release);
    return i;
  }
  return -1;
}

void ForgetTempFile(int slot) noexcept {
  if (slot < 0 || slot >= kMaxCleanupFiles) return;
  std::atomic<std::uint32_t>& word = g_files[slot].word;
  word.store(Next(word.load(std::memory_order_relaxed), kFree), std::memory_order_release);
}

int RememberChildGroup(pid_t group) noexcept {
  for (int i = 0; i < kMaxCleanupGroups; ++i) {
    pid_t free = 0;
    if (g_groups[i].compare_exchange_strong(free, group, std::memory_order_acq_rel)) return i;
  }
  return -1;
}

void ForgetChildGroup(int slot) noexcept {
  if (slot >= 0 && slot < kMaxCleanupGroups) g_groups[slot].store(0, std::memory_order_release);
}

void InstallSignalCleanup() {
  struct sigaction action {};
  action.sa_handler = OnTerminationSignal;
  action.sa_mask = CleanupSignalSet();  // no second signal interrupts the cleanup
  for (int signal : kCleanupSignals) {
    struct sigaction old {};
    // A signal ignored when lbsim started (nohup, a background job) stays
    // ignored; a closed pipe is always handled.
    if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN &&
        signal != SIGPIPE)
      continue;
    ::sigaction(signal, &action, nullptr);
  }
}

TerminationSignalsBlocked::TerminationSignalsBlocked() noexcept {
  const sigset_t set = CleanupSignalSet();
  ::pthread_sigmask(SIG_BLOCK, &set, &old_);
}

TerminationSignalsBlocked::~TerminationSignalsBlocked() {
  ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

}  // namespace lbsim
