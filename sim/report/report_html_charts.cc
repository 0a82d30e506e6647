// The chart sections of a replay's HTML report: inline SVG, strategies
// side by side on shared scales, each chart with a text alternative (its
// <desc>) and its numbers in a table. The sections over time are in
// report_html_time.cc.

#include "sim/report/report_html_charts.h"

#include <algorithm>
#include <type_traits>

#include <fmt/format.h>

#include "sim/report/html_page.h"
#include "sim/report/svg_chart.h"

namespace lbsim {
namespace {

using namespace report_html;

HtmlSection ShareSection(const Report& report, const InstanceColours& colours) {
  HtmlSection section{"share", "Selection share per Instance", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  out += "<p class=\"note\">Each bar is the Instance's share of the decisions that chose an "
         "Instance. The tick across each bar is its fair share: the decisions it was a candidate in "
         "over the sum of that over every Instance (1/n when every Instance was always "
         "alive).</p>\n";
  out += InstanceLegend(report, colours, "bar", {{"fair share", "fair"}});
  const Bars bars = ChooseBars(report);
  double top = 0.0;
  for (const StrategyReport& s : report.strategies) {
    const std::vector<double> fair = FairShares(s);
    for (std::size_t b = 0; b < bars.members.size(); ++b) {
      double share = 0.0, f = 0.0;
      for (std::size_t i : bars.members[b]) {
        share += s.instances[i].share;
        f += fair[i];
      }
      top = std::max({top, share, f});
    }
  }
  const PlotAxis y = NiceAxis(0.0, Headroom(std::max(top, 0.01)), "share of decisions", true);
  out += "<div class=\"panels\">\n";
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    const std::vector<double> fair = FairShares(s);
    std::string desc = fmt::format("{} decisions. Share (fair share) per Instance:", s.decisions);
    std::vector<std::vector<std::string>> rows;
    auto value = [&](const std::vector<std::size_t>& members) {
      std::uint64_t picks = 0;
      double share = 0.0, f = 0.0;
      for (std::size_t i : members) {
        picks += s.instances[i].selections;
        share += s.instances[i].share;
        f += fair[i];
      }
      const std::string name = members.size() == 1 ? report.instances[members[0]]
                                                   : fmt::format("{} others", members.size());
      return BarValue{share,
                      fmt::format("{}: {} selection{}, {} (fair share {})", name, picks,
                                  picks == 1 ? "" : "s", Percent(share), Percent(f)),
                      f};
    };
    for (std::size_t b = 0; b < bars.labels.size(); ++b) {
      const BarValue v = value(bars.members[b]);
      std::uint64_t picks = 0;
      for (std::size_t i : bars.members[b]) picks += s.instances[i].selections;
      desc += fmt::format(" {} {} ({});", bars.labels[b], Percent(*v.height), Percent(*v.tick));
      rows.push_back({HtmlText(bars.labels[b]), Count(picks), Percent(*v.height), Percent(*v.tick)});
    }
    Finish(desc);
    const std::string svg = BarPanel(fmt::format("share-{}", r + 1), "share", s, bars, colours, y,
                                     fmt::format("Selection share per Instance, {}", s.label),
                                     desc, value);
    out += Panel(s, svg, "",
                 Table({"Instance", "selections", "share", "fair share"}, rows));
  }
  out += "</div>\n</section>\n";
  return section;
}

// Names a quantile per mille: "p99.9", "p50", "min", "max".
std::string QuantileName(std::uint32_t q) {
  if (q == 0) return "min";
  if (q == 1000) return "max";
  return q % 10 == 0 ? fmt::format("p{}", q / 10) : fmt::format("p{}.{}", q / 10, q % 10);
}

// One strategy run's distribution, as a CDF section draws it.
struct CdfRun {
  const std::vector<std::pair<std::uint32_t, double>>* quantiles = nullptr;  // empty: none
  double p50 = 0.0, p90 = 0.0, p99 = 0.0, max = 0.0;  // the report's own figures
};

// What a CDF section shows: its id (also the chart's, "ID-cdf"), title,
// note, the figure's name on the axis ("latency") and in the description
// ("Latency percentiles:"), and the chart's caption.
struct CdfText {
  std::string id, title, note, axis, percentiles, caption;
};

// A section with one CDF per strategy run, from its nearest-rank
// quantiles, a dot at each p99, and the numbers in a table.
template <typename Run>
HtmlSection CdfSection(const Report& report, const CdfText& text, Run run_of) {
  HtmlSection section{text.id, text.title, ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  const std::string& unit = report.time_unit;
  out += text.note;
  const auto& runs = report.strategies;
  std::vector<std::pair<std::string, std::string>> legend;
  double top = 0.0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    legend.emplace_back(runs[r].label, fmt::format("line s{} d{}", r % kOwnColours, r % 4));
    for (const auto& [q, v] : *run_of(r).quantiles) top = std::max(top, v);
  }
  std::vector<std::pair<std::string, std::string>> with_p99 = legend;
  with_p99.emplace_back("p99 of each strategy", "dot s7");
  out += Legend(with_p99);
  SvgPlot plot(2 * kPanelWidth, 300);
  plot.SetAxes(NiceAxis(0.0, std::max(top, 1e-9), fmt::format("{} ({})", text.axis, unit)),
               NiceAxis(0.0, 1.0, "share of served requests", true));
  std::string desc = text.percentiles;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const CdfRun run = run_of(r);
    const auto& quantiles = *run.quantiles;
    if (quantiles.empty()) {
      desc += fmt::format(" {} served nothing;", runs[r].label);
      continue;
    }
    // Steps: at least q of the requests took up to the q-quantile, and
    // fewer took less; the line rises at each quantile's latency.
    std::vector<std::pair<double, double>> points;
    for (const auto& [q, v] : quantiles) {
      if (!points.empty()) points.emplace_back(v, points.back().second);
      points.emplace_back(v, q / 1000.0);
    }
    plot.Path(points, legend[r].second);
    plot.Dot(run.p99, 0.99, 3.0, fmt::format("dot s{}", r % kOwnColours),
             fmt::format("{}: p99 {} {}", runs[r].label, FixedText(run.p99, 3), unit));
    desc += fmt::format(" {} p50 {}, p90 {}, p99 {}, max {} {};", runs[r].label,
                        FixedText(run.p50, 3), FixedText(run.p90, 3), FixedText(run.p99, 3),
                        FixedText(run.max, 3), unit);
  }
  Finish(desc);
  out += "<figure>\n";
  out += plot.Render(text.id + "-cdf", text.caption, desc,
                     fmt::format("data-chart=\"{}-cdf\"", text.id));
  std::vector<std::string> head{"quantile"};
  for (const StrategyReport& s : runs) head.push_back(HtmlText(s.label) + fmt::format(" ({})", HtmlText(unit)));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < LatencyChartQuantiles().size(); ++k) {
    std::vector<std::string> row{QuantileName(LatencyChartQuantiles()[k])};
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const auto& quantiles = *run_of(r).quantiles;
      row.push_back(k < quantiles.size() ? FixedText(quantiles[k].second, 3) : "-");
    }
    rows.push_back(std::move(row));
  }
  out += fmt::format("<details><summary>Numbers</summary>\n{}</details>\n</figure>\n",
                     Table(head, rows));
  out += "</section>\n";
  return section;
}

std::string QuantileNote(std::string_view what) {
  return fmt::format(
      "<p class=\"note\">The share of served requests whose {} was at most x, one line per "
      "strategy, from {} nearest-rank quantiles (min, p1 to p99, p99.5, p99.9, max).</p>\n",
      what, LatencyChartQuantiles().size());
}

HtmlSection LatencySection(const Report& report) {
  const CdfText text{"latency", "Latency distribution", QuantileNote("latency (queue wait + service)"),
                     "latency", "Latency percentiles:", "Latency distribution of served requests"};
  return CdfSection(report, text, [&](std::size_t r) {
    const LatencySummary& l = report.strategies[r].what_if->service->latency;
    return CdfRun{&report.charts->strategies[r].latency_quantiles, l.p50, l.p90, l.p99, l.max};
  });
}

// The engine model's TTFT or E2E distribution (`ttft` picks which).
HtmlSection EngineCdfSection(const Report& report, bool ttft) {
  const CdfText text =
      ttft ? CdfText{"ttft", "Time to first token",
                     QuantileNote("time to first token (arrival to its first token at the client)"),
                     "ttft", "TTFT percentiles:", "TTFT distribution of served requests"}
           : CdfText{"e2e", "End-to-end latency",
                     QuantileNote("end-to-end latency (arrival to its last token at the client)"),
                     "e2e", "E2E percentiles:", "E2E distribution of served requests"};
  return CdfSection(report, text, [&](std::size_t r) {
    const EngineFigures& e = *report.strategies[r].what_if->engine;
    const DistributionSummary& d = ttft ? e.ttft : e.e2e;
    const StrategyChartsReport& c = report.charts->strategies[r];
    return CdfRun{ttft ? &c.ttft_quantiles : &c.e2e_quantiles, d.p50, d.p90, d.p99, d.max};
  });
}

// The SLO figures (--slo) of every strategy run in one table.
HtmlSection SloSection(const Report& report) {
  HtmlSection section{"slo", "SLOs and goodput", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  const SloLimits& limits = report.strategies.front().what_if->engine->slo->limits;
  std::string bounds;
  for (auto [name, limit] : {std::pair{"TTFT", limits.ttft}, {"TPOT", limits.tpot}, {"E2E", limits.e2e}})
    if (limit)
      bounds += fmt::format("{}{} &le; {} {}", bounds.empty() ? "" : ", ", name,
                            FixedText(*limit, 4), HtmlText(report.time_unit));
  out += fmt::format(
      "<p class=\"note\">The share of requests routed to an engine whose {} held (rejected "
      "and never forwarded ones hold none), and the goodput: requests within every bound, and "
      "their output tokens, per second of the run.</p>\n",
      bounds);
  auto share = [](const std::optional<double>& x) { return x ? Percent(*x) : std::string("-"); };
  auto rate = [](const std::optional<double>& x) { return x ? FixedText(*x, 2) : std::string("-"); };
  std::vector<std::vector<std::string>> rows;
  for (const StrategyReport& s : report.strategies) {
    const SloFigures& f = *s.what_if->engine->slo;
    rows.push_back({HtmlText(s.label), Count(f.requests), share(f.ttft), share(f.tpot),
                    share(f.e2e), share(f.all), rate(f.requests_per_s),
                    rate(f.output_tokens_per_s)});
  }
  out += Table({"strategy", "requests", "TTFT met", "TPOT met", "E2E met", "all met",
                "goodput (requests/s)", "goodput (tokens/s)"},
               rows);
  out += "</section>\n";
  return section;
}

// A per-Instance bar section of the service model: `value(s, i)` the
// figure (nullopt: none), formatted by `text`; `overall(s)`, when given,
// the figure over every Instance, drawn as a line across.
template <typename Value, typename Text, typename Overall>
HtmlSection ServiceBarSection(const Report& report, const InstanceColours& colours,
                              const std::string& id, const std::string& title,
                              const std::string& note, const std::string& axis, bool percent,
                              Value value, Text text, Overall overall) {
  HtmlSection section{id, title, ""};
  std::string& out = section.html;
  out = SectionStart(id, title);
  out += fmt::format("<p class=\"note\">{}</p>\n", note);
  const bool with_overall = !std::is_same_v<Overall, std::nullptr_t>;
  out += InstanceLegend(report, colours, "bar",
                        with_overall ? std::vector<std::pair<std::string, std::string>>{
                                           {"all Instances", "fair"}}
                                     : std::vector<std::pair<std::string, std::string>>{});
  auto overall_of = [&](const StrategyReport& s) -> std::optional<double> {
    if constexpr (std::is_same_v<Overall, std::nullptr_t>) return std::nullopt;
    else return overall(s);
  };
  const Bars bars = ChooseBars(report);
  // A bar for several Instances shows their mean.
  auto of = [&](const StrategyReport& s, const std::vector<std::size_t>& members) {
    std::optional<double> sum;
    std::size_t n = 0;
    for (std::size_t i : members)
      if (auto v = value(s, i)) {
        sum = sum.value_or(0.0) + *v;
        ++n;
      }
    if (sum) *sum /= static_cast<double>(n);
    return sum;
  };
  double top = 0.0;
  for (const StrategyReport& s : report.strategies) {
    for (const auto& members : bars.members)
      if (auto v = of(s, members)) top = std::max(top, *v);
    if (auto v = overall_of(s)) top = std::max(top, *v);
  }
  const PlotAxis y = NiceAxis(0.0, Headroom(std::max(top, percent ? 0.01 : 1e-9)), axis, percent);
  out += "<div class=\"panels\">\n";
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    std::string desc = title + ":";
    std::vector<std::vector<std::string>> rows;
    for (std::size_t b = 0; b < bars.labels.size(); ++b) {
      const std::optional<double> v = of(s, bars.members[b]);
      const std::string shown = v ? text(*v) : "-";
      desc += fmt::format(" {} {};", bars.labels[b], shown);
      rows.push_back({HtmlText(bars.labels[b]), shown});
    }
    std::optional<Across> across;
    if (const std::optional<double> all = overall_of(s)) {
      desc += fmt::format(" all Instances {};", text(*all));
      rows.push_back({"all Instances", text(*all)});
      across = Across{*all, fmt::format("all Instances: {}", text(*all))};
    }
    Finish(desc);
    auto bar = [&](const std::vector<std::size_t>& members) {
      BarValue v;
      v.height = of(s, members);
      const std::string name = members.size() == 1
                                   ? report.instances[members[0]]
                                   : fmt::format("{} others (mean)", members.size());
      v.tip = fmt::format("{}: {}", name, v.height ? text(*v.height) : "-");
      return v;
    };
    const std::string svg = BarPanel(fmt::format("{}-{}", id, r + 1), id, s, bars, colours, y,
                                     fmt::format("{}, {}", title, s.label), desc, bar, across);
    out += Panel(s, svg, "", Table({"Instance", HtmlText(axis)}, rows));
  }
  out += "</div>\n</section>\n";
  return section;
}

}  // namespace

std::vector<HtmlSection> ReplayChartSections(const Report& report) {
  std::vector<HtmlSection> sections;
  const InstanceColours colours = ChooseColours(report);
  sections.push_back(ShareSection(report, colours));
  for (HtmlSection& s : TimeSections(report, colours)) sections.push_back(std::move(s));
  if (report.simulation && report.simulation->service()) {
    const std::string& unit = report.time_unit;
    sections.push_back(LatencySection(report));
    sections.push_back(ServiceBarSection(
        report, colours, "queue-wait", "Queue wait per Instance",
        "The mean time a request served by the Instance waited for a slot.",
        fmt::format("mean queue wait ({})", unit), false,
        [](const StrategyReport& s, std::size_t i) -> std::optional<double> {
          const LatencySummary& l = s.what_if->instance_service[i].latency;
          if (l.served == 0) return std::nullopt;
          return l.mean_wait;
        },
        [&](double v) { return fmt::format("{} {}", FixedText(v, 3), unit); }, nullptr));
    sections.push_back(ServiceBarSection(
        report, colours, "utilisation", "Utilisation per Instance",
        "Busy slot time over slots x the run's span; the line across is every Instance "
        "together.",
        "utilisation", true,
        [](const StrategyReport& s, std::size_t i) {
          return s.what_if->instance_service[i].utilisation;
        },
        [](double v) { return Percent(v); },
        [](const StrategyReport& s) { return s.what_if->service->utilisation; }));
  }
  if (report.simulation && report.simulation->engine_model()) {
    sections.push_back(EngineCdfSection(report, true));
    sections.push_back(EngineCdfSection(report, false));
    if (!report.strategies.empty() && report.strategies.front().what_if->engine->slo)
      sections.push_back(SloSection(report));
  }
  return sections;
}

}  // namespace lbsim
