#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lbsim {

// How far a figure may move between two reports before it is flagged. A
// change is flagged when it is MORE than its tolerance.
struct DiffTolerances {
  double share = 0.02;     // an Instance's share of decisions (absolute)
  double fairness = 0.02;  // each fairness value (absolute)
  double reasons = 0.02;   // a reason count, as a fraction of the decisions
  double engine = 0.05;    // an engine figure (latency, throughput), relative
};

// One figure of one strategy in both reports.
struct DiffRow {
  enum class Kind { kShare, kFairness, kReason, kEngine };
  Kind kind = Kind::kShare;
  std::string name;  // Instance id, fairness key, reason word or engine figure
  std::optional<double> base, next;  // nullopt: null (undefined) or absent
  bool flagged = false;
};

// One strategy of the base report paired with one of the new report.
struct StrategyDiff {
  std::string base_label, next_label;  // empty: no such strategy on that side
  std::string base_requested, next_requested;
  std::uint64_t decisions = 0;
  std::vector<DiffRow> rows;  // shares, then fairness, reasons, engine figures
};

struct ReportDiff {
  std::string base_path, next_path;
  std::string trace_name;
  std::uint64_t arrivals = 0;
  std::size_t instances = 0;
  DiffTolerances tolerances;
  std::vector<StrategyDiff> strategies;

  // Flagged rows, plus strategies present on one side only (one figure
  // each), and all figures compared.
  std::size_t flagged() const;
  std::size_t rows() const;
};

// Compares two JSON reports (`lbsim --format json`) of the same trace, per
// strategy and Instance. Strategies are paired by `pairs` (base label, new
// label) when given; otherwise by label, or the two only strategies when
// each report has exactly one. Throws InputError naming the file and key
// when a file is not an lbsim report or the reports are of different
// traces, and UsageError for a pair label that a report does not have.
ReportDiff DiffReports(const std::string& base_path, const std::string& next_path,
                       const DiffTolerances& tolerances,
                       const std::vector<std::pair<std::string, std::string>>& pairs = {});

// The comparison as a table, flagged rows marked, ending in a summary line.
std::string RenderDiffText(const ReportDiff& diff);

}  // namespace lbsim
