#pragma once

// Turns validated JSON values into validated trace structures. The one
// decoder behind both trace encodings: a JSON Lines line and an element of
// a document's `events` array are decoded alike.

#include <limits>
#include <span>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/instance_table.h"
#include "traces/key_near_misses.h"
#include "base/json/json_view.h"
#include "traces/trace_event.h"

namespace lbsim {

// Validates a header object. `document` says whether `events` belongs in it
// (JSON document) or must not appear (JSON Lines). Throws FieldError.
TraceHeader DecodeHeader(const JsonView& header, bool document);

// Whether `key` (unescaped) is one of the event keys trace format v1
// defines, which EventDecoder reads; it passes over every other key.
bool IsEventKey(std::string_view key);
// Every key IsEventKey takes (for did-you-mean).
const std::vector<std::string>& EventKeyNames();

// Decodes events, reusing its buffers so that steady-state decoding does
// not allocate.
class EventDecoder {
 public:
  // Validates the event `value` into `event` (every field is reset).
  // `members` are the members of `value` when it is an object, as
  // JsonScanner recorded them. Ids of `up` events are interned in `table`;
  // other ids and hint keys are only looked up. With `raw_hint`, an
  // arrival's hint is also kept as compact JSON text (Hint::raw_json). The
  // event's time must be at least `not_before` (events come in
  // non-decreasing t); that is checked last, and an event rejected for any
  // reason registers nothing. The event's strings view `value`'s text or
  // this decoder's buffers: they stay valid until the next call. Throws
  // FieldError.
  void Decode(const JsonView& value, std::span<const JsonMember> members,
              InstanceTable& table, TraceEvent& event, bool raw_hint = false,
              double not_before = -std::numeric_limits<double>::infinity());

  // How arrivals' hint values are read from now on (typed by default).
  void set_hint_reading(HintReading reading) { hint_reading_ = reading; }

  // Where the keys it passes over are noted (may be null: nowhere).
  void set_near_misses(KeyNearMisses* near_misses) { near_misses_ = near_misses; }

 private:
  // hint.queue_depths.per_instance[<id>] for every interned id into `out`,
  // in one walk over the hint's text; any other shape carries no queue
  // information. Values are read by hint_reading_.
  void DecodeHint(const JsonView& hint, const InstanceTable& table, Hint& out);
  // One per_instance entry, its key `id`, its value at the walker.
  void DecodeQueueEntry(const JsonView& id, JsonWalker& w, const InstanceTable& table, Hint& out);

  HintReading hint_reading_;
  // Which per_instance map an Instance's entry was last decoded from (a
  // count of maps), and its place in Hint::queues: a repeated id is found
  // without a search.
  std::uint64_t hints_ = 0;
  std::vector<std::uint64_t> entry_hint_;  // by InstanceIndex
  std::vector<std::uint32_t> entry_slot_;  // by InstanceIndex
  // The Instance of the k-th entry of the last map decoded.
  std::vector<InstanceIndex> last_ids_;
  std::string key_;       // decoded keys with escapes
  std::string text_;      // decoded `type` with escapes
  std::string instance_;  // decoded instance id with escapes
  std::string request_;   // decoded request id with escapes
  std::string proxy_choice_;  // decoded proxy_choice id with escapes
  KeyNearMisses* near_misses_ = nullptr;
};

}  // namespace lbsim
