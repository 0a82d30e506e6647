#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lbsim {

// Writes blocks of text to stdio streams from a thread of its own, in the
// order they were submitted, so that a thread producing a long log (a
// decision per arrival) does not also wait while the kernel copies it.
// Memory stays bounded: Submit waits while kMaxQueued blocks are waiting.
// Errors are the streams' own: a write that fails sets the stream's error
// indicator, which its owner checks when it flushes the stream after
// Drain. Termination signals stay blocked on the writing thread (see
// TerminationSignalsBlocked). When no thread can be had, Submit writes on
// the calling thread.
class BackgroundWriter {
 public:
  // Blocks waiting to be written, at most.
  static constexpr std::size_t kMaxQueued = 8;
  // The size at which producers should hand a block on.
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 18;

  BackgroundWriter();
  // Writes what is still waiting, then stops the thread.
  ~BackgroundWriter();
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  // Takes `block`'s text, to be written to `out`, and leaves `block` empty
  // (reusing the storage of a block already written). `out` must stay open
  // until Drain has returned.
  void Submit(std::FILE* out, std::string& block);
  // Returns once every block submitted so far has been written.
  void Drain();

 private:
  struct Job {
    std::FILE* out;
    std::string text;
  };
  void Run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queued_;
  std::vector<std::string> spare_;  // written blocks' storage, for Submit to hand back
  bool writing_ = false;            // the thread holds a job outside the lock
  bool stopping_ = false;
  std::thread thread_;  // not joinable: Submit writes on its caller's thread
};

}  // namespace lbsim
