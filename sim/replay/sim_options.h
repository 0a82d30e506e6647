#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/replay/engine_config.h"
#include "sim/replay/slo.h"
#include "sim/replay/what_if_ranges.h"
#include "strategies/block_cache.h"
#include "strategies/proxy_profile.h"

namespace lbsim {

// The LLM engine model's options (docs/engine.md); off by default.
struct EngineModelOptions {
  // An engine of this configuration behind every Instance serves each
  // arrival by its tokens; null turns the model off.
  std::shared_ptr<const EngineConfig> config;
  // The file `config` was read from (an input no output may replace);
  // empty for a built-in.
  std::string config_file;
  // Engine signals: every signal_interval from the first event each
  // engine's queue state is snapshotted and published signal_delay later
  // (plus a uniform [0, signal_jitter) drawn per Instance and snapshot from
  // SimOptions::seed) under the hint keys least_load reads; 0 turns them
  // off (arrivals see the trace's hints only).
  double signal_interval = 0.0;
  double signal_delay = 0.0;
  double signal_jitter = 0.0;
  // Bounds every served request is checked against (SLO figures); none: off.
  SloOptions slo;

  bool on() const { return config != nullptr; }
  bool signals() const { return signal_interval > 0.0; }
};
// The most ready workers per Instance the Proxy queue model takes.
inline constexpr std::uint32_t kMaxReadyConcurrency = kReadyConcurrencyRange.max;

// The Proxy queue model's options (--proxy-queue, docs/proxy-queue.md);
// off by default. The settings are the Proxy operator's.
struct ProxyQueueOptions {
  // The pinned Proxy version's queue manager between each strategy and the
  // Instances; least_load reads its snapshot at every decision.
  bool on = false;
  std::uint32_t ready_concurrency = 8;    // READY_CONCURRENCY, >= 1
  std::uint32_t prepare_concurrency = 8;  // PREPARE_CONCURRENCY, >= 1
  // a, b, c, d of the predictor's ttft_coefficients.json (shipped: zeros).
  std::array<double, 4> coefficients{};
  // Dispatch polls one strategy run may take (kMaxDispatchPolls).
  std::uint64_t max_dispatch_polls = std::uint64_t{1} << 30;
};

// Limits of the what-if parts, each for one replay, shared by its strategy
// runs (every run keeps its own windows and snapshots): past one, the run
// stops with a usage error naming the option to change, before memory or
// time runs away.
// Window figures kept: windows x Instances, summed over the runs (a row of
// the window CSV each). A JSON report spends about 700 bytes on one (its
// tree and its text), so this many fit in about 1 GiB.
inline constexpr std::uint64_t kMaxWindowFigures = 1'000'000;
// With the engine model a window x Instance figure counts this many times:
// it carries the engine's four figures besides.
inline constexpr std::uint64_t kEngineWindowWeight = 2;
// Snapshot values taken: snapshots x Instances, summed over the runs (a
// replay at the limit takes seconds to some tens of seconds).
inline constexpr std::uint64_t kMaxSnapshotValues = 16'000'000;
// Engine signal values taken, summed over the runs: they are published and
// dropped as the run goes, so this bounds time (about 75 ns a value: a
// minute at the limit), not memory; the pending ones below bound memory.
inline constexpr std::uint64_t kMaxSignalValues = 1'000'000'000;
// Snapshot values taken and not yet published, at once.
inline constexpr std::uint64_t kMaxPendingSnapshotValues = 1'000'000;

// The opt-in what-if parts of a run. Every default is "off": a run with
// default options replays trace format v1 exactly. Times are in the trace's
// own unit.
struct SimOptions {
  // Service model: each Instance runs at most `slots` requests at once, the
  // rest wait FIFO; 0 turns the model off (a request completes `duration`
  // after its arrival).
  std::uint32_t slots = 0;
  // Service speeds by Instance id, overriding the trace's `speed` keys,
  // and what set them, for messages ("--speed", "options.speeds").
  std::vector<std::pair<std::string, double>> speeds;
  std::string speeds_origin = "--speed";

  // Stale metrics: strategies see a snapshot of each inflight counter taken
  // every `stale_interval` from the first event and published `stale_delay`
  // later, plus a uniform [0, stale_jitter) drawn per Instance and snapshot
  // from `seed`. 0 turns it off (strategies see the live counter).
  double stale_interval = 0.0;
  double stale_delay = 0.0;
  double stale_jitter = 0.0;
  std::uint64_t seed = 1;

  // Time series: per-window figures for windows [k*window, (k+1)*window);
  // 0 turns them off.
  double window = 0.0;

  // LLM engine model: engines behind the Instances, and their signals.
  EngineModelOptions engine;

  // The Proxy's own queue between the strategies and the Instances.
  ProxyQueueOptions proxy_queue;

  // KV-cache capacity of each simulated Instance, in blocks. Not a what-if
  // part: it only matters when arrivals carry prefix_blocks, and every
  // strategy's prefix hit rate is measured against these caches.
  std::size_t cache_blocks = kDefaultCacheBlocks;

  // The Proxy the run replays. Not a what-if part: by default the trace
  // header's profile, else the latest pinned Proxy version.
  ProxyChoice proxy;

  // Chart series (the HTML report): each run's decisions by reason, picks,
  // herding and outstanding requests over time, in a bounded number of
  // buckets (ChartSeries). Not a what-if part: it changes no decision and
  // no figure of the other reports; the run only takes the exact-order
  // path the what-if parts take, which costs time.
  bool charts = false;
  // The strategy runs of the replay, which share the limits above (set by
  // Replay).
  std::size_t runs = 1;
  // The replays whose reports are held together (one per --seeds seed):
  // their runs share the window figures too (snapshots end with a replay).
  std::size_t replays = 1;

  bool service() const { return slots > 0; }
  bool stale() const { return stale_interval > 0.0; }
  bool windows() const { return window > 0.0; }
  bool engine_model() const { return engine.on(); }
  bool signals() const { return engine.signals(); }
  // Whether any what-if part is on (the report then has its sections).
  bool any() const { return service() || stale() || windows() || engine_model(); }
  // Whether a run keeps a load timeline (completions in exact order).
  bool timed() const { return any() || charts || proxy_queue.on; }
};

// Parses "ID=SPEED" (SPEED a finite number > 0); throws UsageError naming
// `flag` otherwise.
std::pair<std::string, double> ParseSpeedAssignment(std::string_view text,
                                                    std::string_view flag);

// Checks combinations the command line cannot express alone (a speed
// without a service model, a delay without stale metrics, the service
// model with the engine model, signals without it); throws UsageError.
void CheckSimOptions(const SimOptions& options);

}  // namespace lbsim
