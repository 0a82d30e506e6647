#include "base/background_writer.h"

#include <system_error>
#include <utility>

#include "base/signal_cleanup.h"

namespace lbsim {

BackgroundWriter::BackgroundWriter() {
  try {
    TerminationSignalsBlocked blocked;  // the new thread inherits the block
    thread_ = std::thread([this] { Run(); });
  } catch (const std::system_error&) {
    // No thread to be had (a process or memory limit): Submit writes.
  }
}

BackgroundWriter::~BackgroundWriter() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BackgroundWriter::Submit(std::FILE* out, std::string& block) {
  if (!thread_.joinable()) {
    std::fwrite(block.data(), 1, block.size(), out);
    block.clear();
    return;
  }
  std::string storage;
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queued_.size() < kMaxQueued; });
    queued_.push_back(Job{out, std::move(block)});
    if (!spare_.empty()) {
      storage = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  changed_.notify_all();
  block = std::move(storage);
  block.clear();
}

void BackgroundWriter::Drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queued_.empty() && !writing_; });
}

void BackgroundWriter::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;  // stopping, with nothing left to write
    Job job = std::move(queued_.front());
    queued_.pop_front();
    writing_ = true;
    lock.unlock();
    changed_.notify_all();  // a Submit may wait for room
    std::fwrite(job.text.data(), 1, job.text.size(), job.out);
    job.text.clear();
    lock.lock();
    writing_ = false;
    if (spare_.size() < kMaxQueued) spare_.push_back(std::move(job.text));
    changed_.notify_all();  // a Drain may wait for this
  }
}

}  // namespace lbsim
