#pragma once

// What a TraceVisitor is shown, recorded as text, so that two ways of
// reading one trace (ReadTrace and ReadTraceAhead) can be compared field by
// field. Shared by the unit tests and the read-ahead fuzz target.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/deferred_hints.h"
#include "traces/instance_table.h"
#include "traces/trace_event.h"
#include "traces/trace_reader.h"

namespace lbsim::testing {

// Every field a visitor can see of an event, on one line.
std::string DescribeEvent(const TraceEvent& e);
// Every field of a header, and the size of the table it came with.
std::string DescribeHeader(const TraceHeader& header, const InstanceTable& table);

// Records the header and events it is shown. With `fail_at` set it throws
// at that event (0-based): FieldError, or InputError with `input_error`,
// saying `refusal`, and tells `rank` as its FailureRank; with
// `fail_at_header`, it throws FieldError at the header.
// With `pause_at` set it sleeps for `pause` at that event first, as a slow
// visitor would (a reader ahead of it then fills its ring). With
// `deferred_share` set it takes that share of hints unread (see
// TraceVisitor::DeferredHintShare) and reads them itself, as the
// read-ahead's visiting side does, before recording the event.
class TraceRecorder final : public TraceVisitor {
 public:
  explicit TraceRecorder(bool raw_hint = false) : raw_hint_(raw_hint) {}

  bool WantsRawHint() const override { return raw_hint_; }
  const std::uint8_t* DeferredHintShare() const override {
    return deferred_share ? &*deferred_share : nullptr;
  }
  void OnHeader(const TraceHeader& header, const InstanceTable& table) override;
  void OnEvent(const TraceEvent& e) override;
  std::size_t FailureRank() const override { return rank; }

  std::vector<std::string> seen;  // the header, then one line per event
  std::optional<std::size_t> fail_at;
  bool input_error = false;
  std::string refusal = "the visitor refuses this one";
  std::size_t rank = 0;
  bool fail_at_header = false;
  std::optional<std::size_t> pause_at;
  std::chrono::milliseconds pause{0};
  std::optional<std::uint8_t> deferred_share;
  // With deferred_share: the trace's path and the reading's table (set by
  // RecordReading), what reads the hints, and how many it read.
  std::string path;
  InstanceTable* table = nullptr;
  std::shared_ptr<DeferredHints> deferred;
  std::size_t deferred_read = 0;

 private:
  bool raw_hint_;
  std::size_t events_ = 0;
};

// A trace reading function: ReadTrace or ReadTraceAhead.
using TraceReadFunction = TraceCounts (*)(const std::string&, TraceEncoding, InstanceTable&,
                                          TraceVisitor&, TraceProgress*);

// What one reading produced.
struct TraceReading {
  std::vector<std::string> seen;
  std::vector<std::string> ids;  // the table's, in order
  TraceCounts counts;
  std::string error;  // the InputError's or UsageError's message; "" when none

  std::size_t deferred_read = 0;  // hints the recorder read (see deferred_share)

  bool operator==(const TraceReading& o) const {
    return seen == o.seen && ids == o.ids && counts.events == o.counts.events &&
           counts.arrivals == o.counts.arrivals && NearMisses() == o.NearMisses() &&
           error == o.error;
  }
  // The near misses counted, as text.
  std::vector<std::string> NearMisses() const;
};

// Reads `path` with `read` into a copy of `recorder`.
TraceReading RecordReading(TraceReadFunction read, const std::string& path,
                           TraceEncoding encoding, TraceRecorder recorder);

}  // namespace lbsim::testing
