// A sweep's result rows as CSV and as a JSON document.

#include <algorithm>

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "base/number_text.h"
#include "sim/io/csv.h"
#include "sim/report/engine_json.h"
#include "sim/report/fairness_json.h"
#include "sim/report/figure_catalogue.h"
#include "sim/report/queue_json.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// The count of reason `word` in `row`'s run (no_instances has its column).
std::uint64_t ReasonCount(const SweepRow& row, std::string_view word) {
  for (const auto& [w, count] : row.run.reasons)
    if (w == word && w != "no_instances") return count;
  return 0;
}

ojson SummaryJson(const LatencySummary& l) {
  if (l.served == 0) return nullptr;
  return {{"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}, {"max", l.max}, {"mean", l.mean}};
}

ojson WaitJson(const LatencySummary& l) {
  if (l.served == 0) return nullptr;
  return {{"p50", l.wait_p50}, {"p90", l.wait_p90}, {"p99", l.wait_p99}, {"max", l.wait_max},
          {"mean", l.mean_wait}};
}

ojson RowJson(const SweepRow& row) {
  ojson j;
  j["cell"] = row.cell;
  j["trace"] = row.trace;
  j["strategy"] = row.strategy;
  j["spec"] = row.spec;
  j["seed"] = row.seed ? ojson(*row.seed) : ojson(nullptr);
  j["proxy"] = row.proxy;
  j["python"] = row.python.empty() ? ojson(nullptr) : ojson(row.python);
  ojson params = ojson::object();
  for (const ParamValues::Value& p : row.params) {
    if (p.kind == ParamKind::kNumber || p.kind == ParamKind::kInteger)
      params[std::string(p.name)] = p.number;
    else
      params[std::string(p.name)] = p.text;
  }
  j["params"] = params;
  j["events"] = row.events;
  j["arrivals"] = row.arrivals;
  const StrategyReport& run = row.run;
  j["decisions"] = run.decisions;
  j["no_instances"] = run.no_instances;
  ojson reasons = ojson::object();
  for (const auto& [word, count] : run.reasons)
    if (word != "no_instances") reasons[word] = count;
  j["reasons"] = reasons;
  j["unknown_excluded"] = run.unknown_excluded;
  j["fairness"] = FairnessJson(run.fairness);
  ojson sim = ojson::object();
  for (const auto& [key, value] : row.sim_values) sim[key] = value;
  j["sim"] = sim;
  j["herded_decisions"] = run.herded_decisions;
  j["alternating_decisions"] = run.detectors.alternation_decisions;
  j["longest_run"] = run.longest_run;
  j["prefix_cache"] = ojson(nullptr);
  if (run.prefix_cache)
    j["prefix_cache"] = {{"requested_blocks", run.prefix_cache->requested_blocks},
                         {"matched_blocks", run.prefix_cache->matched_blocks},
                         {"hit_rate", run.prefix_cache->hit_rate}};
  j["service"] = ojson(nullptr);
  if (const ServiceFigures* service = row.service())
    j["service"] = {{"served", service->latency.served},
                    {"latency", SummaryJson(service->latency)},
                    {"wait", WaitJson(service->latency)},
                    {"utilisation", service->utilisation ? ojson(*service->utilisation) : ojson(nullptr)},
                    {"offered_utilisation", service->offered_utilisation
                                                ? ojson(*service->offered_utilisation)
                                                : ojson(nullptr)}};
  j["warnings"] = row.warnings;
  if (row.engine()) j["engine"] = EngineFiguresJson(*row.engine());
  if (row.proxy_queue()) j["proxy_queue"] = ProxyQueueFiguresJson(*row.proxy_queue());
  return j;
}

ojson SimJson(const SimOptions& o) {
  ojson speeds = ojson::object();
  for (const auto& [id, speed] : o.speeds) speeds[id] = speed;
  return {{"slots", o.slots},         {"speeds", speeds},
          {"stale_interval", o.stale_interval}, {"stale_delay", o.stale_delay},
          {"stale_jitter", o.stale_jitter},     {"seed", o.seed},
          {"window", o.window},       {"cache_blocks", o.cache_blocks}};
}

// What defines the cells; slices of one sweep carry the same.
ojson GridJson(const SweepGrid& grid) {
  ojson vary = ojson::object();
  for (const SweepAxis& axis : grid.axes) vary[axis.Name()] = axis.values;
  ojson j = {{"traces", grid.traces},
             {"strategies", grid.strategies},
             {"settings", grid.settings},
             {"vary", vary},
             {"seeds", grid.seeds},
             {"sim", SimJson(grid.sim)},
             {"proxy", grid.proxy.profile ? ojson(grid.proxy.profile->name) : ojson(nullptr)},
             {"python", PythonVersionName(grid.proxy.python.value_or(PythonVersion::k312))}};
  // The Proxy queue model's and the engine model's keys only when they are
  // on: other sweeps stay as they were.
  if (grid.sim.proxy_queue.on) j["proxy_queue"] = ProxyQueueOptionsJson(grid.sim.proxy_queue);
  if (grid.sim.engine.on()) {
    j["engine"] = EngineConfigReportJson(*grid.sim.engine.config);
    j["signals"] = grid.sim.engine.signals() ? ojson{{"interval", grid.sim.engine.signal_interval},
                                                 {"delay", grid.sim.engine.signal_delay},
                                                 {"jitter", grid.sim.engine.signal_jitter}}
                                         : ojson(nullptr);
  }
  return j;
}

}  // namespace

std::string SweepId(const SweepGrid& grid) {
  // FNV-1a, 64 bits, of the grid as JSON: stable across runs and machines.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : GridJson(grid).dump()) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

std::string RenderSweepJson(const SweepResult& result) {
  ojson j;
  j["lbsim_sweep"] = 1;
  j["sweep"] = SweepId(result.grid);
  j["grid"] = GridJson(result.grid);
  j["cells"] = result.cells;
  if (result.shard) j["shard"] = {{"index", result.shard->index}, {"count", result.shard->count}};
  ojson rows = ojson::array();
  for (const SweepRow& row : result.rows) rows.push_back(RowJson(row));
  j["results"] = rows;
  return j.dump(2) + "\n";
}

// The value of parameter `key` in `row`, empty when its strategy has none.
std::string ParamText(const SweepRow& row, std::string_view key) {
  for (const ParamValues::Value& p : row.params)
    if (p.name == key) return p.text;
  return "";
}

std::string RenderSweepCsv(const SweepResult& result) {
  // One column per varied parameter (the JSON has every value in force).
  std::vector<std::string> varied, sim_varied;
  for (const SweepAxis& axis : result.grid.axes) {
    std::vector<std::string>& list = axis.IsSim() ? sim_varied : varied;
    if (std::find(list.begin(), list.end(), axis.key) == list.end()) list.push_back(axis.key);
  }
  const std::string id = SweepId(result.grid);
  std::string out = "cell,cells,sweep,trace,strategy,spec,seed,proxy,python";
  for (const std::string& key : sim_varied) out += fmt::format(",sim_{}", key);
  for (const std::string& key : varied) out += fmt::format(",param_{}", key);
  out += ",events,arrivals";
  const std::span<const RunColumn> run = RunColumns();
  AppendColumnNames(out, Csv::kSweep, run.first(kRunColumnsBeforeReasons));
  for (const std::string& word : result.reason_words) out += fmt::format(",reason_{}", word);
  AppendColumnNames(out, Csv::kSweep, run.subspan(kRunColumnsBeforeReasons));
  AppendColumnNames(out, Csv::kSweep, ServiceColumns());
  out += ",warnings";
  const bool engine = result.grid.sim.engine.on();
  if (engine) AppendColumnNames(out, Csv::kSweep, EngineColumns());
  // With the Proxy queue model in some cell.
  const bool queue = std::any_of(result.rows.begin(), result.rows.end(),
                                 [](const SweepRow& row) { return row.proxy_queue() != nullptr; }) ||
                     result.grid.sim.proxy_queue.on;
  if (queue) AppendColumnNames(out, Csv::kSweep, QueueColumns());
  out += "\n";
  for (const SweepRow& row : result.rows) {
    out += fmt::format("{},{},{},{},{},{},{},{},{}", row.cell, result.cells, id,
                       CsvField(row.trace), row.strategy, CsvField(row.spec),
                       row.seed ? fmt::format("{}", *row.seed) : "", CsvField(row.proxy),
                       CsvField(row.python));
    for (const std::string& key : sim_varied) {
      std::string value;
      for (const auto& [k, v] : row.sim_values)
        if (k == key) value = v;
      out += ',';
      out += CsvField(value);
    }
    for (const std::string& key : varied) {
      out += ',';
      out += CsvField(ParamText(row, key));
    }
    out += fmt::format(",{},{}", row.events, row.arrivals);
    AppendCells(out, Csv::kSweep, run.first(kRunColumnsBeforeReasons), &row.run);
    for (const std::string& word : result.reason_words)
      out += fmt::format(",{}", ReasonCount(row, word));
    AppendCells(out, Csv::kSweep, run.subspan(kRunColumnsBeforeReasons), &row.run);
    AppendCells(out, Csv::kSweep, ServiceColumns(), row.service());
    std::string warnings;
    for (const std::string& w : row.warnings) {
      if (!warnings.empty()) warnings += ';';
      warnings += w;
    }
    out += ',';
    out += CsvField(warnings);
    if (engine) AppendCells(out, Csv::kSweep, EngineColumns(), row.engine());
    if (queue) AppendCells(out, Csv::kSweep, QueueColumns(), row.proxy_queue());
    out += "\n";
  }
  return out;
}

}  // namespace lbsim
