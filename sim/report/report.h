#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/replay/engine_stats.h"
#include "sim/replay/latency_recorder.h"
#include "sim/replay/replay.h"
#include "sim/replay/sim_options.h"
#include "sim/report/detectors.h"
#include "sim/report/fairness.h"
#include "sim/report/warning.h"
#include "strategies/params.h"

namespace lbsim {

// One Instance's line in a strategy's report.
struct InstanceReport {
  std::string id;
  std::uint64_t selections = 0;
  double share = 0.0;  // of the decisions that chose an Instance
  std::uint64_t candidate_decisions = 0;
  std::uint64_t fallback_selections = 0;
  std::uint64_t tie_selections = 0;
  // Decisions where its load was unknown while another candidate's was
  // known, and how many of them chose it.
  std::uint64_t unknown_while_others_known = 0;
  std::uint64_t chosen_while_unknown = 0;
  // Blocks its simulated KV cache holds at the end of the run.
  std::uint64_t cached_blocks = 0;
};

// How well a strategy's routing reused the simulated Instances' KV caches.
struct PrefixCacheReport {
  std::uint64_t capacity_blocks = 0;  // per Instance
  std::uint64_t requested_blocks = 0;
  std::uint64_t matched_blocks = 0;   // leading blocks already cached
  double hit_rate = 0.0;              // matched / requested
};

// The service model's figures for one Instance or a whole run.
struct ServiceFigures {
  LatencySummary latency;  // latency.served == 0: nothing served
  std::optional<double> utilisation;  // busy slot time / (slots x span)
  // The work routed (service time of every request) over the slot time of
  // the trace, from its first to its last event: at or above 1, more work
  // arrived than the slots can do. Unset for a trace without duration.
  std::optional<double> offered_utilisation;
};

// A distribution of per-request values (in the trace's time unit): exact
// count, max and mean; p50/p90/p99 within 0.4% above the exact nearest-rank
// values (LogHistogram). count == 0: none, every other field 0.
struct DistributionSummary {
  std::uint64_t count = 0;
  double p50 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double max = 0.0;
  double mean = 0.0;
};

// The LLM engine model's figures for one Instance or a whole strategy run
// (docs/engine.md).
// Requests within the SLO bounds (--slo), over a strategy run.
struct SloFigures {
  SloLimits limits;  // the bounds, in the trace's unit
  // Requests routed to an engine: served, rejected for its KV cache, or
  // (behind the Proxy's queue) never forwarded. Rejected and unforwarded
  // ones meet no bound.
  std::uint64_t requests = 0;
  // Of `requests`, the share within each bound given (null: not given or
  // no requests) and within all of them.
  std::optional<double> ttft, tpot, e2e, all;
  // Goodput, per second of the run's span: requests within all bounds,
  // and their output tokens.
  std::optional<double> requests_per_s, output_tokens_per_s;
};

struct EngineFigures {
  EngineCounters counters;
  DistributionSummary queue_delay, ttft, tpot, itl, e2e;
  // Of the served requests' prompt tokens, the share found cached.
  std::optional<double> prefix_hit_rate;
  // Per second of the run's span: output tokens made, and tokens computed
  // (prefill and decode).
  std::optional<double> output_tokens_per_s;
  std::optional<double> tokens_per_s;
  // Time-averaged over the span, and peak: KV blocks held / KV blocks, and
  // the batch size.
  std::optional<double> kv_utilisation_mean;
  double kv_utilisation_peak = 0.0;
  std::optional<double> batch_mean;
  std::int64_t batch_peak = 0;
  std::optional<SloFigures> slo;  // a strategy run's, with --slo
};

// The engine figures of one window, parallel to Report::instances.
struct EngineWindowReport {
  std::vector<std::uint64_t> output_tokens;
  std::vector<std::optional<double>> batch_mean;       // null: no part of it in the span
  std::vector<std::optional<double>> kv_utilisation;   // likewise
  std::vector<std::optional<double>> ttft_mean;        // null: no first token in it
};

// One window of a strategy run's time series.
struct WindowReport {
  double start = 0.0;
  double end = 0.0;
  std::uint64_t decisions = 0;
  std::uint64_t no_instances = 0;
  std::uint64_t fallback = 0;
  std::optional<double> fallback_rate;  // of decisions; null without any
  // Parallel to Report::instances.
  std::vector<std::uint64_t> selections;
  std::vector<double> share;  // of decisions in the window that chose
  // Time-averaged outstanding requests over the part of the window inside
  // the run's span; null when none of it is.
  std::vector<std::optional<double>> mean_inflight;
  // With the service model: latency and queue wait of the requests that
  // arrived in the window.
  std::optional<LatencySummary> service;
  std::optional<EngineWindowReport> engine;  // with the engine model
};

// What the Proxy queue model measured for one strategy run
// (--proxy-queue): times in the trace's unit, exact nearest-rank
// percentiles.
struct ProxyQueueFigures {
  std::uint64_t requests = 0;   // decisions
  std::uint64_t forwarded = 0;  // reached an Instance
  std::uint64_t stuck = 0;      // routed, never forwarded or never ended
  // Some stuck requests wait behind a completions request that ended but
  // stayed pending (the Proxy before 0927797).
  bool stalled_behind_completions = false;
  DistributionSummary wait;          // arrival to forwarded
  DistributionSummary client_ttft;   // arrival to first token
  DistributionSummary end_to_end;    // arrival to end
};

// What the what-if parts measured for one strategy run.
struct WhatIfReport {
  double span_start = 0.0;
  double span_end = 0.0;
  std::optional<ServiceFigures> service;  // with the service model
  // Parallel to Report::instances: time-averaged and peak outstanding
  // requests (routed, not yet completed), and the service figures.
  std::vector<std::optional<double>> inflight_mean;
  std::vector<std::int64_t> inflight_peak;
  std::vector<ServiceFigures> instance_service;  // empty without the model
  std::vector<WindowReport> windows;             // empty without --window
  std::optional<EngineFigures> engine;           // with the engine model
  std::vector<EngineFigures> instance_engine;    // parallel; empty without it
};

// One window of a strategy run's charts.
struct ChartWindowReport {
  double start = 0.0;
  double end = 0.0;
  std::uint64_t decisions = 0;  // no_instances and refused ones included
  std::uint64_t herded = 0;     // decisions inside herding runs
  std::vector<std::uint64_t> by_reason;   // parallel to StrategyChartsReport::reasons
  std::vector<std::uint64_t> selections;  // parallel to Report::instances
  // Time-averaged outstanding requests over the part of the window inside
  // the run's span, parallel to Report::instances; null when none of it is.
  std::vector<std::optional<double>> mean_inflight;
};

// The longest herding run of a strategy run, for its timeline.
struct HerdingRunReport {
  std::string instance;
  std::uint64_t length = 0;
  double first = 0.0;  // times of its first and last decision
  double last = 0.0;
};

// What the HTML report draws over time for one strategy run.
struct StrategyChartsReport {
  // Reason words in the report's order; kOtherReasons last when the run
  // gave more words than a chart series counts one by one.
  std::vector<std::string> reasons;
  std::vector<ChartWindowReport> windows;  // the same windows for every run
  std::optional<HerdingRunReport> longest_herding_run;
  // With the service model: nearest-rank latency quantiles
  // (kLatencyQuantiles per mille, latency); empty when nothing was served.
  std::vector<std::pair<std::uint32_t, double>> latency_quantiles;
  // With the engine model: the same of its requests' TTFT and E2E, over
  // every Instance (LogHistogram quantiles); empty when nothing was served.
  std::vector<std::pair<std::uint32_t, double>> ttft_quantiles, e2e_quantiles;
};

// The charts' time series: every strategy run cut into the same windows.
struct ChartsReport {
  double window = 0.0;          // the chart window's width, in the trace's unit
  std::size_t max_windows = 0;  // the most windows the width was chosen for
  std::vector<StrategyChartsReport> strategies;  // parallel to Report::strategies
};

// The name the charts give to reason words past ChartSeries::kMaxReasons.
inline constexpr const char* kOtherReasons = "(other words)";

// The Proxy a replay ran as.
struct ProxyReport {
  std::string profile;     // "cacheroute@28e857c", "spec"
  std::string python;      // "3.12"; empty for spec (no interpreter)
  std::string least_load;  // its least_load: "L1", "L2", "L3" or "spec"
  bool pinned = true;      // a real Proxy version (not spec)
  // Load fields of `up`/`load` events its heartbeats do not apply.
  std::uint64_t ignored_inflight = 0;
  std::uint64_t ignored_null_qps_1m = 0;
  std::vector<Warning> warnings;  // about the trace under this Proxy
};

// A run's decisions against the choices of the recorded Proxy (the
// arrivals' proxy_choice; docs/record-proxy.md).
struct ProxyChoicesReport {
  std::uint64_t compared = 0;  // decisions of arrivals with a recorded choice
  std::uint64_t equal = 0;     // of those, the ones equal to the Proxy's
  // The run is the recording's self-check: the strategy the Proxy ran
  // (the header's proxy_strategy), exactly as the pinned version runs it,
  // under the profile the trace names, with no what-if part that changes
  // decisions. Only its differences raise the proxy_differs warning.
  bool self_check = false;
  std::optional<ProxyChoiceCheck::Difference> first_difference;
};

// Everything reported about one strategy run.
struct StrategyReport {
  std::string strategy;      // canonical name
  std::string requested_as;  // as typed
  std::string label;         // unique within the report
  std::string status;
  std::vector<ParamValues::Value> params;
  std::uint64_t decisions = 0;
  std::uint64_t no_instances = 0;
  // Decisions the strategy refused as the Proxy's select() raises (503s).
  std::uint64_t refused = 0;
  // Routed arrivals without a duration that the Proxy counts forever.
  std::uint64_t never_completed = 0;
  // For the Proxy's own strategies under a pinned profile: whether the run
  // is exactly that version's (no parameter changed); unset otherwise.
  std::optional<bool> replays_proxy;
  // Set when the trace holds the recorded Proxy's choices.
  std::optional<ProxyChoicesReport> proxy_choices;
  std::uint64_t fallback_decisions = 0;
  std::uint64_t tie_decisions = 0;
  std::uint64_t unknown_excluded = 0;
  std::vector<std::pair<std::string, std::uint64_t>> reasons;
  std::vector<InstanceReport> instances;  // every Instance ever registered
  Fairness fairness;
  std::optional<std::string> longest_run_instance;
  std::uint64_t longest_run = 0;
  std::uint64_t longest_run_first_seq = 0;
  // Decisions inside runs of one Instance that herd (see DetectorReport).
  std::uint64_t herded_decisions = 0;
  // Present when the trace's arrivals carried prefix_blocks.
  std::optional<PrefixCacheReport> prefix_cache;
  // Parallel to instances: the share of picks each Instance's weight (or,
  // under the service model, speed) justifies (ExpectedShares::OfRun).
  std::vector<double> expected_share;
  DetectorReport detectors;
  std::vector<Warning> warnings;  // plain-language hazards, named
  std::optional<WhatIfReport> what_if;  // when a what-if option is on
  std::optional<ProxyQueueFigures> proxy_queue;  // with the Proxy queue model
};

struct Report {
  std::string trace_path;
  std::string trace_name;
  std::string trace_description;
  std::string time_unit;
  std::uint64_t events = 0;
  std::uint64_t arrivals = 0;
  std::vector<std::string> instances;
  ProxyReport proxy;
  std::vector<StrategyReport> strategies;
  std::optional<SimOptions> simulation;  // when a what-if option is on
  // With --signal-interval: some strategy run reads the signals' keys.
  bool engine_signals_read = false;
  std::optional<ProxyQueueOptions> proxy_queue;  // with the Proxy queue model
  std::optional<ChartsReport> charts;    // when the replay kept chart series
};

// The Proxy queue figures of one run's queue statistics.
ProxyQueueFigures BuildProxyQueueFigures(const ProxyQueueStats& stats);

// Derives shares, fairness and warnings from a replay.
Report BuildReport(const ReplayResult& result);
// The what-if figures of strategy run `r` (result.what_if must be set).
WhatIfReport BuildWhatIfReport(const ReplayResult& result, std::size_t r);
// Adds the engine figures of `stats` to `out`, whose span and windows are
// set: `instances` Instances, times in `time_unit`, KV utilisation of
// `kv_blocks` blocks.
void AddEngineFigures(const EngineStats& stats, std::size_t instances,
                      const std::string& time_unit, std::uint64_t kv_blocks, WhatIfReport& out);
// The SLO figures of a strategy run's engine counters `c` under `slo`, in
// a trace of `time_unit` whose span lasts `seconds`; `never_forwarded`
// requests were held by the Proxy's queue to the end.
SloFigures BuildSloFigures(const EngineCounters& c, const SloOptions& slo,
                           const std::string& time_unit, std::uint64_t never_forwarded,
                           double seconds);
// The charts' series of every strategy run of `report`, built from
// `result` (result.options.charts must be set): the narrowest chart window
// that the run's buckets allow, of 1, 2 or 5 x 10^k times their base width,
// giving at most ChartWindowLimit(arrivals) windows (docs/html-reports.md).
ChartsReport BuildChartsReport(const ReplayResult& result, const Report& report);
// The most chart windows for a trace of `arrivals`: 100, fewer for a short
// trace (about 5 arrivals a window), never fewer than 10.
std::size_t ChartWindowLimit(std::uint64_t arrivals);
// The latency quantiles the charts keep, per mille: 0 (the fastest), 10,
// 20, ..., 990, 995, 999, 1000 (the slowest).
const std::vector<std::uint32_t>& LatencyChartQuantiles();

// The report as JSON (trace format v1 "Report" keys, plus more), ending in
// a newline.
std::string RenderJson(const Report& report);
// The report as a human table with the strategies side by side.
std::string RenderTable(const Report& report);
// The table's content as GitHub-flavoured Markdown for a pull-request
// comment: the header lines, one table per section (a section longer than
// kMarkdownOpenRows folded under <details>), the parameters and the warnings.
std::string RenderMarkdown(const Report& report);
inline constexpr std::size_t kMarkdownOpenRows = 12;
// The report as one self-contained HTML page with charts (inline SVG, no
// script, no external resource); needs report.charts.
std::string RenderHtml(const Report& report);
// One CSV row per strategy x Instance, then one for the strategy's whole
// run (its instance field empty), with a header row.
std::string RenderCsv(const Report& report);
// The windows of every strategy run: one CSV row per strategy x window x
// Instance, with a header row.
std::string RenderWindowCsv(const Report& report);

}  // namespace lbsim
