// The CSV report: one row per strategy x Instance.

#include <fmt/format.h>

#include "base/number_text.h"
#include "sim/io/csv.h"
#include "sim/report/figure_catalogue.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

// An optional figure; empty when undefined.
std::string Cell(const std::optional<double>& v) { return v ? FigureText(*v) : ""; }

// The what-if columns of Instance `i`'s row (each starting with a comma).
std::string WhatIfCells(const WhatIfReport& w, std::size_t i) {
  std::string out = fmt::format(",{},{}", Cell(w.inflight_mean[i]), w.inflight_peak[i]);
  if (w.instance_service.empty()) return out;
  AppendCells(out, Csv::kReplay, ServiceColumns(), &w.instance_service[i]);
  return out;
}

// The what-if columns of the whole run's row: the outstanding requests
// summed over Instances (no peak: the peaks of Instances do not add up),
// and the run's service figures.
std::string RunWhatIfCells(const WhatIfReport& w) {
  std::optional<double> total;
  for (const std::optional<double>& m : w.inflight_mean)
    if (m) total = total.value_or(0.0) + *m;
  std::string out = fmt::format(",{},", Cell(total));
  if (!w.service) return out;
  AppendCells(out, Csv::kReplay, ServiceColumns(), &*w.service);
  return out;
}

}  // namespace

std::string RenderCsv(const Report& report) {
  std::string out =
      "strategy,label,requested_as,proxy,python,instance,selections,share,"
      "candidate_decisions,fallback_selections,tie_selections,"
      "unknown_while_others_known,chosen_while_unknown";
  // What-if columns follow the v1 ones only when their options are on.
  if (report.simulation) out += ",inflight_mean,inflight_peak";
  if (report.simulation && report.simulation->service())
    AppendColumnNames(out, Csv::kReplay, ServiceColumns());
  const bool engine = report.simulation && report.simulation->engine_model();
  if (engine) AppendColumnNames(out, Csv::kReplay, EngineColumns());
  const bool queue = report.proxy_queue.has_value();
  if (queue) AppendColumnNames(out, Csv::kReplay, QueueColumns());
  out += "\n";
  for (const StrategyReport& s : report.strategies) {
    for (std::size_t k = 0; k < s.instances.size(); ++k) {
      const InstanceReport& i = s.instances[k];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", CsvField(s.strategy),
                         CsvField(s.label), CsvField(s.requested_as),
                         CsvField(report.proxy.profile), CsvField(report.proxy.python),
                         CsvField(i.id),
                         i.selections, FigureText(i.share), i.candidate_decisions,
                         i.fallback_selections, i.tie_selections,
                         i.unknown_while_others_known, i.chosen_while_unknown);
      if (s.what_if) out += WhatIfCells(*s.what_if, k);
      if (engine) AppendCells(out, Csv::kReplay, EngineColumns(), &s.what_if->instance_engine[k]);
      // The queue's figures are the run's.
      if (queue) AppendCells(out, Csv::kReplay, QueueColumns(), nullptr);
      out += "\n";
    }
    // The whole run: an empty instance; its decisions that chose, those
    // with candidates, its fallback and tie decisions.
    const std::uint64_t chose = s.decisions - s.no_instances - s.refused;
    out += fmt::format("{},{},{},{},{},,{},{},{},{},{},,", CsvField(s.strategy),
                       CsvField(s.label), CsvField(s.requested_as),
                       CsvField(report.proxy.profile), CsvField(report.proxy.python), chose,
                       chose ? 1 : 0, s.decisions - s.no_instances, s.fallback_decisions,
                       s.tie_decisions);
    if (s.what_if) out += RunWhatIfCells(*s.what_if);
    if (engine)
      AppendCells(out, Csv::kReplay, EngineColumns(),
                  s.what_if->engine ? &*s.what_if->engine : nullptr);
    if (queue)
      AppendCells(out, Csv::kReplay, QueueColumns(), s.proxy_queue ? &*s.proxy_queue : nullptr);
    out += "\n";
  }
  return out;
}

std::string RenderWindowCsv(const Report& report) {
  const bool engine = report.simulation && report.simulation->engine_model();
  std::string out =
      "strategy,label,proxy,python,window_start,window_end,decisions,no_instances,fallback,"
      "fallback_rate,instance,selections,share,mean_inflight";
  out += engine ? ",output_tokens,batch_mean,kv_utilisation,ttft_mean\n" : "\n";
  for (const StrategyReport& s : report.strategies) {
    if (!s.what_if) continue;
    for (const WindowReport& w : s.what_if->windows) {
      for (std::size_t k = 0; k < s.instances.size(); ++k) {
        out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}", CsvField(s.strategy),
                           CsvField(s.label), CsvField(report.proxy.profile),
                           CsvField(report.proxy.python), w.start, w.end, w.decisions, w.no_instances,
                           w.fallback, Cell(w.fallback_rate), CsvField(s.instances[k].id),
                           w.selections[k], FigureText(w.share[k]), Cell(w.mean_inflight[k]));
        if (w.engine)
          out += fmt::format(",{},{},{},{}", w.engine->output_tokens[k],
                             Cell(w.engine->batch_mean[k]), Cell(w.engine->kv_utilisation[k]),
                             Cell(w.engine->ttft_mean[k]));
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace lbsim
