#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "base/json/json_limits.h"
#include "traces/instance_table.h"
#include "traces/trace_event.h"

namespace lbsim {

// How a trace file is encoded (trace format v1).
enum class TraceEncoding { kAuto, kDocument, kLines };

// Parses "auto", "document"/"json", "lines"/"jsonl"/"ndjson"; throws
// UsageError otherwise.
TraceEncoding ParseTraceEncoding(std::string_view text);

// The encoding a trace file name implies: .json is a document; .ndjson and
// .jsonl are JSON Lines, also followed by .gz, .zst or .zstd; nullopt
// otherwise (standard input "-" included).
std::optional<TraceEncoding> EncodingFromName(std::string_view path);
// The encoding lbsim writes a trace to `path` in (gen, import): the one its
// name implies, so that it reads back; JSON Lines for any other name and
// for standard output.
TraceEncoding WrittenEncoding(std::string_view path);

class InputFile;
// The encoding of the trace `input` opened from `path`: by its name, else
// by its content: a first line that is a whole JSON object without an
// "events" member is a JSON Lines header; anything else is a document.
// Peeks at the content without consuming it.
TraceEncoding DetectTraceEncoding(InputFile& input, const std::string& path);

// An error about one field of one event or header, without its location;
// the reader adds the file and line or index. Thrown by decoders and by
// TraceVisitor implementations.
class FieldError : public std::runtime_error {
 public:
  explicit FieldError(const std::string& message) : std::runtime_error(message) {}
};

// Receives a trace while it is read, header first, then each event in file
// order. OnEvent may throw FieldError or InputError to reject the event; the
// reader adds the file and line or index to the message.
class TraceVisitor {
 public:
  virtual ~TraceVisitor() = default;
  // Called once. The header's Instances are already interned in `table`,
  // in header order.
  virtual void OnHeader(const TraceHeader& header, const InstanceTable& table) = 0;
  virtual void OnEvent(const TraceEvent& event) = 0;
  // Whether arrivals must carry their hint as JSON text (Hint::raw_json).
  // Asked once, before the header.
  virtual bool WantsRawHint() const { return false; }
  // The Proxy the trace is replayed as, when the run chose one; with the
  // header's "proxy" it decides how hint values are read (ProxyRun's
  // hint_reading). Asked once, before the header.
  virtual ProxyChoice Proxy() const { return {}; }
  // Whether arrivals may come with their hint unread (TraceEvent's
  // deferred_line), for the visitor to read (see DeferredHints): null for
  // none, else the share of the lines a learned layout reads whose hint
  // may be left so, in eighths, which the visitor may change between two
  // events. Asked once, before the header; only the read-ahead's own
  // visitor takes any.
  virtual const std::uint8_t* DeferredHintShare() const { return nullptr; }
  // After OnHeader or OnEvent threw: how far into handling the event it
  // got, so that of several visitors fed the same event the failure met
  // first by feeding them in turn can be told (see ReadTraceAhead with
  // consumers). Lower is earlier; 0 unless a visitor tells.
  virtual std::size_t FailureRank() const { return 0; }
};

// Receives reading progress, every few MiB read.
class TraceProgress {
 public:
  virtual ~TraceProgress() = default;
  // `done` of `total` units of reading work are done (bytes; a JSON
  // document is read twice, so its total is twice its size; `total` is 0
  // when unknown, as for standard input) and `events` were handed on.
  virtual void Update(std::uint64_t done, std::uint64_t total, std::uint64_t events) = 0;
};

// Totals of what ReadTrace read.
// An event key that is no key of the format but one or two edits from one
// ("durration"): passed over like any unknown key, and reported, since its
// value is lost.
struct KeyNearMiss {
  std::string key;    // as written (unescaped)
  std::string known;  // the key it resembles
  std::string where;  // its first event: "line 12" or "events[3]"
  std::uint64_t position = 0;  // that event's (see TraceEvent::position)
};

// Distinct near-miss keys a trace reports at most (the first ones found).
inline constexpr std::size_t kMaxNearMisses = 8;

struct TraceCounts {
  std::uint64_t events = 0;
  std::uint64_t arrivals = 0;
  std::vector<KeyNearMiss> near_misses;  // in the order first found
};

// Limits that keep a hostile trace from taking the machine down: memory
// stays bounded and every step is cheap. Going past one is an input error
// naming the limit, also where the format would otherwise accept the input.
// Bytes of one JSON Lines line (without its newline).
inline constexpr std::size_t kMaxLineBytes = 64u << 20;
// Bytes of JSON text of one event, or of one header value, in a JSON document.
inline constexpr std::size_t kMaxValueBytes = 64u << 20;
// (Levels of nesting and JSON values in one event or header:
// kMaxNestingDepth and kMaxEventValues, in base/json/json_limits.h.)
// Distinct Instance ids in one trace.
inline constexpr std::size_t kMaxInstances = 10'000;
// Bytes of one Instance id or request id.
inline constexpr std::size_t kMaxIdBytes = 4096;
// Most requests one strategy run of a replay keeps in flight: routed with
// a duration and not yet completed, whether running or (with the service
// model) waiting for a slot. Each costs memory until it completes; the
// limit keeps a trace of endless durations from growing memory without
// bound. (gen and import refuse to write a trace past it.)
inline constexpr std::size_t kMaxInFlight = 1'000'000;
// (Bytes and values of a JSON file read whole: kMaxJsonFileBytes and
// kMaxJsonFileValues, in base/json/json_limits.h.)

// Reads the trace at `path` ("-": standard input; gzip or zstd content is
// decompressed, told by its magic bytes), validating every rule of trace
// format v1, and feeds it to `visitor` in one streaming pass: memory does
// not grow with the number of events. With kAuto the encoding comes from
// the name, else from the content (DetectTraceEncoding). A document from a
// pipe is copied to an unlinked temporary file first (it is read twice).
// Instance ids are interned in `table` as they are registered. `progress`,
// when given, hears how far reading got. Throws InputError whose one-line
// message names the file, the line or index, the field and what was
// expected.
TraceCounts ReadTrace(const std::string& path, TraceEncoding encoding,
                      InstanceTable& table, TraceVisitor& visitor,
                      TraceProgress* progress = nullptr);

// Reads a trace that is already a parsed JSON document (the header keys and
// "events"), such as one written inline in a scenario file, with exactly the
// rules of a trace file. Errors name `display_path` and the event index.
TraceCounts ReadTraceValue(const std::string& display_path,
                           const nlohmann::json& document, InstanceTable& table,
                           TraceVisitor& visitor);

}  // namespace lbsim
