#include "traces/read_ahead.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>


#include "base/errors.h"
#include "base/signal_cleanup.h"
#include "base/usable_cpus.h"
#include "base/input/input_file.h"
#include "traces/deferred_hints.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

// A run of events handed from the reading thread to the visiting one.
// What crosses between the cores is what costs, so most events travel as
// one 64-byte PackedEvent, an arrival's prefix blocks beside it in
// `blocks_`; the rest (an `up` with weight or speed, an arrival with a
// queue hint or more than 2^32 - 1 output tokens) travel whole, as
// TraceEvents. Ids are copied into `text_`; the whole
// events' views into it are made by Seal, after the last append, so that
// visitors only read a batch. Batches are written by one thread while
// another reads the batch beside them: each starts its own pair of cache
// lines (adjacent-line prefetch moves lines in pairs), or every event
// appended would take the reading thread's line away (this alone cost the
// reader thread ~70% more time on the bench trace).
class alignas(128) EventBatch {
 public:
  std::optional<TraceHeader> header;  // comes before the events
  // Reading progress when the batch was published (see TraceProgress), so
  // that progress is shown as the events are visited, not as they are read.
  std::uint64_t progress_done = 0;
  std::uint64_t progress_total = 0;

  std::size_t size() const { return packed_.size(); }
  // The bytes its events hold beyond their fixed size: ids, hints, blocks.
  std::size_t bytes() const { return bytes_; }
  // The position of its first event; the batch is not empty.
  std::uint64_t FirstPosition() const { return packed_.front().position; }

  // Empties the batch. Room a large event took is given back, so that a
  // few arrivals with many prefix blocks or a long hint do not leave every
  // slot of the ring holding their size.
  void Clear() {
    header.reset();
    progress_done = progress_total = 0;
    packed_.clear();
    for (std::size_t k = 0; k < full_count_; ++k) {
      Hint& hint = full_[k].event.hint;
      if (hint.prefix_blocks.capacity() > kKeptItems)
        std::vector<std::uint64_t>().swap(hint.prefix_blocks);
      if (hint.queues.capacity() > kKeptItems) std::vector<Hint::Entry>().swap(hint.queues);
      if (hint.raw_json.capacity() > kKeptBytes) std::string().swap(hint.raw_json);
    }
    full_count_ = 0;
    if (text_.capacity() > 2 * kReadAheadBatchBytes) std::string().swap(text_);
    text_.clear();
    if (blocks_.capacity() > 2 * kReadAheadBatchBytes / sizeof(std::uint64_t))
      std::vector<std::uint64_t>().swap(blocks_);
    blocks_.clear();
    bytes_ = 0;
  }

  void Add(const TraceEvent& e) {
    // Written, never read back: the batch's lines were last read by the
    // visiting thread, and reading a field back from one (flags |= ...)
    // waited for the line to come back from that core on every event. (A
    // PackedEvent built aside and copied in was worse: its copy reads
    // 16-byte halves of fields just stored one by one.)
    PackedEvent& p = packed_.emplace_back();
    p.t = e.t.value;
    p.t_integer = e.t.integer;
    p.position = e.position;
    p.type = e.type;
    std::uint8_t flags = e.t.integral ? kIntegral : 0;
    if (!Packs(e)) {
      if (full_.size() == full_count_) full_.emplace_back();
      FullEvent& f = full_[full_count_];
      f.event = e;
      bytes_ += e.hint.prefix_blocks.size() * sizeof(std::uint64_t) +
                e.hint.queues.size() * sizeof(Hint::Entry) + e.hint.raw_json.size() +
                e.instance.size() + sizeof(FullEvent);
      f.instance = Keep(e.instance);
      if (e.request) f.request = Keep(*e.request);
      if (e.proxy_choice.state == FieldUpdate<std::string_view>::State::kValue)
        f.proxy_choice = Keep(e.proxy_choice.value);
      if (!e.deferred_line.empty()) f.line = Keep(e.deferred_line);
      p.full = static_cast<std::uint32_t>(full_count_++);
    } else if (e.type == EventType::kArrival) {
      if (e.request) {
        flags |= kHasRequest;
        p.text = Keep(*e.request);
      }
      if (e.duration) {
        flags |= kHasDuration;
        p.number = *e.duration;
      }
      if (e.input_tokens) {
        flags |= kHasInputTokens;
        p.count = static_cast<std::int64_t>(*e.input_tokens);
      }
      if (e.output_tokens) {
        flags |= kHasOutputTokens;
        p.index = static_cast<std::uint32_t>(*e.output_tokens);
      }
      if (!e.hint.prefix_blocks.empty()) {
        // Their count, then the ids (Packs saw that the offset fits).
        flags |= kHasBlocks;
        p.blocks = static_cast<std::uint32_t>(blocks_.size());
        blocks_.push_back(e.hint.prefix_blocks.size());
        blocks_.insert(blocks_.end(), e.hint.prefix_blocks.begin(), e.hint.prefix_blocks.end());
        bytes_ += (e.hint.prefix_blocks.size() + 1) * sizeof(std::uint64_t);
      }
    } else {
      p.text = Keep(e.instance);
      if (e.index) {
        flags |= kHasIndex;
        p.index = *e.index;
      }
      p.inflight_state = e.inflight.state;
      p.count = e.inflight.value;
      p.qps_state = e.qps_1m.state;
      p.number = e.qps_1m.value;
    }
    p.flags = flags;
  }

  // Where Get unpacks events that travelled packed.
  struct Scratch {
    TraceEvent event;
    // The last event unpacked was an arrival: the fields no packed arrival
    // sets are empty.
    bool arrival = false;
  };

  // Points the ids of the events that travel whole into text_, which no
  // Add changes after this. Called once, before the batch is published.
  void Seal() {
    for (std::size_t k = 0; k < full_count_; ++k) {
      FullEvent& f = full_[k];
      f.event.instance = View(f.instance);
      if (f.event.request) f.event.request = View(f.request);
      if (f.event.proxy_choice.state == FieldUpdate<std::string_view>::State::kValue)
        f.event.proxy_choice.value = View(f.proxy_choice);
      if (!f.event.deferred_line.empty()) f.event.deferred_line = View(f.line);
    }
  }

  // Event `i` as ReadTrace showed it, in `scratch` unless it travelled
  // whole. Valid until the next call. Reads the batch only: several
  // visitors may Get from one batch at once.
  const TraceEvent& Get(std::size_t i, Scratch& scratch) const {
    const PackedEvent& p = packed_[i];
    if (p.full != kPacked) return full_[p.full].event;
    TraceEvent& e = scratch.event;
    e.type = p.type;
    e.t = TraceTime{p.t, (p.flags & kIntegral) != 0, p.t_integer};
    e.position = p.position;
    if (p.type == EventType::kArrival) {
      if (!scratch.arrival) {
        e.ClearFields();
        scratch.arrival = true;
      }
      e.request.reset();
      if (p.flags & kHasRequest) e.request = View(p.text);
      e.duration.reset();
      if (p.flags & kHasDuration) e.duration = p.number;
      e.input_tokens.reset();
      if (p.flags & kHasInputTokens) e.input_tokens = static_cast<std::uint64_t>(p.count);
      e.output_tokens.reset();
      if (p.flags & kHasOutputTokens) e.output_tokens = p.index;
      std::vector<std::uint64_t>& blocks = e.hint.prefix_blocks;
      if (p.flags & kHasBlocks) {
        const std::uint64_t* const count = blocks_.data() + p.blocks;
        blocks.assign(count + 1, count + 1 + *count);
      } else {
        blocks.clear();
      }
      return e;
    }
    scratch.arrival = false;
    e.ClearFields();
    e.instance = View(p.text);
    if (p.flags & kHasIndex) e.index = p.index;
    e.inflight.state = p.inflight_state;
    e.inflight.value = p.count;
    e.qps_1m.state = p.qps_state;
    e.qps_1m.value = p.number;
    return e;
  }

 private:
  struct IdSpan {
    std::uint32_t at = 0;
    std::uint32_t size = 0;
  };
  static constexpr std::uint32_t kPacked = ~std::uint32_t{0};
  enum Flags : std::uint8_t {
    kIntegral = 1,
    kHasIndex = 2,
    kHasRequest = 4,
    kHasDuration = 8,
    kHasInputTokens = 16,
    kHasOutputTokens = 32,
    kHasBlocks = 64,
  };
  // TraceEvent's t.integer and position sit side by side, written apart;
  // kept apart here too, or their copy becomes one 16-byte load that waits
  // for both stores (a store-forwarding stall perf showed on every event).
  struct PackedEvent {
    double t = 0.0;
    std::uint64_t t_integer = 0;
    double number = 0.0;     // arrival: duration; up, load: the qps_1m value
    std::uint64_t position = 0;
    std::int64_t count = 0;  // up, load: the inflight value; arrival: input_tokens
    IdSpan text;             // arrival: the request id; else the instance id
    std::uint32_t index = 0;  // up, load: the Instance index; arrival: output_tokens
    std::uint32_t full = kPacked;  // else the index of the event in full_
    std::uint32_t blocks = 0;  // arrival: where its prefix blocks' count is in blocks_
    EventType type = EventType::kArrival;
    std::uint8_t flags = 0;
    FieldUpdate<std::int64_t>::State inflight_state{};
    FieldUpdate<double>::State qps_state{};
  };
  static_assert(sizeof(PackedEvent) <= 64);
  struct FullEvent {
    TraceEvent event;
    IdSpan instance;
    IdSpan request;
    IdSpan proxy_choice;
    IdSpan line;  // a deferred hint's
  };

  static_assert(sizeof(TraceEvent) == kTraceEventSize,
                "a TraceEvent field was added or changed: send it whole (Packs) or pack it, "
                "then update kTraceEventSize (traces/trace_event.h)");
  // Whether PackedEvent holds all of `e`: the fields it has no room for
  // are unset, those an event of its type never sets are empty, and an
  // arrival's prefix blocks end within blocks_'s 32-bit offsets.
  bool Packs(const TraceEvent& e) const {
    if (e.weight || e.speed || e.ttft || e.route || e.knowledge_tokens || e.proxy_choice.present() ||
        !e.deferred_line.empty() || !e.hint.queues.empty() || !e.hint.raw_json.empty())
      return false;
    if (e.type == EventType::kArrival)
      return e.instance.empty() && !e.index && !e.inflight.present() && e.inflight.value == 0 &&
             !e.qps_1m.present() && e.qps_1m.value == 0.0 &&
             e.output_tokens.value_or(0) <= ~std::uint32_t{0} &&
             blocks_.size() + e.hint.prefix_blocks.size() < ~std::uint32_t{0};
    return !e.request && !e.duration && !e.input_tokens && !e.output_tokens &&
           e.hint.prefix_blocks.empty();
  }

  IdSpan Keep(std::string_view id) {
    IdSpan span{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(id.size())};
    text_.append(id);
    bytes_ += id.size();
    return span;
  }

  // What a slot's vectors may keep across batches (items, string bytes).
  static constexpr std::size_t kKeptItems = 1024;
  static constexpr std::size_t kKeptBytes = 16384;
  std::string_view View(IdSpan span) const {
    return std::string_view(text_).substr(span.at, span.size);
  }

  std::vector<PackedEvent> packed_;
  std::vector<FullEvent> full_;  // the first full_count_ are this batch's
  std::size_t full_count_ = 0;
  std::string text_;
  // The packed arrivals' prefix blocks, each arrival's count then its ids.
  std::vector<std::uint64_t> blocks_;
  std::size_t bytes_ = 0;
};

// Thrown on the reading thread when the visitor has stopped: unwinds the
// reader, which then closes its file.
struct ReadingCancelled {};

// How long the visiting thread spins for a batch before it blocks. A batch
// takes the reading thread ~0.1 ms on the bench trace, so a visitor that
// is the faster side mostly waits less than this; a thread that blocks
// instead gives its CPU up, and on a virtual machine getting it back took
// longer than the wait: replays run just after another command took ~12%
// longer.
constexpr std::chrono::microseconds kSpinBeforeBlocking{500};

// The visitor's spinning before it blocks, kept up only while it pays:
// after a spin runs out (the reader is slow, as for a trace read from a
// slow disk), the next kSkips waits block at once.
class Spinner {
 public:
  // Spins until `ready()` or kSpinBeforeBlocking has passed, unless spins
  // stopped paying lately.
  template <typename Ready>
  void SpinUntil(Ready ready) {
    if (skips_ > 0) {
      --skips_;
      return;
    }
    const auto give_up = std::chrono::steady_clock::now() + kSpinBeforeBlocking;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (ready()) return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      if (std::chrono::steady_clock::now() >= give_up) break;
    }
    skips_ = kSkips;
  }

 private:
  static constexpr int kSkips = 16;
  int skips_ = 0;
};

// The bounded hand-over between one reading thread and one or more
// visiting ones (consumers): a ring of kReadAheadBatches batches. The
// reader fills the batch after the last one it published whenever the
// slowest consumer still visiting is less than the ring behind; each
// consumer takes them in order, spinning a little (on a copy of the count
// it reads without the lock) before it waits on the lock. A batch is
// reused once every consumer has released it or stopped visiting.
class BatchRing {
 public:
  // Published batches not yet released at which a reader blocked on a full
  // ring resumes.
  static constexpr std::uint64_t kResumeAt = kReadAheadBatches / 2;

  // `spin`: whether a consumer waiting for a batch spins first, which
  // pays only while every thread of the reading has a CPU of its own.
  BatchRing(std::size_t consumers, bool spin)
      : taken_(consumers, 0), visiting_(consumers, true), spinners_(consumers),
        visiting_count_(consumers), spin_(spin) {}

  // Reader: the batch to fill next, cleared. Waits while the ring is full;
  // throws ReadingCancelled once the visit has stopped. A full ring means
  // a visitor is the slower side: the reader then blocks, without
  // spinning, until half the ring is free again (Release wakes it then),
  // leaving the CPU to the visitors and to whatever else the run does (a
  // log's writing thread). Half a ring is milliseconds of the visitor's
  // work, more than a blocked thread takes to get a CPU back.
  // `pending` is set to the batches published and not yet released by
  // every consumer, as the reader found them.
  EventBatch& Fill(std::uint64_t& pending) {
    std::unique_lock lock(mutex_);
    pending = published_ - Released();
    if (pending >= kReadAheadBatches) {
      reader_blocked_ = true;
      changed_.wait(lock, [&] { return cancelled_ || published_ - Released() <= kResumeAt; });
      reader_blocked_ = false;
    }
    if (cancelled_) throw ReadingCancelled{};
    EventBatch& batch = batches_[published_ % kReadAheadBatches];
    batch.Clear();
    return batch;
  }
  // Reader: the batch from Fill is complete.
  void Publish() {
    batches_[published_ % kReadAheadBatches].Seal();
    {
      std::lock_guard lock(mutex_);
      ++published_;
      published_seen_.store(published_, std::memory_order_relaxed);
    }
    changed_.notify_all();
  }
  // Reader: there is nothing more; `counts` are ReadTrace's, or `error`
  // is what it threw.
  void Close(TraceCounts counts, std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      closed_seen_.store(true, std::memory_order_relaxed);
      counts_ = counts;
      error_ = std::move(error);
    }
    changed_.notify_all();
  }

  // Consumer k: its next published batch; nullptr after the last one.
  const EventBatch* Take(std::size_t k) {
    const std::uint64_t next = taken_[k];  // written by consumer k alone
    if (spin_)
      spinners_[k].spinner.SpinUntil([&] {
        return closed_seen_.load(std::memory_order_relaxed) ||
               next < published_seen_.load(std::memory_order_relaxed);
      });
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || next < published_; });
    if (next == published_) return nullptr;
    return &batches_[next % kReadAheadBatches];
  }
  // Consumer k: the batch from Take is done.
  void Release(std::size_t k) {
    bool wake;
    {
      std::lock_guard lock(mutex_);
      ++taken_[k];
      wake = reader_blocked_ && published_ - Released() <= kResumeAt;
    }
    if (wake) changed_.notify_all();
  }
  // Consumer k: visits no more batches. The last consumer to stop stops
  // the reader at its next batch.
  void Stop(std::size_t k) {
    {
      std::lock_guard lock(mutex_);
      if (!visiting_[k]) return;
      visiting_[k] = false;
      if (--visiting_count_ == 0) cancelled_ = true;
    }
    changed_.notify_all();
  }
  // After Take returned nullptr: the reader's counts, or its error thrown.
  TraceCounts Result() {
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(error_);
    return counts_;
  }

  // A consumer failed at the event of order `order` (see Visit): the
  // others need not visit past it.
  void FailedAt(std::uint64_t order) {
    std::uint64_t seen = stop_after_.load(std::memory_order_relaxed);
    while (order < seen && !stop_after_.compare_exchange_weak(seen, order)) {
    }
  }
  // The earliest order a consumer failed at (UINT64_MAX while none has).
  std::uint64_t StopAfter() const { return stop_after_.load(std::memory_order_relaxed); }

 private:
  // The batches every consumer still visiting has released; with none
  // visiting, all of them. Under the lock.
  std::uint64_t Released() const {
    std::uint64_t released = published_;
    for (std::size_t k = 0; k < taken_.size(); ++k)
      if (visiting_[k] && taken_[k] < released) released = taken_[k];
    return released;
  }

  std::array<EventBatch, kReadAheadBatches> batches_;
  alignas(128) std::mutex mutex_;  // off the batches' cache lines
  std::condition_variable changed_;
  std::uint64_t published_ = 0;
  std::vector<std::uint64_t> taken_;  // by consumer
  std::vector<bool> visiting_;        // by consumer
  bool closed_ = false;
  bool cancelled_ = false;
  bool reader_blocked_ = false;  // Fill waits for the ring to drain to kResumeAt
  // Copies of published_ and closed_ for the consumers' spin, each on its
  // own cache line: written under the lock by the reader, read without it.
  // The decisions are still made under the lock.
  alignas(64) std::atomic<std::uint64_t> published_seen_{0};
  alignas(64) std::atomic<bool> closed_seen_{false};
  alignas(64) std::atomic<std::uint64_t> stop_after_{~std::uint64_t{0}};
  struct alignas(64) PaddedSpinner {
    Spinner spinner;
  };
  std::vector<PaddedSpinner> spinners_;  // by consumer
  std::size_t visiting_count_;
  bool spin_;
  TraceCounts counts_;
  std::exception_ptr error_;
};

// The visitor ReadTrace sees on the reading thread: copies the header and
// the events into batches, each with how far reading got (it also hears the
// reader's progress).
class BatchingVisitor final : public TraceVisitor, public TraceProgress {
 public:
  BatchingVisitor(BatchRing& ring, bool wants_raw_hint, ProxyChoice proxy)
      : ring_(ring), wants_raw_hint_(wants_raw_hint), proxy_(proxy) {}

  bool WantsRawHint() const override { return wants_raw_hint_; }
  ProxyChoice Proxy() const override { return proxy_; }
  // Each visiting thread reads them (Visit); see Current for the share.
  const std::uint8_t* DeferredHintShare() const override { return &deferred_share_; }

  void OnHeader(const TraceHeader& header, const InstanceTable&) override {
    Current().header = header;
  }

  void OnEvent(const TraceEvent& event) override {
    EventBatch& batch = Current();
    batch.Add(event);
    if (batch.size() == kReadAheadBatchEvents || batch.bytes() >= kReadAheadBatchBytes) Flush();
  }

  void Update(std::uint64_t done, std::uint64_t total, std::uint64_t) override {
    done_ = done;
    total_ = total;
  }

  // Publishes the batch being filled, if any.
  void Flush() {
    if (!batch_) return;
    batch_->progress_done = done_;
    batch_->progress_total = total_;
    batch_ = nullptr;
    ring_.Publish();
  }

 private:
  // The batch being filled. Starting one, the share of hints left to the
  // visitors follows how far behind the slowest of them is, and whether
  // this thread had a CPU to itself while it filled the last batch: more
  // while they keep up and it did, fewer once they fall behind or the
  // CPUs are all taken (by a log's writing thread, or another process),
  // since leaving a hint costs a copy of its line and only pays on an idle
  // CPU. Which side reads a hint changes nothing in the events.
  EventBatch& Current() {
    if (!batch_) {
      const std::uint64_t cpu = ThreadCpuNanoseconds();
      const std::uint64_t wall = WallNanoseconds();
      // Whether this thread ran at least 7/8 of the time since the last
      // batch was started (its own waits on a full ring excluded).
      const bool had_cpu = 8 * (cpu - last_cpu_) >= 7 * (wall - last_wall_);
      std::uint64_t pending = 0;
      batch_ = &ring_.Fill(pending);
      if (pending <= 1 && had_cpu && deferred_share_ < 8) ++deferred_share_;
      else if ((pending >= kReadAheadBatches / 2 || !had_cpu) && deferred_share_ > 0)
        --deferred_share_;
      last_cpu_ = ThreadCpuNanoseconds();
      last_wall_ = WallNanoseconds();
    }
    return *batch_;
  }

  static std::uint64_t ThreadCpuNanoseconds() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(ts.tv_nsec);
  }
  static std::uint64_t WallNanoseconds() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count());
  }

  BatchRing& ring_;
  bool wants_raw_hint_;
  ProxyChoice proxy_;
  EventBatch* batch_ = nullptr;
  std::uint64_t done_ = 0, total_ = 0;  // the reader's progress so far
  std::uint8_t deferred_share_ = 4;      // in eighths (see Current)
  std::uint64_t last_cpu_ = 0, last_wall_ = 0;  // when the last batch was started
};

// Whether `path` names a regular file, or is "-" for a standard input
// redirected from one: reads that never wait (unlike a pipe's or a
// device's).
bool IsRegularFile(const std::string& path) {
  struct stat st {};
  const int status = path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st);
  return status == 0 && S_ISREG(st.st_mode);
}

// What one consumer's visit came to: the reader's counts, or the error it
// met, where (`order`: 0 for the header, an event's position + 1, the
// largest for the reader's own error) and how far into that event
// (`rank`, the visitor's FailureRank). A consumer that stopped because
// another failed before it has neither.
struct VisitOutcome {
  TraceCounts counts;
  std::exception_ptr error;
  std::uint64_t order = 0;
  std::size_t rank = 0;

  bool FailsBefore(const VisitOutcome& other) const {
    return order != other.order ? order < other.order : rank < other.rank;
  }
};

// Interns `event`'s id into a consumer's `table` where the reader interned
// it, at its first `up`, so that the indices agree.
void InternAsReaderDid(InstanceTable& table, const TraceEvent& event) {
  if (event.type == EventType::kUp && *event.index == table.size() &&
      table.Intern(event.instance) != *event.index)
    throw std::logic_error("read-ahead: Instance indices diverged");
}

// Hands the batches in `ring` to consumer `k`'s `visitor`, interning ids
// into `table` and locating the visitor's errors as ReadTrace would;
// `progress` (may be null) hears how far the visited events are into the
// file, interpolated within each batch. Stops at a batch after the event
// another consumer failed at. Never throws.
VisitOutcome Visit(BatchRing& ring, std::size_t k, const std::string& path, bool document,
                   ProxyChoice proxy, InstanceTable& table, TraceVisitor& visitor,
                   TraceProgress* progress) {
  constexpr std::size_t kProgressEvents = 256;  // events between two reports
  EventBatch::Scratch scratch;
  DeferredHints deferred(path);
  std::uint64_t visited = 0, done_before = 0;
  VisitOutcome outcome;
  std::uint64_t order = 0;
  try {
    bool stopped = false;
    while (const EventBatch* batch = ring.Take(k)) {
      // Its first order: the header's, else its first event's.
      const std::uint64_t first =
          batch->header ? 0 : batch->size() > 0 ? batch->FirstPosition() + 1 : order;
      if (first > ring.StopAfter()) {
        stopped = true;
        break;
      }
      order = 0;
      if (batch->header) {
        HandOnHeader(path, *batch->header, table, visitor);
        deferred.OnHeader(*batch->header, proxy);
      }
      const std::uint64_t done_after = std::max(done_before, batch->progress_done);
      for (std::size_t i = 0; i < batch->size(); ++i) {
        if (progress && i % kProgressEvents == 0)
          progress->Update(done_before + (done_after - done_before) * i / batch->size(),
                           batch->progress_total, visited);
        ++visited;
        const TraceEvent* read = &batch->Get(i, scratch);
        order = read->position + 1;
        if (!read->deferred_line.empty()) read = &deferred.Read(*read, table);
        const TraceEvent& event = *read;
        InternAsReaderDid(table, event);
        try {
          visitor.OnEvent(event);
        } catch (const FieldError& e) {
          FailAtEvent(path, document, event.position, e.what());
        } catch (const InputError& e) {
          FailAtEvent(path, document, event.position, e.what());
        }
      }
      done_before = done_after;
      ring.Release(k);
    }
    if (!stopped) {
      order = ~std::uint64_t{0};
      outcome.counts = ring.Result();
      AddNearMisses(outcome.counts.near_misses, deferred.near_misses());
    }
  } catch (...) {
    outcome.error = std::current_exception();
    outcome.order = order;
    outcome.rank = visitor.FailureRank();
    ring.FailedAt(order);
  }
  ring.Stop(k);
  return outcome;
}

// The visitor ReadTrace feeds when consumers cannot have threads: hands
// each event to every consumer in turn, interning ids into the tables
// after the first (ReadTrace fills that one), and throws the failure that
// comes first: at one event, the lowest FailureRank, then the first
// consumer.
class FanOutVisitor final : public TraceVisitor {
 public:
  explicit FanOutVisitor(std::span<const TraceConsumer> consumers) : consumers_(consumers) {}

  bool WantsRawHint() const override {
    for (const TraceConsumer& c : consumers_)
      if (c.visitor->WantsRawHint()) return true;
    return false;
  }
  ProxyChoice Proxy() const override { return consumers_[0].visitor->Proxy(); }

  void OnHeader(const TraceHeader& header, const InstanceTable& table) override {
    EachConsumer([&](const TraceConsumer& c, bool first) {
      if (first) {
        c.visitor->OnHeader(header, table);
        return;
      }
      for (const HeaderInstance& inst : header.instances) c.table->Intern(inst.id);
      c.visitor->OnHeader(header, *c.table);
    });
  }

  void OnEvent(const TraceEvent& event) override {
    EachConsumer([&](const TraceConsumer& c, bool first) {
      if (!first) InternAsReaderDid(*c.table, event);
      c.visitor->OnEvent(event);
    });
  }

 private:
  template <typename Step>
  void EachConsumer(Step step) {
    VisitOutcome first;  // all at one event: the order is the same
    for (std::size_t k = 0; k < consumers_.size(); ++k) {
      try {
        step(consumers_[k], k == 0);
      } catch (...) {
        VisitOutcome failed;
        failed.error = std::current_exception();
        failed.rank = consumers_[k].visitor->FailureRank();
        if (!first.error || failed.FailsBefore(first)) first = failed;
      }
    }
    if (first.error) std::rethrow_exception(first.error);
  }

  std::span<const TraceConsumer> consumers_;
};

// ReadTraceAhead's reading for several consumers on the calling thread.
TraceCounts ReadFannedOut(const std::string& path, TraceEncoding encoding,
                          std::span<const TraceConsumer> consumers, TraceProgress* progress) {
  if (consumers.size() == 1)
    return ReadTrace(path, encoding, *consumers[0].table, *consumers[0].visitor, progress);
  FanOutVisitor fan_out(consumers);
  return ReadTrace(path, encoding, *consumers[0].table, fan_out, progress);
}

}  // namespace

TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           InstanceTable& table, TraceVisitor& visitor,
                           TraceProgress* progress) {
  const TraceConsumer consumer{&table, &visitor};
  return ReadTraceAhead(path, encoding, std::span<const TraceConsumer>(&consumer, 1), progress);
}

TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           std::span<const TraceConsumer> consumers,
                           TraceProgress* progress) {
  if (consumers.empty()) throw std::logic_error("ReadTraceAhead: no consumer");
  if (!IsRegularFile(path)) return ReadFannedOut(path, encoding, consumers, progress);

  // The visiting side names event positions as the reader does: it needs
  // the encoding the reader will find.
  if (encoding == TraceEncoding::kAuto) {
    InputFile input = InputFile::Open(path, "trace");
    encoding = DetectTraceEncoding(input, path);
  }
  const bool document = encoding == TraceEncoding::kDocument;
  // What the reader asks of its visitor, asked of them all.
  const FanOutVisitor all(consumers);
  const bool wants_raw_hint = all.WantsRawHint();
  const ProxyChoice proxy = all.Proxy();

  BatchRing ring(consumers.size(), consumers.size() < UsableCpus());
  std::vector<VisitOutcome> outcomes(consumers.size());
  std::vector<std::thread> helpers;
  std::thread reader;
  // However the visit ends, every thread stops and is joined.
  struct JoinAll {
    std::vector<std::thread>& helpers;
    std::thread& reader;
    ~JoinAll() {
      for (std::thread& h : helpers) h.join();
      if (reader.joinable()) reader.join();
    }
  } join_all{helpers, reader};
  try {
    // Signals stay with this thread, which the cleanup handler expects.
    TerminationSignalsBlocked blocked;
    // The consumers' threads first: until the reader starts, they only
    // wait for a batch, and can be sent away unharmed.
    for (std::size_t k = 1; k < consumers.size(); ++k)
      helpers.emplace_back([&, k] {
        outcomes[k] = Visit(ring, k, path, document, proxy, *consumers[k].table,
                            *consumers[k].visitor, nullptr);
      });
    reader = std::thread([&ring, &path, encoding, progress, wants_raw_hint, proxy] {
      TraceCounts counts;
      std::exception_ptr error;
      InstanceTable own;  // the reader's; each consumer has its own table
      BatchingVisitor batching(ring, wants_raw_hint, proxy);
      try {
        counts = ReadTrace(path, encoding, own, batching, progress ? &batching : nullptr);
      } catch (const ReadingCancelled&) {
        return;
      } catch (...) {
        error = std::current_exception();
      }
      // The events before an error are handed on first, as ReadTrace would.
      batching.Flush();
      ring.Close(counts, std::move(error));
    });
  } catch (const std::system_error&) {
    // No thread to be had (a process or memory limit): nothing was read;
    // the consumers' threads that started see the end at once. Read on
    // this thread.
    ring.Close({}, nullptr);
    for (std::thread& h : helpers) h.join();
    helpers.clear();
    return ReadFannedOut(path, encoding, consumers, progress);
  }
  outcomes[0] = Visit(ring, 0, path, document, proxy, *consumers[0].table,
                      *consumers[0].visitor, progress);
  for (std::thread& h : helpers) h.join();
  helpers.clear();
  const VisitOutcome* first = nullptr;
  for (const VisitOutcome& o : outcomes)
    if (o.error && (!first || o.FailsBefore(*first))) first = &o;
  if (first) std::rethrow_exception(first->error);
  return outcomes[0].counts;
}

}  // namespace lbsim
