#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lbsim {

struct EngineFigures;      // sim/report/report.h
struct ServiceFigures;     // sim/report/report.h
struct ProxyQueueFigures;  // sim/report/report.h
struct StrategyReport;     // sim/report/report.h

// The families of report figures; each has its own diff tolerance.
enum class DiffFamily {
  kShare,        // shares of picks, overall and per window (absolute)
  kFairness,     // the six fairness figures (absolute)
  kReason,       // reason counts (as a fraction of the decisions)
  kCount,        // other decision counts: selections, ties, candidates, served...
  kHerding,      // herded and alternating decisions (as a fraction of the decisions)
  kRun,          // lengths of runs and herding stretches
  kLatency,      // latency percentiles, max and mean
  kWait,         // queue-wait percentiles, max and mean
  kUtilisation,  // utilisation and offered utilisation (absolute)
  kInflight,     // mean and peak requests in flight
  kRate,         // fallback rates, prefix hit rate (absolute)
  kBlocks,       // prefix-cache block counts
  kDetector,     // other detector figures (windows in a streak or a burst)
  kEngine,       // the engine model's figures: TTFT, TPOT, E2E, batches, KV, tokens/s
  kWarning,      // a warning name raised or not (1 or 0; any change)
};

// Which way a figure gets worse.
enum class Worse : std::int8_t { kLower = -1, kNeither = 0, kHigher = +1 };

// A kind of figure of a strategy's JSON report (`strategies[]`), declared
// once: what `diff` and `check` know of it.
struct CatalogueEntry {
  // Its dotted path from the strategy object, a pattern: "*" stands for
  // one key (an Instance id, a reason word, a window's index), "**" for
  // any number of them.
  std::string_view path;
  // Its family; nullopt for what a diff does not compare (names,
  // parameters, positions, the seeds' spread).
  std::optional<DiffFamily> family;
  Worse worse = Worse::kNeither;
  bool headline = false;  // shown even unchanged (a whole-run figure only)
  bool strategy_words = false;  // a reason, tie or fallback count: the strategy's own
  // Null means nothing was found (a detector's stretch that did not
  // occur): it counts as 0 when judging which way the figure moved.
  bool null_is_zero = false;
};

// What the catalogue says of one figure.
struct FigureKind {
  std::optional<DiffFamily> family;  // nullopt: not compared
  Worse worse = Worse::kNeither;
  bool headline = false;
  // Per Instance or window, or a detector's figure about an Instance:
  // compared and listed, flagged only when a tolerance names it.
  bool detail = false;
  bool strategy_words = false;
  bool null_is_zero = false;
};

// The kind of the figure at `path` (its segments from the strategy object),
// or nullopt when no entry covers it: a figure lbsim does not know.
std::optional<FigureKind> FindFigure(std::span<const std::string> path);
// The same for a dotted path ("proxy_queue.client_ttft.p99").
std::optional<FigureKind> FindFigure(std::string_view dotted);

// A figure that is one number per CSV row (an Instance's or a strategy
// run's) of a part of the report, `Figures` (StrategyReport,
// ProxyQueueFigures, ServiceFigures, EngineFigures), declared once: a column of the replay's
// CSV, of the sweep's, or both, and with a title a figure the sweep's HTML
// draws. `path` is its place in the JSON report (a run's) and so its
// catalogue entry (family, which way is worse).
template <class Figures>
struct FigureColumn {
  std::string_view column;  // CSV column
  std::string_view path;
  std::string_view title = {};  // empty: not a sweep figure
  std::string_view spread = {};  // its row in the seeds' table; empty: none
  int decimals = 3;  // digits after the point where a page or table rounds it (a whole: none)
  bool in_report = true;        // a column of the replay's CSV
  bool in_sweep = true;         // a column of the sweep's CSV
  bool whole = false;           // a count, written as an integer
  std::optional<double> (*value)(const Figures& figures) = nullptr;  // nullopt: none
};

using RunColumn = FigureColumn<StrategyReport>;
using QueueColumn = FigureColumn<ProxyQueueFigures>;
using ServiceColumn = FigureColumn<ServiceFigures>;
using EngineColumn = FigureColumn<EngineFigures>;

// Each part's columns, in CSV order (each CSV takes its own). The Proxy
// queue's figures are a run's only: its Instance rows leave them empty.
// A strategy run's own figures (decisions, fairness, herding, the prefix
// cache) are the sweep's only: the replay's CSV has a row per Instance.
std::span<const RunColumn> RunColumns();
// The sweep's CSV writes a count per reason word after the first this
// many of RunColumns() (decisions, no_instances).
inline constexpr std::size_t kRunColumnsBeforeReasons = 2;
std::span<const QueueColumn> QueueColumns();
std::span<const ServiceColumn> ServiceColumns();
std::span<const EngineColumn> EngineColumns();

// A cell's text: empty for none, a whole count as an integer, else
// FigureText.
std::string CellText(const std::optional<double>& value, bool whole);
// The text of `column`'s cell for `figures`.
template <class Figures>
std::string Cell(const FigureColumn<Figures>& column, const Figures& figures) {
  return CellText(column.value(figures), column.whole);
}

// The CSV a row belongs to: each writes its own subset of the columns.
enum class Csv { kReplay, kSweep };

template <class Figures>
bool Writes(Csv csv, const FigureColumn<Figures>& column) {
  return csv == Csv::kReplay ? column.in_report : column.in_sweep;
}

// Appends ",NAME" for each of `columns` that `csv` writes.
template <class Figures>
void AppendColumnNames(std::string& out, Csv csv, std::span<const FigureColumn<Figures>> columns) {
  for (const FigureColumn<Figures>& c : columns)
    if (Writes(csv, c)) {
      out += ',';
      out += c.column;
    }
}

// Appends ",CELL" for each of `columns` that `csv` writes, from `figures`;
// empty cells when `figures` is null.
template <class Figures>
void AppendCells(std::string& out, Csv csv, std::span<const FigureColumn<Figures>> columns,
                 const std::type_identity_t<Figures>* figures) {
  for (const FigureColumn<Figures>& c : columns)
    if (Writes(csv, c)) {
      out += ',';
      if (figures) out += Cell(c, *figures);
    }
}

}  // namespace lbsim
