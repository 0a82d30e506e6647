#include "traces/read_ahead.h"

#include <sched.h>
#include <sys/stat.h>

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
#include "traces/input_file.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

// A run of events handed from the reading thread to the visiting one.
// What crosses between the cores is what costs, so most events travel as
// one 64-byte PackedEvent; the rest (an `up` with weight or speed, an
// arrival with a hint, prefix blocks or more than 2^32 - 1 output tokens)
// travel whole, as TraceEvents. Ids
// are copied into `text_`; views into it are made on the visiting side,
// after the last append. Batches are written by one thread while another
// reads the batch beside them: each starts its own pair of cache lines
// (adjacent-line prefetch moves lines in pairs), or every event appended
// would take the reading thread's line away (this alone cost the reader
// thread ~70% more time on the bench trace).
class alignas(128) EventBatch {
 public:
  std::optional<TraceHeader> header;  // comes before the events
  // Reading progress when the batch was published (see TraceProgress), so
  // that progress is shown as the events are visited, not as they are read.
  std::uint64_t progress_done = 0;
  std::uint64_t progress_total = 0;

  std::size_t size() const { return packed_.size(); }

  void Clear() {
    header.reset();
    progress_done = progress_total = 0;
    packed_.clear();
    full_count_ = 0;
    text_.clear();
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
      f.instance = Keep(e.instance);
      if (e.request) f.request = Keep(*e.request);
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

  // Event `i` as ReadTrace showed it, in `scratch` unless it travelled
  // whole. Valid until the next call.
  const TraceEvent& Get(std::size_t i, Scratch& scratch) {
    const PackedEvent& p = packed_[i];
    if (p.full != kPacked) {
      FullEvent& f = full_[p.full];
      f.event.instance = View(f.instance);
      if (f.event.request) f.event.request = View(f.request);
      return f.event;
    }
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
  };

  // Whether PackedEvent holds all of `e`: the fields it has no room for
  // are unset, and those an event of its type never sets are empty.
  static bool Packs(const TraceEvent& e) {
    if (e.weight || e.speed || !e.hint.queues.empty() || !e.hint.prefix_blocks.empty() ||
        !e.hint.raw_json.empty())
      return false;
    if (e.type == EventType::kArrival)
      return e.instance.empty() && !e.index && !e.inflight.present() && e.inflight.value == 0 &&
             !e.qps_1m.present() && e.qps_1m.value == 0.0 &&
             e.output_tokens.value_or(0) <= ~std::uint32_t{0};
    return !e.request && !e.duration && !e.input_tokens && !e.output_tokens;
  }

  IdSpan Keep(std::string_view id) {
    IdSpan span{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(id.size())};
    text_.append(id);
    return span;
  }
  std::string_view View(IdSpan span) const {
    return std::string_view(text_).substr(span.at, span.size);
  }

  std::vector<PackedEvent> packed_;
  std::vector<FullEvent> full_;  // the first full_count_ are this batch's
  std::size_t full_count_ = 0;
  std::string text_;
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

// The bounded hand-over between one reading and one visiting thread: a
// ring of kReadAheadBatches batches. The reader fills the batch after the
// last one it published whenever the visitor is less than the ring behind;
// the visitor takes them in order, spinning a little (on a copy of the
// count it reads without the lock) before it waits on the lock.
class BatchRing {
 public:
  // Published batches not yet released at which a reader blocked on a full
  // ring resumes.
  static constexpr std::uint64_t kResumeAt = kReadAheadBatches / 2;

  // Reader: the batch to fill next, cleared. Waits while the ring is full;
  // throws ReadingCancelled once the visitor has stopped. A full ring means
  // the visitor is the slower side: the reader then blocks, without
  // spinning, until half the ring is free again (Release wakes it then),
  // leaving the CPU to the visitor and to whatever else the run does (a
  // log's writing thread). Half a ring is milliseconds of the visitor's
  // work, more than a blocked thread takes to get a CPU back.
  EventBatch& Fill() {
    std::unique_lock lock(mutex_);
    if (published_ - taken_ >= kReadAheadBatches) {
      reader_blocked_ = true;
      changed_.wait(lock, [&] { return cancelled_ || published_ - taken_ <= kResumeAt; });
      reader_blocked_ = false;
    }
    if (cancelled_) throw ReadingCancelled{};
    EventBatch& batch = batches_[published_ % kReadAheadBatches];
    batch.Clear();
    return batch;
  }
  // Reader: the batch from Fill is complete.
  void Publish() {
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

  // Visitor: the next published batch; nullptr after the last one.
  EventBatch* Take() {
    visitor_spin_.SpinUntil([&] {
      return closed_seen_.load(std::memory_order_relaxed) ||
             taken_ < published_seen_.load(std::memory_order_relaxed);
    });
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || taken_ < published_; });
    if (taken_ == published_) return nullptr;
    return &batches_[taken_ % kReadAheadBatches];
  }
  // Visitor: the batch from Take is done.
  void Release() {
    bool wake;
    {
      std::lock_guard lock(mutex_);
      ++taken_;
      wake = reader_blocked_ && published_ - taken_ == kResumeAt;
    }
    if (wake) changed_.notify_all();
  }
  // Visitor: stops the reader at its next batch.
  void Cancel() {
    {
      std::lock_guard lock(mutex_);
      cancelled_ = true;
    }
    changed_.notify_all();
  }
  // After Take returned nullptr: the reader's counts, or its error thrown.
  TraceCounts Result() {
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(error_);
    return counts_;
  }

 private:
  std::array<EventBatch, kReadAheadBatches> batches_;
  alignas(128) std::mutex mutex_;  // off the batches' cache lines
  std::condition_variable changed_;
  std::uint64_t published_ = 0;
  std::uint64_t taken_ = 0;
  bool closed_ = false;
  bool cancelled_ = false;
  bool reader_blocked_ = false;  // Fill waits for the ring to drain to kResumeAt
  // Copies of published_ and closed_ for the visitor's spin, each on its
  // own cache line: written under the lock by the reader, read without it.
  // The decisions are still made under the lock.
  alignas(64) std::atomic<std::uint64_t> published_seen_{0};
  alignas(64) std::atomic<bool> closed_seen_{false};
  alignas(64) Spinner visitor_spin_;
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

  void OnHeader(const TraceHeader& header, const InstanceTable&) override {
    Current().header = header;
  }

  void OnEvent(const TraceEvent& event) override {
    EventBatch& batch = Current();
    batch.Add(event);
    if (batch.size() == kReadAheadBatchEvents) Flush();
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
  EventBatch& Current() {
    if (!batch_) batch_ = &ring_.Fill();
    return *batch_;
  }

  BatchRing& ring_;
  bool wants_raw_hint_;
  ProxyChoice proxy_;
  EventBatch* batch_ = nullptr;
  std::uint64_t done_ = 0, total_ = 0;  // the reader's progress so far
};

// Whether `path` names a regular file (not "-", a pipe or a device).
bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Hands the batches in `ring` to `visitor`, interning ids into `table` and
// locating the visitor's errors as ReadTrace would; `progress` (may be
// null) hears how far the visited events are into the file, interpolated
// within each batch. Returns the reader's counts or throws its error.
TraceCounts Visit(BatchRing& ring, const std::string& path, bool document,
                  InstanceTable& table, TraceVisitor& visitor, TraceProgress* progress) {
  constexpr std::size_t kProgressEvents = 256;  // events between two reports
  EventBatch::Scratch scratch;
  std::uint64_t visited = 0, done_before = 0;
  while (EventBatch* batch = ring.Take()) {
    if (batch->header) HandOnHeader(path, *batch->header, table, visitor);
    const std::uint64_t done_after = std::max(done_before, batch->progress_done);
    for (std::size_t i = 0; i < batch->size(); ++i) {
      if (progress && i % kProgressEvents == 0)
        progress->Update(done_before + (done_after - done_before) * i / batch->size(),
                         batch->progress_total, visited);
      ++visited;
      const TraceEvent& event = batch->Get(i, scratch);
      // The reader interns an id at its first `up`; so does this table, in
      // the same order, so the indices agree.
      if (event.type == EventType::kUp && *event.index == table.size() &&
          table.Intern(event.instance) != *event.index)
        throw std::logic_error("read-ahead: Instance indices diverged");
      try {
        visitor.OnEvent(event);
      } catch (const FieldError& e) {
        FailAtEvent(path, document, event.position, e.what());
      } catch (const InputError& e) {
        FailAtEvent(path, document, event.position, e.what());
      }
    }
    done_before = done_after;
    ring.Release();
  }
  return ring.Result();
}

}  // namespace

unsigned UsableCpus() {
  cpu_set_t cpus;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0)
    return static_cast<unsigned>(CPU_COUNT(&cpus));
  return std::thread::hardware_concurrency();
}

TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           InstanceTable& table, TraceVisitor& visitor,
                           TraceProgress* progress) {
  if (!IsRegularFile(path))
    return ReadTrace(path, encoding, table, visitor, progress);

  // The visiting side names event positions as the reader does: it needs
  // the encoding the reader will find.
  if (encoding == TraceEncoding::kAuto) {
    InputFile input = InputFile::Open(path, "trace");
    encoding = DetectTraceEncoding(input, path);
  }
  const bool document = encoding == TraceEncoding::kDocument;
  BatchRing ring;
  std::thread reader;
  try {
    // Signals stay with this thread, which the cleanup handler expects.
    TerminationSignalsBlocked blocked;
    reader = std::thread([&ring, &path, encoding, progress,
                          wants_raw_hint = visitor.WantsRawHint(),
                          proxy = visitor.Proxy()] {
      TraceCounts counts;
      std::exception_ptr error;
      InstanceTable own;  // the reader's; `table` belongs to the visiting thread
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
    // No thread to be had (a process or memory limit): read on this one.
    return ReadTrace(path, encoding, table, visitor, progress);
  }
  // However the visit ends, the reader stops and is joined.
  struct StopAndJoin {
    BatchRing& ring;
    std::thread& reader;
    ~StopAndJoin() {
      ring.Cancel();
      reader.join();
    }
  } stop_and_join{ring, reader};
  return Visit(ring, path, document, table, visitor, progress);
}

}  // namespace lbsim
