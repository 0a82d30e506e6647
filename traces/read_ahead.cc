#include "traces/read_ahead.h"

#include <sys/stat.h>

#include <array>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "sim/errors.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

// Events per batch, and batches the reader may fill before the visitor has
// taken them: the reader runs at most this far ahead.
constexpr std::size_t kBatchEvents = 1024;
constexpr std::size_t kBatches = 4;

// A run of events handed from the reading thread to the visiting one. The
// events' ids are copied into `text`; their views are pointed there when
// the batch is taken, after the last append.
struct EventBatch {
  struct IdSpan {
    std::size_t at = 0;
    std::size_t size = 0;
  };
  std::optional<TraceHeader> header;  // comes before events[0]
  std::vector<TraceEvent> events;     // the first `count` are this batch's
  std::size_t count = 0;
  std::string text;
  std::vector<IdSpan> instance;  // parallel to events
  std::vector<IdSpan> request;   // parallel to events; used when event.request

  void Clear() {
    header.reset();
    count = 0;
    text.clear();
  }

  IdSpan Keep(std::string_view id) {
    IdSpan span{text.size(), id.size()};
    text.append(id);
    return span;
  }

  std::string_view View(IdSpan span) const { return std::string_view(text).substr(span.at, span.size); }

  void Add(const TraceEvent& e) {
    if (events.size() == count) {
      events.emplace_back();
      instance.emplace_back();
      request.emplace_back();
    }
    events[count] = e;
    instance[count] = Keep(e.instance);
    if (e.request) request[count] = Keep(*e.request);
    ++count;
  }

  // Points the views of the events at `text`.
  void PointViews() {
    for (std::size_t i = 0; i < count; ++i) {
      events[i].instance = View(instance[i]);
      if (events[i].request) events[i].request = View(request[i]);
    }
  }
};

// Thrown on the reading thread when the visitor has stopped: unwinds the
// reader, which then closes its file.
struct ReadingCancelled {};

// The bounded hand-over between one reading and one visiting thread: a
// ring of kBatches batches. The reader fills the batch after the last one
// it published whenever the visitor is less than kBatches behind; the
// visitor takes them in order.
class BatchRing {
 public:
  // Reader: the batch to fill next, cleared. Waits while the ring is full;
  // throws ReadingCancelled once the visitor has stopped.
  EventBatch& Fill() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || published_ - taken_ < kBatches; });
    if (cancelled_) throw ReadingCancelled{};
    EventBatch& batch = batches_[published_ % kBatches];
    batch.Clear();
    return batch;
  }
  // Reader: the batch from Fill is complete.
  void Publish() {
    {
      std::lock_guard lock(mutex_);
      ++published_;
    }
    changed_.notify_all();
  }
  // Reader: there is nothing more; `counts` are ReadTrace's, or `error`
  // is what it threw.
  void Close(TraceCounts counts, std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      counts_ = counts;
      error_ = std::move(error);
    }
    changed_.notify_all();
  }

  // Visitor: the next published batch; nullptr after the last one.
  EventBatch* Take() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || taken_ < published_; });
    if (taken_ == published_) return nullptr;
    return &batches_[taken_ % kBatches];
  }
  // Visitor: the batch from Take is done.
  void Release() {
    {
      std::lock_guard lock(mutex_);
      ++taken_;
    }
    changed_.notify_all();
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
  std::mutex mutex_;
  std::condition_variable changed_;
  std::array<EventBatch, kBatches> batches_;
  std::uint64_t published_ = 0;
  std::uint64_t taken_ = 0;
  bool closed_ = false;
  bool cancelled_ = false;
  TraceCounts counts_;
  std::exception_ptr error_;
};

// The visitor ReadTrace sees on the reading thread: copies the header and
// the events into batches.
class BatchingVisitor final : public TraceVisitor {
 public:
  BatchingVisitor(BatchRing& ring, bool wants_raw_hint)
      : ring_(ring), wants_raw_hint_(wants_raw_hint) {}

  bool WantsRawHint() const override { return wants_raw_hint_; }

  void OnHeader(const TraceHeader& header, const InstanceTable&) override {
    Current().header = header;
  }

  void OnEvent(const TraceEvent& event) override {
    EventBatch& batch = Current();
    batch.Add(event);
    if (batch.count == kBatchEvents) Flush();
  }

  // Publishes the batch being filled, if any.
  void Flush() {
    if (!batch_) return;
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
  EventBatch* batch_ = nullptr;
};

// Whether `path` names a regular file (not "-", a pipe or a device).
bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Hands the batches in `ring` to `visitor`, interning ids into `table` as
// ReadTrace would, and adds the trace location to the visitor's errors as
// TraceStream does. Returns the reader's counts or throws its error.
TraceCounts Visit(BatchRing& ring, const std::string& path, bool document,
                  InstanceTable& table, TraceVisitor& visitor) {
  while (EventBatch* batch = ring.Take()) {
    if (batch->header) {
      for (const HeaderInstance& inst : batch->header->instances) table.Intern(inst.id);
      try {
        visitor.OnHeader(*batch->header, table);
      } catch (const FieldError& e) {
        FailVisitedHeader(path, e.what());
      }
    }
    batch->PointViews();
    for (std::size_t i = 0; i < batch->count; ++i) {
      const TraceEvent& event = batch->events[i];
      // The reader interns an id at its first `up`; so does this table, in
      // the same order, so the indices agree.
      if (event.type == EventType::kUp && *event.index == table.size() &&
          table.Intern(event.instance) != *event.index)
        throw std::logic_error("read-ahead: Instance indices diverged");
      try {
        visitor.OnEvent(event);
      } catch (const FieldError& e) {
        throw InputError(
            fmt::format("{}: {}", EventLocation(path, document, event.position), e.what()));
      } catch (const InputError& e) {
        throw InputError(
            fmt::format("{}: {}", EventLocation(path, document, event.position), e.what()));
      }
    }
    ring.Release();
  }
  return ring.Result();
}

}  // namespace

TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           InstanceTable& table, TraceVisitor& visitor,
                           TraceProgress* progress) {
  if (std::thread::hardware_concurrency() < 2 || !IsRegularFile(path))
    return ReadTrace(path, encoding, table, visitor, progress);

  const bool document =
      encoding == TraceEncoding::kDocument ||
      (encoding == TraceEncoding::kAuto && EncodingFromName(path) == TraceEncoding::kDocument);
  BatchRing ring;
  std::thread reader([&ring, &path, encoding, progress,
                      wants_raw_hint = visitor.WantsRawHint()] {
    TraceCounts counts;
    std::exception_ptr error;
    InstanceTable own;  // the reader's; `table` belongs to the visiting thread
    BatchingVisitor batching(ring, wants_raw_hint);
    try {
      counts = ReadTrace(path, encoding, own, batching, progress);
    } catch (const ReadingCancelled&) {
      return;
    } catch (...) {
      error = std::current_exception();
    }
    // The events before an error are handed on first, as ReadTrace would.
    batching.Flush();
    ring.Close(counts, std::move(error));
  });
  // However the visit ends, the reader stops and is joined.
  struct StopAndJoin {
    BatchRing& ring;
    std::thread& reader;
    ~StopAndJoin() {
      ring.Cancel();
      reader.join();
    }
  } stop_and_join{ring, reader};
  return Visit(ring, path, document, table, visitor);
}

}  // namespace lbsim
