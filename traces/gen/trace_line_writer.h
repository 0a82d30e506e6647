#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "strategies/proxy_profile.h"
#include "traces/gen/instance_schedule.h"
#include "traces/trace_reader.h"

namespace lbsim {

// One Instance of a generated header.
struct GeneratedInstance {
  std::string id;
  std::optional<double> weight;
  std::optional<double> speed;
  std::optional<std::int64_t> inflight;  // absent: unknown
  std::optional<double> qps_1m;          // absent: unknown
};

// A write of the trace failed; the message is the reason (strerror), for
// the caller to put after the output's name.
class TraceWriteError : public UsageError {
 public:
  using UsageError::UsageError;
};

// What the Proxy queue model reads of an arrival's response.
struct ArrivalResponse {
  std::optional<double> ttft;  // from forwarding to the first chunk
  bool completions = false;    // the completions route
};

// Writes a trace format v1 trace, one event at a time, through a buffer:
// memory does not grow with the number of events. JSON Lines (a header
// line, then one event a line), or with TraceEncoding::kDocument one JSON
// document (the header's keys, then "events": one event a line), which
// Finish closes.
class TraceLineWriter {
 public:
  explicit TraceLineWriter(std::FILE* out, TraceEncoding encoding = TraceEncoding::kLines)
      : out_(out), document_(encoding == TraceEncoding::kDocument) {}
  TraceLineWriter(const TraceLineWriter&) = delete;
  TraceLineWriter& operator=(const TraceLineWriter&) = delete;

  // The header line; a `seed` is echoed under the extra key "lbsim_gen", a
  // `proxy` (may be null) as "proxy", a `prefix_block_tokens` under that key,
  // a `proxy_strategy` (when not empty) and a `python` too.
  void Header(std::string_view name, std::string_view description,
              std::string_view time_unit, std::optional<std::uint64_t> seed,
              const ProxyProfile* proxy, const std::vector<GeneratedInstance>& instances,
              std::optional<std::uint64_t> prefix_block_tokens = std::nullopt,
              std::string_view proxy_strategy = {},
              std::optional<PythonVersion> python = std::nullopt);
  // The token counts of an arrival.
  struct Tokens {
    std::uint64_t input = 0;
    std::uint64_t output = 0;
  };
  using Response = ArrivalResponse;
  // An arrival: t, type, duration, the token counts when given,
  // `prefix_blocks` when not empty, then ttft and route when given.
  void Arrival(double t, double duration,
               std::span<const std::uint64_t> prefix_blocks = {},
               std::optional<Tokens> tokens = std::nullopt, Response response = {});
  // An arrival as a recorded Proxy saw it: t, type, the request id when
  // given, the duration when known, `hint_json` (a JSON object's text) when
  // not empty, then proxy_choice (the Instance the Proxy chose; null when
  // `proxy_choice` is null: it chose none).
  void RecordedArrival(double t, std::optional<std::string_view> request,
                       std::optional<double> duration, std::string_view hint_json,
                       const std::string* proxy_choice);
  void Change(const InstanceChange& change);
  void Load(double t, std::string_view id, std::optional<std::int64_t> inflight,
            std::optional<double> qps_1m);
  // Writes out what is buffered; throws TraceWriteError when the stream fails.
  void Flush();
  // Ends the trace (a document's closing brackets) and flushes it.
  void Finish();

  std::uint64_t events() const { return events_; }
  std::uint64_t arrivals() const { return arrivals_; }

 private:
  void Number(double x);
  // Appends ,"key":x.
  void NumberKey(std::string_view key, double x);
  // Opens an event's object: `{"t":`, after the separator a document needs.
  void BeginEvent();
  void EndLine();

  std::FILE* out_;
  bool document_ = false;
  std::string buffer_;
  std::uint64_t events_ = 0;
  std::uint64_t arrivals_ = 0;
};

}  // namespace lbsim
