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

using Needs = SweepFigure::Needs;

// Which way is better for the figure at `path`, as the figure catalogue says.
bool LowerIsBetter(std::string_view path) { return FindFigure(path)->worse == Worse::kHigher; }

// The figures: the titled columns of the figure catalogue, a run's own
// first, then the service model's, then the Proxy queue's.
std::vector<SweepFigure> MakeSweepFigures() {
  std::vector<SweepFigure> figures;
  for (const RunColumn& c : RunColumns())
    if (!c.title.empty())
      figures.push_back(SweepFigure{c.column, c.title, LowerIsBetter(c.path), Needs::kNothing,
                                    c.decimals, &c});
  for (const ServiceColumn& c : ServiceColumns())
    if (!c.title.empty())
      figures.push_back(SweepFigure{c.column, c.title, LowerIsBetter(c.path), Needs::kService,
                                    c.decimals, nullptr, nullptr, &c});
  for (const QueueColumn& c : QueueColumns())
    figures.push_back(SweepFigure{c.column, c.title, LowerIsBetter(c.path), Needs::kProxyQueue,
                                  c.decimals, nullptr, &c});
  return figures;
}

}  // namespace

std::optional<double> SweepFigure::value(const SweepRow& row) const {
  if (queue) return row.proxy_queue() ? queue->value(*row.proxy_queue()) : std::nullopt;
  if (service) return row.service() ? service->value(*row.service()) : std::nullopt;
  return run->value(row.run);
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
