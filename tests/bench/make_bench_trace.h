#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lbsim::bench {

// How arrivals name their request.
enum class IdStyle { kNone, kShort, kUuid };  // none, "r123", a 36-character UUID
// How times are written: 1234 (ms), 1.234567 (s), or Unix seconds with
// seven decimals as Python's time.time() prints them (1764750001.2345678).
enum class TimeStyle { kIntegerMs, kFractionalSeconds, kUnixSeconds };

// Shape of a synthetic trace for benchmarks: a pool registered in the
// header with known load, arrivals with durations, and a load snapshot of
// a random Instance every few arrivals.
struct BenchTraceShape {
  std::uint64_t arrivals = 1'000'000;
  std::uint32_t instances = 16;
  std::uint32_t arrivals_per_snapshot = 10;  // one load event per this many arrivals
  // Arrivals come 0 to this many microseconds apart (uniform).
  std::uint32_t max_gap_us = 3000;
  // One arrival in this many carries a queue-depth hint for two Instances;
  // 0: no hints. (The older, lighter hint; see hint_percent.)
  std::uint32_t arrivals_per_hint = 0;
  std::uint64_t seed = 42;
  bool document = false;  // a JSON document instead of JSON Lines

  // The shapes users have (issue 23). Defaults give the bench's older
  // shape: no ids, integer ms, no realistic hints, integer load values.
  IdStyle ids = IdStyle::kNone;
  TimeStyle times = TimeStyle::kIntegerMs;
  // Percent of arrivals carrying a Proxy-style hint: queue_depths.
  // per_instance with the four L2 keys for every Instance.
  std::uint32_t hint_percent = 0;
  // Load snapshots with a fractional qps_1m and, one in 20, a null.
  bool float_loads = false;
  // Each hint names about 7 in 8 of the Instances, from a random one on,
  // as a Proxy's map that changes from hint to hint; otherwise every
  // Instance in pool order.
  bool varying_hints = false;
  // Hints as the Proxy's queue_pressure_snapshot builds them
  // (cacheroute@28e857c): the prepare and ready totals before the map, and
  // per Instance six counts and three float times in ms (0.0 or, half the
  // time, up to 400 ms with Python's shortest digits); otherwise the four
  // L2 keys alone.
  bool proxy_hints = false;
  // Proxy-built hints as an exporter re-encodes them: each entry without
  // its zero values (Go's omitempty, a script's `if v`) and its keys in a
  // hash map's order, so that entries come in hundreds of key layouts.
  bool exported_hints = false;
  // Arrivals also carry what a Proxy's log holds beside the trace's keys:
  // the model, whether the request streams, and the Instance the Proxy
  // picked (all passed over by the replay).
  bool log_keys = false;
  // Arrivals also carry the request's chat body, as a log that keeps the
  // request writes it: "messages", a system and a user message, the user's
  // 8 to 80 words, some with a quote or a line break escaped (passed over
  // by the replay: a nested array of objects).
  bool chat_bodies = false;
  // Arrivals also carry four keys the replay passes over, each on half of
  // them (a user, a stream flag, a priority, a session), as a writer that
  // leaves out what it has no value for writes them: sixteen layouts of
  // arrival, thirty-two with the hinted ones.
  bool sparse_keys = false;
  // Arrivals also carry prefix_blocks, as lbsim import writes a Mooncake
  // trace's hash_ids and lbsim gen --prefixes draws them: the first 4 to
  // 40 ids of one of 300 shared prompts, then 0 to 10 of the request's own
  // (read by the replay: every strategy's prefix cache, and kv_aware's).
  bool prefix_blocks = false;
  // Written as a Python script's json.dumps writes what it has: times and
  // durations in seconds as Python's shortest digits of a float (up to 17
  // significant), a request id on 7 in 10 arrivals and a duration on 8 in
  // 10, qps_1m on 7 in 10 load snapshots (inflight null on 1 in 20), and
  // in each hint, beside its queues, the request as a flat object.
  bool script = false;
  // Requests last as long as an LLM's do, 1 to 20 s (thousands in flight
  // at once), instead of 20 to 420 ms (about 150).
  bool long_requests = false;
};

// The realistic shape the headline figures use: UUID request ids,
// fractional seconds, a hint on 10% of arrivals, float loads with nulls.
BenchTraceShape RealisticShape();

// "uuid ids, s times, 10% hints" and the like.
std::string Describe(const BenchTraceShape& shape);

// Writes the trace to `path` (deterministic for a shape) and waits until it
// is on disk; returns the number of events written.
std::uint64_t WriteBenchTrace(const std::string& path, const BenchTraceShape& shape);

}  // namespace lbsim::bench
