#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/json/json_scanner.h"
#include "strategies/proxy_profile.h"
#include "traces/event_decoder.h"
#include "traces/hint_layout.h"
#include "traces/instance_table.h"
#include "traces/key_near_misses.h"
#include "traces/trace_event.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Reads, on a visiting thread, the hints a JSON Lines reader left unread
// (TraceEvent::deferred_line; see LineLayouts::set_deferred_hint_share), so that
// the reading of a Proxy's hints is shared between the two threads of a
// read-ahead. The event comes out as the reader would have made it: a hint
// laid out as one this has learned is read by that layout (which decodes
// as the general path does), any other line the general way, whole, its
// errors the ones ReadTrace throws for that line.
class DeferredHints {
 public:
  // `path`: the trace's, as its errors name it.
  explicit DeferredHints(std::string path);

  // The trace's header and the run's Proxy choice, which say how hint
  // values are read.
  void OnHeader(const TraceHeader& header, ProxyChoice proxy) {
    decoder_.set_hint_reading(proxy.Resolve(header.proxy, header.python).hint_reading());
  }

  // `event` (its deferred_line set) with its hint read, Instances looked
  // up in `table`: valid until the next call. Throws InputError.
  const TraceEvent& Read(const TraceEvent& event, InstanceTable& table);

  // The keys near a trace key that lines read the general way passed over,
  // each with the line it was first found on, in that order.
  const std::vector<KeyNearMiss>& near_misses() const { return found_; }

 private:
  // The most hint layouts kept; a new one pushes out the oldest.
  static constexpr std::size_t kMaxLayouts = 4;

  // Reads the line of `event_` the general way (see the class comment).
  void ReadWhole(InstanceTable& table);
  // Keeps the layout of the hint `hint` (a value the scanner accepted).
  void Learn(const JsonView& hint);

  std::string path_;
  std::vector<HintLayout> layouts_;
  std::size_t last_fit_ = 0;   // the layout tried first
  std::size_t next_slot_ = 0;  // where the next layout learned goes once full
  HintText text_;
  TraceEvent event_;
  std::string line_;  // the line read the general way, NUL after it
  JsonScanner scanner_;
  EventDecoder decoder_;
  KeyNearMisses near_misses_;
  std::vector<KeyNearMiss> found_;
};

// Adds to `counts`, the near misses a reader found, those a DeferredHints
// found in the lines it read the general way (`more`): each key once, with
// the first line it was found on, in the order of those lines, at most
// kMaxNearMisses, as the reader alone would have found them.
void AddNearMisses(std::vector<KeyNearMiss>& counts, const std::vector<KeyNearMiss>& more);

}  // namespace lbsim
