#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/report/report.h"
#include "sim/sweep/sweep_figures.h"
#include "strategies/registry.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Cells one sweep may have: each is a strategy run with a result row, and
// the grid of cells is made whole before any runs. A larger grid is a
// usage error, found before anything is made.
inline constexpr std::uint64_t kMaxSweepCells = 100'000;
// Threads one sweep may use (-j).
inline constexpr unsigned kMaxSweepJobs = 1024;
// Bytes of all the slices one merge reads, together, and JSON values in
// one JSON slice (a 100,000-cell sweep writes about 130 MiB and 6 million).
inline constexpr std::size_t kMaxMergeBytes = 256u << 20;
inline constexpr std::size_t kMaxSliceValues = 8'000'000;

// One varied parameter: "NAME.KEY=V1,V2,..." gives every run of strategy
// NAME each of the values in turn; "sim.KEY=V1,V2,..." does the same for a
// what-if option of every strategy's run (see SetSimOption).
struct SweepAxis {
  std::string strategy;  // as written; "sim" for a what-if option
  std::string key;
  std::vector<std::string> values;

  // Parses "NAME.KEY=V1,V2,..."; throws UsageError.
  static SweepAxis Parse(std::string_view text);
  // "NAME.KEY" as written.
  std::string Name() const { return strategy + "." + key; }
  bool IsSim() const { return strategy == "sim"; }
};

// Sets what-if option `key` of `options` to `value` as the replay's flags
// would: slots (--slots), stale_interval, stale_delay, stale_jitter (0:
// off), window (0: off), seed (of the jitter), cache_blocks, or speed.ID
// (--speed ID=VALUE).
// `where` names the setting in errors; throws UsageError.
void SetSimOption(SimOptions& options, std::string_view key, std::string_view value,
                  std::string_view where);

// What a sweep runs: every combination (a cell) of trace x strategy x
// values of the varied parameters x seed.
struct SweepGrid {
  std::vector<std::string> traces;
  std::vector<std::string> strategies;  // specs as on the command line
  std::vector<std::string> settings;    // NAME.KEY=VALUE for every run of NAME
  std::vector<SweepAxis> axes;          // applied to the strategies they name, or "sim"
  // The what-if options of every cell, before the "sim" axes apply.
  SimOptions sim;
  std::vector<std::uint64_t> seeds;     // for strategies that take a `seed`
  TraceEncoding encoding = TraceEncoding::kAuto;
  // The Proxy every cell replays; by default each trace's header profile,
  // else latest.
  ProxyChoice proxy;
};

// One cell of the grid.
struct SweepCell {
  std::size_t index = 0;  // position in the grid's cell order
  std::size_t trace = 0;  // into SweepGrid::traces
  std::size_t sim = 0;    // which combination of the "sim" axes' values
  std::string spec;       // the strategy spec it runs, e.g. "ll:qps_1m=0"
  std::optional<std::uint64_t> seed;
  StrategyRequest request;
  SimOptions options;     // the what-if options of its replay
  std::vector<std::pair<std::string, std::string>> sim_values;  // ("slots", "4") per sim axis
};

// The cells of `grid` in their fixed order: by trace, then the values of
// the "sim" axes (the first slowest), then strategy, then its varied values
// (the first axis varies slowest), then seed. A strategy axis or the seeds
// apply only to strategies that declare the parameter; each must apply to
// some strategy, and no parameter may be varied twice. Throws UsageError
// for a bad grid, also one of more than kMaxSweepCells cells (before making
// any).
std::vector<SweepCell> ExpandSweep(const SweepGrid& grid, const StrategyRegistry& registry);

// Which slice of a sweep a process runs: shard `index` (1-based) of `count`.
struct SweepShard {
  std::size_t index = 1;
  std::size_t count = 1;

  // Parses "I/N" with 1 <= I <= N; throws UsageError.
  static SweepShard Parse(std::string_view text);
  // The cells [first, second) of a `cells`-cell grid this shard runs:
  // contiguous, so that a shard reads each trace as few times as possible.
  std::pair<std::size_t, std::size_t> Range(std::size_t cells) const;
};

// The figures of one cell.
struct SweepRow {
  std::size_t cell = 0;
  std::string trace;
  std::string strategy;  // canonical name
  std::string spec;
  std::optional<std::uint64_t> seed;
  std::string proxy;   // the Proxy profile it replayed
  std::string python;  // and its interpreter; empty for spec
  std::vector<ParamValues::Value> params;  // every value in force, under that profile
  std::uint64_t events = 0;
  std::uint64_t arrivals = 0;
  // The strategy run's report without its per-Instance and per-window
  // parts (see RunOfSweep): its figures, read through the figure
  // catalogue's columns.
  StrategyReport run;
  std::vector<std::pair<std::string, std::string>> sim_values;  // as in SweepCell
  std::vector<std::string> warnings;      // the names of its warnings, in report order

  // The run's parts, when it ran their models.
  const ServiceFigures* service() const;
  const EngineFigures* engine() const;
  const ProxyQueueFigures* proxy_queue() const;
};

// What a sweep (or a slice of one) produced.
struct SweepResult {
  SweepGrid grid;
  std::size_t cells = 0;                  // in the whole grid
  std::optional<SweepShard> shard;        // set when this is a slice
  std::vector<std::string> reason_words;  // of the grid's strategies, in order
  std::vector<SweepRow> rows;             // in cell order
};

// Runs the cells of `shard` (all cells when nullopt) on `jobs` threads. The
// strategies of a cell group that share a trace are replayed together, in
// one pass over it (at most kMaxStrategyRuns at once); the trace is read
// once per group. Rows come out in cell order whatever `jobs` is. Throws UsageError or
// InputError (the error of the earliest failing cell group).
SweepResult RunSweep(const SweepGrid& grid, const StrategyRegistry& registry,
                     std::optional<SweepShard> shard, unsigned jobs);

// What identifies a sweep (its grid) as 16 hexadecimal digits; every
// slice of it carries the same.
std::string SweepId(const SweepGrid& grid);

// A sweep result as CSV: a header row, then one row per cell; the third
// column, "sweep", holds SweepId, so that merge can tell slices of one
// sweep from another's.
std::string RenderSweepCsv(const SweepResult& result);
// A sweep result as a JSON document ending in a newline.
std::string RenderSweepJson(const SweepResult& result);
// A sweep result as one self-contained HTML page: a heatmap of each figure
// over the grid, a scatter of two figures per trace with the Pareto front
// marked, and every row's figures as a table (sweep_html.cc).
std::string RenderSweepHtml(const SweepResult& result, const SweepScatter& scatter);

// Joins slices of one sweep (the outputs of its shards, all CSV or all
// JSON, in any order; a UTF-8 byte order mark is ignored) into the output
// of the whole sweep: byte-identical to running it unsharded. `slices` are
// (name, content) pairs; throws InputError naming a slice that does not
// fit (another sweep, a missing or repeated cell, more than kMaxSweepCells
// cells, a row that is not one lbsim writes) or when no slice holds a row.
std::string MergeSweepSlices(const std::vector<std::pair<std::string, std::string>>& slices);

}  // namespace lbsim
