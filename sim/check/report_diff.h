#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/report/figure_catalogue.h"

namespace lbsim {


// The name of `family` on the command line and in outputs ("latency").
std::string_view DiffFamilyName(DiffFamily family);
// Every family, in DiffFamily order.
std::vector<DiffFamily> AllDiffFamilies();

// How far a figure may move: a change is flagged when it is MORE than the
// absolute tolerance AND more than the relative one (a fraction of the
// base value's magnitude). For kReason, kCount and kHerding the absolute
// tolerance is a fraction of the decisions.
struct Tolerance {
  double abs = 0.0;
  double rel = 0.0;
};

// The tolerances of a diff: one per family, then overrides for figures
// whose dotted path ("what_if.service.latency.p99") is, or starts with
// whole segments of, `path` (the longest such path wins).
struct DiffTolerances {
  DiffTolerances();
  Tolerance family[15];
  std::vector<std::pair<std::string, Tolerance>> overrides;

  Tolerance& of(DiffFamily f) { return family[static_cast<int>(f)]; }
  const Tolerance& of(DiffFamily f) const { return family[static_cast<int>(f)]; }
  // The override that covers the figure at `path` (the longest), if any.
  const Tolerance* Override(const std::string& path) const;

  // Applies "NAME=TOL" (--tol): NAME a family or a figure path, TOL "A"
  // (absolute), "R%" (relative) or "A,R%"; throws UsageError.
  void Set(std::string_view assignment);
  // The single-family flags: --share-tol, --fairness-tol, --reason-tol,
  // --engine-tol (relative).
  double& share() { return of(DiffFamily::kShare).abs; }
  double& fairness() { return of(DiffFamily::kFairness).abs; }
  double& reasons() { return of(DiffFamily::kReason).abs; }
  double& engine() { return of(DiffFamily::kEngine).rel; }
};

// What may differ between the two reports' runs (--allow-different).
struct DiffAllowances {
  bool trace = false;       // another trace (name, counts or Instances)
  bool proxy = false;       // another Proxy profile or interpreter
  bool simulation = false;  // other what-if options or seeds

  // Applies "trace", "proxy", "simulation" or a comma list; throws UsageError.
  void Allow(std::string_view what);
};

// How a diff is asked to judge.
struct DiffOptions {
  DiffTolerances tolerances;
  DiffAllowances allow;
  // Strategy pairs (base label, new label); empty: by label, or the two
  // only strategies.
  std::vector<std::pair<std::string, std::string>> pairs;
  // Flag a change only when also the two reports' [min, max] over their
  // seeds do not overlap (reports made with --seeds).
  bool beyond_spread = false;
  // Flag only changes for the worse where a figure has a worse direction
  // (the figure catalogue's); others either way.
  bool only_worse = false;
};


// One figure of one strategy in both reports.
struct DiffRow {
  std::string figure;  // dotted path from the strategy, e.g. "share.inst-a"
  DiffFamily family = DiffFamily::kCount;
  Worse worse = Worse::kNeither;  // which change --only-worse flags
  std::optional<double> base, next;  // nullopt: null (undefined) or absent
  // Null means nothing was found (the catalogue's null_is_zero): for
  // --only-worse, a figure that becomes null moved to 0.
  bool null_is_zero = false;
  // [min, max] over the seeds, when the report carries a spread for it.
  std::optional<std::pair<double, double>> base_spread, next_spread;
  // Its tolerance; unset for a detail figure (per Instance or window)
  // that no --tol names: compared and listed, never flagged.
  std::optional<Tolerance> tolerance;
  bool headline = false;  // shown in the text even when unchanged
  bool flagged = false;
};

// One strategy of the base report paired with one of the new report.
struct StrategyDiff {
  std::string base_label, next_label;  // empty: no such strategy on that side
  std::string base_requested, next_requested;
  std::uint64_t decisions = 0;
  std::vector<DiffRow> rows;  // in the base report's order, then new-only figures
};

struct ReportDiff {
  std::string base_path, next_path;
  std::string trace_name;
  std::uint64_t arrivals = 0;
  std::size_t instances = 0;
  DiffOptions options;
  // Differences between the runs that --allow-different let through, one
  // line each ("simulation: {...} vs {...}").
  std::vector<std::string> allowed;
  std::vector<StrategyDiff> strategies;

  // Flagged rows, plus strategies present on one side only (one figure
  // each), and all figures compared.
  std::size_t flagged() const;
  std::size_t rows() const;
};

// Compares two JSON reports (`lbsim --format json`, with or without
// --seeds) per strategy: every figure each holds, latency, detectors and
// warnings included, in time linear in their size. Reason, tie and
// fallback counts are compared only between runs of the same strategy
// (their words are the strategy's own). Per-Instance and per-window
// what-if figures, and detectors' per-Instance figures, are details:
// listed, but flagged only under a --tol that names them. Throws InputError
// naming the file and key when a file is not an lbsim report;
// NotComparableError when the reports were made under different traces,
// Proxy profiles or simulation options that `options.allow` does not
// allow; UsageError for a pair label
// that a report does not have, or --beyond-spread without a seeded report.
ReportDiff DiffReports(const std::string& base_path, const std::string& next_path,
                       const DiffOptions& options);

// The comparison as a table: headline figures always, others when they
// changed, flagged rows marked, ending in a summary line.
std::string RenderDiffText(const ReportDiff& diff);
// Every compared figure as a JSON document.
std::string RenderDiffJson(const ReportDiff& diff);
// JUnit XML: one testsuite per strategy pair, one testcase per family of
// figures (and for the warnings), failing with the flagged figures.
std::string RenderDiffJUnit(const ReportDiff& diff);

}  // namespace lbsim
