#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/fairness.h"
#include "sim/replay.h"
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
  std::uint64_t fallback_decisions = 0;
  std::uint64_t tie_decisions = 0;
  std::uint64_t unknown_excluded = 0;
  std::vector<std::pair<std::string, std::uint64_t>> reasons;
  std::vector<InstanceReport> instances;  // every Instance ever registered
  Fairness fairness;
  std::optional<std::string> longest_run_instance;
  std::uint64_t longest_run = 0;
  std::uint64_t longest_run_first_seq = 0;
  std::uint64_t herded_decisions = 0;
  std::vector<std::string> warnings;  // plain-language hazards
};

struct Report {
  std::string trace_path;
  std::string trace_name;
  std::string trace_description;
  std::string time_unit;
  std::uint64_t events = 0;
  std::uint64_t arrivals = 0;
  std::vector<std::string> instances;
  std::vector<StrategyReport> strategies;
};

// Derives shares, fairness and warnings from a replay.
Report BuildReport(const ReplayResult& result);

// The report as JSON (trace format v1 "Report" keys, plus more), ending in
// a newline.
std::string RenderJson(const Report& report);
// The report as a human table with the strategies side by side.
std::string RenderTable(const Report& report);
// One CSV row per strategy x Instance, with a header row.
std::string RenderCsv(const Report& report);

}  // namespace lbsim
