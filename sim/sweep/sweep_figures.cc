#include "sim/sweep/sweep_figures.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/report/figure_catalogue.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

std::optional<double> Count(std::uint64_t n) { return static_cast<double>(n); }

using Needs = SweepFigure::Needs;

// The figures, the service model's and the Proxy queue's as the figure
// catalogue declares them.
std::vector<SweepFigure> MakeSweepFigures() {
  std::vector<SweepFigure> figures = {
      {"jain", "Jain's fairness index of the selections", false, Needs::kNothing, 4,
       [](const SweepRow& r) { return r.fairness.jain; }},
      {"jain_eligible", "Jain's index of selections per candidate decision", false, Needs::kNothing, 4,
       [](const SweepRow& r) { return r.fairness.jain_eligible; }},
      {"cv", "coefficient of variation of the selections", true, Needs::kNothing, 4,
       [](const SweepRow& r) { return r.fairness.cv; }},
      {"max_min_ratio", "most / fewest selections", true, Needs::kNothing, 4,
       [](const SweepRow& r) { return r.fairness.max_min_ratio; }},
      {"max_mean_ratio", "most / mean selections", true, Needs::kNothing, 4,
       [](const SweepRow& r) { return r.fairness.max_mean_ratio; }},
      {"gini", "Gini coefficient of the selections", true, Needs::kNothing, 4,
       [](const SweepRow& r) { return r.fairness.gini; }},
      {"herded_decisions", "decisions in herding runs", true, Needs::kNothing, 0,
       [](const SweepRow& r) { return Count(r.herded_decisions); }},
      {"longest_run", "longest run of one Instance", true, Needs::kNothing, 0,
       [](const SweepRow& r) { return Count(r.longest_run); }},
      {"no_instances", "arrivals that found no Instance", true, Needs::kNothing, 0,
       [](const SweepRow& r) { return Count(r.no_instances); }},
      {"prefix_hit_rate", "prefix cache hit rate", false, Needs::kNothing, 4,
       [](const SweepRow& r) -> std::optional<double> {
         if (!r.prefix_cache) return std::nullopt;
         return r.prefix_cache->hit_rate;
       }},
  };
  for (const ServiceColumn& c : ServiceColumns())
    if (!c.title.empty())
      figures.push_back(SweepFigure{c.column, c.title, FindFigure(c.path)->worse == Worse::kHigher,
                                    Needs::kService, c.decimals, nullptr, nullptr, &c});
  for (const QueueColumn& c : QueueColumns())
    figures.push_back(SweepFigure{c.column, c.title, FindFigure(c.path)->worse == Worse::kHigher,
                                  Needs::kProxyQueue, c.decimals, nullptr, &c});
  return figures;
}

}  // namespace

std::optional<double> SweepFigure::value(const SweepRow& row) const {
  if (queue) return row.proxy_queue ? queue->value(*row.proxy_queue) : std::nullopt;
  if (service) return row.service ? service->value(*row.service) : std::nullopt;
  return of_row(row);
}

double HeatmapPosition(double v, double lo, double hi, bool lower_is_better) {
  if (!(hi > lo)) return 0.5;
  const double goodness = lower_is_better ? (hi - v) / (hi - lo) : (v - lo) / (hi - lo);
  const double span = std::max(hi - lo, kHeatmapMeaningfulShare * std::max(std::fabs(lo), std::fabs(hi)));
  return 0.5 + (goodness - 0.5) * (hi - lo) / span;
}

const std::vector<SweepFigure>& SweepFigures() {
  static const std::vector<SweepFigure> figures = MakeSweepFigures();
  return figures;
}

SweepScatter ParseSweepScatter(std::string_view text, bool service, bool queue) {
  std::string names;
  for (const SweepFigure& f : SweepFigures())
    names += fmt::format("{}{}", names.empty() ? "" : ", ", f.name);
  const std::size_t comma = text.find(',');
  const std::string_view parts[2] = {text.substr(0, comma),
                                     comma == std::string_view::npos ? std::string_view()
                                                                     : text.substr(comma + 1)};
  if (comma == std::string_view::npos || parts[1].find(',') != std::string_view::npos)
    throw UsageError(fmt::format("--scatter: expected X,Y, two of {}; got '{}'", names, text));
  const SweepFigure* found[2] = {nullptr, nullptr};
  for (int k = 0; k < 2; ++k) {
    for (const SweepFigure& f : SweepFigures())
      if (f.name == parts[k]) found[k] = &f;
    if (!found[k])
      throw UsageError(fmt::format("--scatter {}: no figure '{}'; expected one of {}", text,
                                   parts[k], names));
    if (found[k]->needs == Needs::kService && !service)
      throw UsageError(fmt::format(
          "--scatter {}: {} needs the service model (--slots K)", text, parts[k]));
    if (found[k]->needs == Needs::kProxyQueue && !queue)
      throw UsageError(fmt::format(
          "--scatter {}: {} needs the Proxy queue model (--proxy-queue)", text, parts[k]));
  }
  return SweepScatter{found[0], found[1]};
}

SweepScatter DefaultSweepScatter(bool service, bool queue) {
  return ParseSweepScatter(queue     ? "client_ttft_p99,jain"
                           : service ? "latency_p99,jain"
                                     : "herded_decisions,jain",
                           service, queue);
}

}  // namespace lbsim
