#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/hint.h"
#include "strategies/proxy_profile.h"

namespace lbsim {

enum class EventType : std::uint8_t { kUp, kDown, kRemove, kLoad, kArrival };

// The Proxy route an arrival came in on (its `route` key): chat requests are
// forwarded chunked (the first chunk is the first token), completions
// requests unchunked (one chunk, at the end).
enum class RequestRoute : std::uint8_t { kChat, kCompletions };

// A field an event may set: absent (leave as is), null (set unknown) or a
// value.
template <typename T>
struct FieldUpdate {
  enum class State : std::uint8_t { kAbsent, kNull, kValue };
  State state = State::kAbsent;
  T value{};

  bool present() const { return state != State::kAbsent; }
  std::optional<T> AsOptional() const {
    return state == State::kValue ? std::optional<T>(value) : std::nullopt;
  }
};

// An event time as written: its value, and whether the literal was an
// integer (so that the decision log can echo 2 as 2 and 2.0 as 2.0).
struct TraceTime {
  double value = 0.0;
  bool integral = false;
  std::uint64_t integer = 0;  // the literal when `integral`
};

// Instance registered in the header, before the first event.
struct HeaderInstance {
  std::string id;
  double weight = 1.0;
  std::optional<std::int64_t> inflight;
  std::optional<double> qps_1m;
  bool alive = true;
  // lbsim extension (the what-if service model): relative service speed,
  // > 0; absent means 1.
  double speed = 1.0;
};

// The largest token count an arrival may carry (`input_tokens`,
// `output_tokens`): integers up to 2^53 stay exact as doubles.
inline constexpr std::uint64_t kMaxTokens = std::uint64_t{1} << 53;

// A v1 trace header, validated.
struct TraceHeader {
  std::string name;
  std::string description;
  std::string time_unit = "s";
  std::vector<HeaderInstance> instances;
  // The Proxy profile the trace was written for (its "proxy" key); null
  // when it names none. A profile chosen for the run wins over it.
  const ProxyProfile* proxy = nullptr;
  // How many prompt tokens each `prefix_blocks` id stands for (its
  // "prefix_block_tokens" key, an lbsim extension read by the LLM engine
  // model); null when the header does not say.
  std::optional<std::uint64_t> prefix_block_tokens;
  // The strategy the recorded Proxy ran (its "proxy_strategy" key, written
  // by `lbsim import --from cacheroute-record`): an lbsim strategy name, or
  // the Proxy's class name when lbsim has none; empty when not recorded.
  std::string proxy_strategy;
  // The interpreter the recorded Proxy ran on (its "python" key: "3.11" or
  // "3.12"); a run's --python wins over it. Null when it names none.
  std::optional<PythonVersion> python;
};

// One validated trace event. Reused between events by the readers; its
// strings view the reader's buffers and are valid only while the event is
// being handled. A new field is set by EventDecoder::Decode, reset by
// ClearFields and by LineLayouts' arrival path (unless a layout reads it),
// and sent whole by ReadAhead (its Packs); kTraceEventSize below makes the
// build fail until those places are looked at.
struct TraceEvent {
  EventType type = EventType::kArrival;
  TraceTime t;
  // Where it came from: the line (JSON Lines, 1-based) or the index into
  // `events` (JSON document, 0-based).
  std::uint64_t position = 0;

  // up, down, remove, load: the Instance named, and its interned index when
  // it was ever registered (always set for `up`).
  std::string_view instance;
  std::optional<InstanceIndex> index;

  // up, load
  std::optional<double> weight;  // up only
  std::optional<double> speed;   // up only; lbsim extension (service model)
  FieldUpdate<std::int64_t> inflight;
  FieldUpdate<double> qps_1m;

  // arrival
  std::optional<std::string_view> request;
  std::optional<double> duration;
  // Token counts (lbsim extension, read by the LLM engine model): the
  // prompt's and the response's.
  std::optional<std::uint64_t> input_tokens;
  std::optional<std::uint64_t> output_tokens;
  // The Proxy queue model's fields (lbsim extension, read by --proxy-queue):
  // time from forwarding to the first chunk (at most `duration`), the
  // route, and the knowledge tokens the Proxy's predictor adds.
  std::optional<double> ttft;
  std::optional<RequestRoute> route;
  std::optional<std::uint64_t> knowledge_tokens;
  // What the recorded Proxy chose for this arrival (lbsim extension, written
  // by `lbsim import --from cacheroute-record`; the replay compares each
  // decision with it): an Instance id, null when it chose none (a refusal,
  // or nothing alive), absent when not recorded.
  FieldUpdate<std::string_view> proxy_choice;
  Hint hint;
  // An arrival whose hint the reader left to the visiting thread (see
  // DeferredHints): its line, and where in it the hint's text begins and
  // ends; `hint.queues` is then empty until that thread reads it. Empty
  // otherwise.
  std::string_view deferred_line;
  std::uint32_t deferred_hint_begin = 0;
  std::uint32_t deferred_hint_end = 0;

  // Unsets every field but type, t and position.
  void ClearFields() {
    instance = {};
    index.reset();
    weight.reset();
    speed.reset();
    inflight = {};
    qps_1m = {};
    request.reset();
    duration.reset();
    input_tokens.reset();
    output_tokens.reset();
    ttft.reset();
    route.reset();
    knowledge_tokens.reset();
    proxy_choice = {};
    hint.Clear();
    deferred_line = {};
  }
};

// The size of TraceEvent that EventDecoder, LineLayouts and ReadAhead were
// last checked against (x86-64); line_layouts.cc and read_ahead.cc assert it.
inline constexpr std::size_t kTraceEventSize = 376;

}  // namespace lbsim
