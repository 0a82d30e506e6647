// A sweep's result rows as CSV and as a JSON document.

#include <algorithm>

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "sim/io/csv.h"
#include "sim/report/fairness_json.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

std::string Number(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; }

std::uint64_t ReasonCount(const SweepRow& row, std::string_view word) {
  for (const auto& [w, count] : row.reasons)
    if (w == word) return count;
  return 0;
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
  j["decisions"] = row.decisions;
  j["no_instances"] = row.no_instances;
  ojson reasons = ojson::object();
  for (const auto& [word, count] : row.reasons) reasons[word] = count;
  j["reasons"] = reasons;
  j["unknown_excluded"] = row.unknown_excluded;
  j["fairness"] = FairnessJson(row.fairness);
  j["herded_decisions"] = row.herded_decisions;
  j["longest_run"] = row.longest_run;
  j["prefix_cache"] = ojson(nullptr);
  if (row.prefix_cache)
    j["prefix_cache"] = {{"requested_blocks", row.prefix_cache->requested_blocks},
                         {"matched_blocks", row.prefix_cache->matched_blocks},
                         {"hit_rate", row.prefix_cache->hit_rate}};
  return j;
}

// What defines the cells; slices of one sweep carry the same.
ojson GridJson(const SweepGrid& grid) {
  ojson vary = ojson::object();
  for (const SweepAxis& axis : grid.axes) vary[axis.Name()] = axis.values;
  return {{"traces", grid.traces},
          {"strategies", grid.strategies},
          {"settings", grid.settings},
          {"vary", vary},
          {"seeds", grid.seeds},
          {"proxy", grid.proxy.profile ? ojson(grid.proxy.profile->name) : ojson(nullptr)},
          {"python", PythonVersionName(grid.proxy.python)}};
}

}  // namespace

std::string SweepFingerprint(const SweepGrid& grid) {
  // FNV-1a, 64 bits, of the grid as the JSON form writes it: the same on
  // every machine.
  std::uint64_t hash = 0xcbf29ce484222325u;
  for (unsigned char c : GridJson(grid).dump()) {
    hash ^= c;
    hash *= 0x100000001b3u;
  }
  return fmt::format("{:016x}", hash);
}

std::string RenderSweepJson(const SweepResult& result) {
  ojson j;
  j["lbsim_sweep"] = 1;
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
  std::vector<std::string> varied;
  for (const SweepAxis& axis : result.grid.axes)
    if (std::find(varied.begin(), varied.end(), axis.key) == varied.end()) varied.push_back(axis.key);
  std::string out = "cell,cells,trace,strategy,spec,seed,proxy,python";
  for (const std::string& key : varied) out += fmt::format(",param_{}", key);
  out += ",events,arrivals,decisions,no_instances";
  for (const std::string& word : result.reason_words) out += fmt::format(",reason_{}", word);
  out += ",unknown_excluded,jain,jain_eligible,cv,max_min_ratio,max_mean_ratio,gini,"
         "herded_decisions,longest_run,prefix_requested_blocks,prefix_matched_blocks,"
         "prefix_hit_rate,sweep\n";
  const std::string fingerprint = SweepFingerprint(result.grid);
  for (const SweepRow& row : result.rows) {
    out += fmt::format("{},{},{},{},{},{},{},{}", row.cell, result.cells, CsvField(row.trace),
                       row.strategy, CsvField(row.spec),
                       row.seed ? fmt::format("{}", *row.seed) : "", CsvField(row.proxy),
                       CsvField(row.python));
    for (const std::string& key : varied) {
      out += ',';
      out += CsvField(ParamText(row, key));
    }
    out += fmt::format(",{},{},{},{}", row.events, row.arrivals, row.decisions, row.no_instances);
    for (const std::string& word : result.reason_words)
      out += fmt::format(",{}", ReasonCount(row, word));
    const Fairness& f = row.fairness;
    out += fmt::format(",{},{},{},{},{},{},{},{},{}", row.unknown_excluded, Number(f.jain),
                       Number(f.jain_eligible), Number(f.cv), Number(f.max_min_ratio),
                       Number(f.max_mean_ratio), Number(f.gini), row.herded_decisions,
                       row.longest_run);
    if (row.prefix_cache)
      out += fmt::format(",{},{},{}", row.prefix_cache->requested_blocks,
                         row.prefix_cache->matched_blocks, Number(row.prefix_cache->hit_rate));
    else
      out += ",,,";
    out += fmt::format(",{}\n", fingerprint);
  }
  return out;
}

}  // namespace lbsim
