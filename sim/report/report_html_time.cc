// The sections over time of a replay's HTML report: shares, requests in
// flight, decisions by reason, fallback rate and herding, one panel per
// strategy on the chart windows every strategy shares.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html_page.h"
#include "sim/report/report_html_parts.h"
#include "sim/report/svg_chart.h"

namespace lbsim::report_html {
namespace {

// The windows of the charts and how to name their times.
struct Timeline {
  const ChartsReport& charts;
  TimeFormat time;
  PlotAxis x;
};

Timeline MakeTimeline(const Report& report) {
  const ChartsReport& charts = *report.charts;
  Timeline t{charts, TimeFormat{TimeDecimals(charts.window), report.time_unit}, {}};
  double lo = 0.0, hi = 1.0;
  for (const StrategyChartsReport& s : charts.strategies) {
    if (s.windows.empty()) continue;
    lo = s.windows.front().start;
    hi = s.windows.back().end;
    break;
  }
  t.x = NiceAxis(lo, hi, fmt::format("time ({})", report.time_unit));
  // The plot spans the windows exactly; ticks outside are dropped.
  t.x.lo = lo;
  t.x.hi = hi > lo ? hi : lo + 1.0;
  std::erase_if(t.x.ticks, [&](double v) { return v < t.x.lo - 1e-9 * std::fabs(t.x.hi) ||
                                                   v > t.x.hi + 1e-9 * std::fabs(t.x.hi); });
  return t;
}

// Invisible columns, one per window, whose hover text lists `tip(w)`.
template <typename Tip>
void HoverColumns(SvgPlot& plot, const std::vector<ChartWindowReport>& windows, Tip tip) {
  for (const ChartWindowReport& w : windows) plot.Column(w.start, w.end, "hit", tip(w));
}

// Step points of a per-window value over consecutive windows that have
// one: one polyline (or area top) per run of defined windows.
std::vector<std::vector<std::pair<double, double>>> Steps(
    const std::vector<ChartWindowReport>& windows,
    const std::vector<std::optional<double>>& values) {
  std::vector<std::vector<std::pair<double, double>>> runs;
  bool open = false;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    if (!values[k]) {
      open = false;
      continue;
    }
    if (!open) runs.emplace_back();
    open = true;
    runs.back().emplace_back(windows[k].start, *values[k]);
    runs.back().emplace_back(windows[k].end, *values[k]);
  }
  return runs;
}

// Herding on a timeline: shaded windows that hold decisions of herding
// runs, and the longest run as a bar along the top.
void HerdingMarks(SvgPlot& plot, const StrategyChartsReport& c, const TimeFormat& time) {
  for (const ChartWindowReport& w : c.windows)
    if (w.herded > 0)
      plot.Column(w.start, w.end, "herd",
                  fmt::format("{}: {} of {} decisions in herding runs", time.Span(w), w.herded,
                              w.decisions));
  if (const auto& run = c.longest_herding_run) {
    const double x0 = plot.X(run->first);
    const double x1 = std::max(plot.X(run->last), x0 + 3.0);
    plot.PixelRect(x0, plot.top(), x1 - x0, 5.0, "run",
                   fmt::format("longest herding run: {} chosen {} times in a row, t = {} to {} {}",
                               run->instance, run->length, time.Exact(run->first),
                               time.Exact(run->last), time.unit));
  }
}

std::string HerdingNote(const StrategyChartsReport& c, const TimeFormat& time) {
  if (!c.longest_herding_run) return "No herding run.";
  const HerdingRunReport& run = *c.longest_herding_run;
  return HtmlText(fmt::format(
      "Longest herding run (the bar along the top): {} chosen {} times in a row, t = {} to {} {}.",
      run.instance, run.length, time.Exact(run.first), time.Exact(run.last), time.unit));
}

// A series over the windows: its values per window (nullopt: none).
struct Series {
  std::string label;
  std::string cls;
  std::vector<std::optional<double>> values;
};

// The Instances' series of `s` by colour: one per own Instance and one
// for the rest, from `per_instance(w, i)` (summed over the rest, or
// averaged with `mean_of_rest`).
template <typename PerInstance>
std::vector<Series> InstanceSeries(const Report& report, const InstanceColours& colours,
                                   const StrategyChartsReport& c, std::string_view kind,
                                   bool mean_of_rest, PerInstance per_instance) {
  std::vector<Series> out;
  for (std::size_t i : colours.own) {
    Series series{report.instances[i], fmt::format("{} {}", kind, colours.Class(i)), {}};
    for (const ChartWindowReport& w : c.windows) series.values.push_back(per_instance(w, i));
    out.push_back(std::move(series));
  }
  if (!colours.rest.empty()) {
    Series series{colours.RestLabel() + (mean_of_rest ? ", mean" : ""),
                  fmt::format("{} s7", kind), {}};
    for (const ChartWindowReport& w : c.windows) {
      std::optional<double> sum;
      for (std::size_t i : colours.rest)
        if (auto v = per_instance(w, i)) sum = sum.value_or(0.0) + *v;
      if (sum && mean_of_rest) *sum /= static_cast<double>(colours.rest.size());
      series.values.push_back(sum);
    }
    out.push_back(std::move(series));
  }
  return out;
}

// The numbers of series over the windows, as a table.
std::string SeriesTable(const std::vector<ChartWindowReport>& windows,
                        const std::vector<Series>& series, const TimeFormat& time,
                        bool percent, std::vector<std::pair<std::string, std::vector<std::string>>> extra = {}) {
  std::vector<std::string> head{"window"};
  for (const auto& [name, cells] : extra) head.push_back(HtmlText(name));
  for (const Series& s : series) head.push_back(HtmlText(s.label));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    std::vector<std::string> row{HtmlText(time.Span(windows[k]))};
    for (const auto& [name, cells] : extra) row.push_back(cells[k]);
    for (const Series& s : series)
      row.push_back(!s.values[k] ? "-" : percent ? Percent(*s.values[k]) : FixedText(*s.values[k], 2));
    rows.push_back(std::move(row));
  }
  return Table(head, rows);
}

std::string WindowNote(const Timeline& t) {
  return fmt::format("Windows of {} {}.", FixedText(t.charts.window, t.time.decimals),
                     HtmlText(t.time.unit));
}

HtmlSection ShareTimeSection(const Report& report, const InstanceColours& colours,
                             const Timeline& t) {
  HtmlSection section{"share-time", "Shares over time", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  out += fmt::format(
      "<p class=\"note\">Each window's decisions that chose an Instance, split by the Instance "
      "chosen (stacked, in legend order). {} A gap is a window without such decisions.</p>\n",
      WindowNote(t));
  out += InstanceLegend(report, colours, "area");
  const PlotAxis y = NiceAxis(0.0, 1.0, "share of decisions", true);
  out += "<div class=\"panels\">\n";
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    const StrategyChartsReport& c = t.charts.strategies[r];
    std::vector<Series> series =
        InstanceSeries(report, colours, c, "area", false,
                       [](const ChartWindowReport& w, std::size_t i) -> std::optional<double> {
                         const std::uint64_t chose = Chose(w);
                         if (chose == 0) return std::nullopt;
                         return static_cast<double>(w.selections[i]) / static_cast<double>(chose);
                       });
    SvgPlot plot(kPanelWidth, kPanelHeight);
    plot.SetAxes(t.x, y);
    // Stacked: each series's band sits on the sum of those before it.
    std::vector<double> below(c.windows.size(), 0.0);
    for (const Series& se : series) {
      std::vector<std::pair<double, double>> upper, lower;
      auto flush = [&] {
        if (upper.empty()) return;
        std::vector<std::pair<double, double>> polygon = upper;
        polygon.insert(polygon.end(), lower.rbegin(), lower.rend());
        plot.Path(polygon, se.cls, true);
        upper.clear();
        lower.clear();
      };
      for (std::size_t k = 0; k < c.windows.size(); ++k) {
        // No band where the series has no share (or none is defined).
        if (!se.values[k] || *se.values[k] == 0.0) {
          flush();
          continue;
        }
        const double lo = below[k], hi = below[k] + *se.values[k];
        upper.emplace_back(c.windows[k].start, hi);
        upper.emplace_back(c.windows[k].end, hi);
        lower.emplace_back(c.windows[k].start, lo);
        lower.emplace_back(c.windows[k].end, lo);
        below[k] = hi;
      }
      flush();
    }
    HoverColumns(plot, c.windows, [&](const ChartWindowReport& w) {
      std::string tip = fmt::format("{}: {} chose an Instance", t.time.Span(w), Decisions(Chose(w)));
      const std::size_t k = static_cast<std::size_t>(&w - c.windows.data());
      for (const Series& se : series)
        if (se.values[k]) tip += fmt::format("; {} {}", se.label, Percent(*se.values[k]));
      return tip;
    });
    // The text alternative: where each series's share was highest.
    std::string desc = fmt::format("Stacked shares of {} windows of {} {}.", c.windows.size(),
                                   FixedText(t.charts.window, t.time.decimals), t.time.unit);
    for (const Series& se : series) {
      std::optional<std::size_t> most;
      for (std::size_t k = 0; k < c.windows.size(); ++k)
        if (se.values[k] && (!most || *se.values[k] > *se.values[*most])) most = k;
      if (most && *se.values[*most] == 0.0)
        desc += fmt::format(" {} never chosen;", se.label);
      else if (most)
        desc += fmt::format(" {} highest {} in {};", se.label, Percent(*se.values[*most]),
                            t.time.Span(c.windows[*most]));
    }
    Finish(desc);
    const std::string svg = plot.Render(fmt::format("share-time-{}", r + 1),
                                        fmt::format("Shares over time, {}", s.label), desc,
                                        ChartAttributes("share-time", s));
    std::vector<std::string> chose;
    for (const ChartWindowReport& w : c.windows) chose.push_back(Count(Chose(w)));
    out += Panel(s, svg, "", SeriesTable(c.windows, series, t.time, true, {{"decisions that chose", chose}}));
  }
  out += "</div>\n</section>\n";
  return section;
}

HtmlSection InflightSection(const Report& report, const InstanceColours& colours,
                            const Timeline& t) {
  HtmlSection section{"inflight", "Requests in flight over time", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  out += fmt::format(
      "<p class=\"note\">Each Instance's requests routed by the strategy and not yet completed, "
      "averaged over each window (waiting ones included with the service model). Only "
      "arrivals with a duration are counted. {}</p>\n",
      WindowNote(t));
  std::vector<std::vector<Series>> all;
  double top = 0.0;
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    all.push_back(InstanceSeries(report, colours, t.charts.strategies[r], "line", true,
                                 [](const ChartWindowReport& w, std::size_t i) {
                                   return w.mean_inflight[i];
                                 }));
    for (const Series& se : all.back())
      for (const auto& v : se.values)
        if (v) top = std::max(top, *v);
  }
  // Dashes tell the lines apart without colour.
  for (auto& series : all)
    for (std::size_t k = 0; k < series.size(); ++k)
      series[k].cls += fmt::format(" d{}", k % 4);
  std::vector<std::pair<std::string, std::string>> legend;
  if (!all.empty())
    for (const Series& se : all.front()) legend.emplace_back(se.label, se.cls);
  out += Legend(legend);
  const PlotAxis y = NiceAxis(0.0, Headroom(std::max(top, 1.0)), "requests in flight (window mean)");
  out += "<div class=\"panels\">\n";
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    const StrategyChartsReport& c = t.charts.strategies[r];
    SvgPlot plot(kPanelWidth, kPanelHeight);
    plot.SetAxes(t.x, y);
    for (const Series& se : all[r])
      for (const auto& run : Steps(c.windows, se.values)) plot.Path(run, se.cls);
    HoverColumns(plot, c.windows, [&](const ChartWindowReport& w) {
      std::string tip = t.time.Span(w);
      const std::size_t k = static_cast<std::size_t>(&w - c.windows.data());
      const char* separator = ": ";
      for (const Series& se : all[r])
        if (se.values[k]) {
          tip += fmt::format("{}{} {}", separator, se.label, FixedText(*se.values[k], 2));
          separator = "; ";
        }
      return tip;
    });
    std::string desc = fmt::format("Mean requests in flight per window of {} {}.",
                                   FixedText(t.charts.window, t.time.decimals), t.time.unit);
    for (const Series& se : all[r]) {
      std::optional<std::size_t> most;
      for (std::size_t k = 0; k < c.windows.size(); ++k)
        if (se.values[k] && (!most || *se.values[k] > *se.values[*most])) most = k;
      if (most)
        desc += fmt::format(" {} peaks at {} in {};", se.label, FixedText(*se.values[*most], 2),
                            t.time.Span(c.windows[*most]));
    }
    const bool idle = std::none_of(all[r].begin(), all[r].end(), [](const Series& se) {
      return std::any_of(se.values.begin(), se.values.end(),
                         [](const std::optional<double>& v) { return v && *v > 0.0; });
    });
    Finish(desc);
    if (idle) desc = "Nothing was in flight: no routed arrival had a duration.";
    const std::string svg = plot.Render(fmt::format("inflight-{}", r + 1),
                                        fmt::format("Requests in flight over time, {}", s.label),
                                        desc, ChartAttributes("inflight", s));
    out += Panel(s, svg, idle ? "Nothing was in flight: no routed arrival had a duration." : "",
                 SeriesTable(c.windows, all[r], t.time, false));
  }
  out += "</div>\n</section>\n";
  return section;
}

// Every reason word of the report's strategies, in the table report's
// order (no_instances last), for one colour per word in every panel.
std::vector<std::string> ReasonWords(const ChartsReport& charts) {
  std::vector<std::string> words;
  bool no_instances = false, others = false;
  for (const StrategyChartsReport& c : charts.strategies)
    for (const std::string& w : c.reasons) {
      if (w == "no_instances") no_instances = true;
      else if (w == kOtherReasons) others = true;
      else if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    }
  if (others) words.push_back(kOtherReasons);
  if (no_instances) words.push_back("no_instances");
  return words;
}

std::string ReasonClass(const std::vector<std::string>& words, const std::string& word) {
  if (word == "no_instances" || word == kOtherReasons) return "area s7";
  const auto k = static_cast<std::size_t>(std::find(words.begin(), words.end(), word) - words.begin());
  return fmt::format("area s{}", k % kOwnColours);
}

HtmlSection ReasonSection(const Report& report, const Timeline& t) {
  HtmlSection section{"reasons", "Decisions by reason over time", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  out += fmt::format(
      "<p class=\"note\">Each window's decisions, stacked by the reason the strategy gave. "
      "Shaded windows hold decisions of herding runs (one Instance picked more times in a "
      "row than there were candidates); the bar along the top is the longest such run. "
      "{}</p>\n",
      WindowNote(t));
  const std::vector<std::string> words = ReasonWords(t.charts);
  std::vector<std::pair<std::string, std::string>> legend;
  for (const std::string& w : words) legend.emplace_back(w, ReasonClass(words, w));
  legend.emplace_back("herding in the window", "herd");
  legend.emplace_back("longest herding run", "run");
  out += Legend(legend);
  std::uint64_t most = 1;
  for (const StrategyChartsReport& c : t.charts.strategies)
    for (const ChartWindowReport& w : c.windows) most = std::max(most, w.decisions);
  const PlotAxis y = NiceAxis(0.0, Headroom(static_cast<double>(most)), "decisions per window");
  out += "<div class=\"panels\">\n";
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    const StrategyChartsReport& c = t.charts.strategies[r];
    SvgPlot plot(kPanelWidth, kPanelHeight);
    plot.SetAxes(t.x, y);
    HerdingMarks(plot, c, t.time);
    std::vector<double> below(c.windows.size(), 0.0);
    for (std::size_t slot = 0; slot < c.reasons.size(); ++slot) {
      const std::string cls = ReasonClass(words, c.reasons[slot]);
      for (std::size_t k = 0; k < c.windows.size(); ++k) {
        const auto n = static_cast<double>(c.windows[k].by_reason[slot]);
        if (n == 0) continue;
        plot.Rect(c.windows[k].start, below[k], c.windows[k].end, below[k] + n, cls);
        below[k] += n;
      }
    }
    HoverColumns(plot, c.windows, [&](const ChartWindowReport& w) {
      std::string tip = fmt::format("{}: {}", t.time.Span(w), Decisions(w.decisions));
      for (std::size_t slot = 0; slot < c.reasons.size(); ++slot)
        if (w.by_reason[slot]) tip += fmt::format("; {} {}", c.reasons[slot], w.by_reason[slot]);
      if (w.herded) tip += fmt::format("; herded {}", w.herded);
      return tip;
    });
    std::string desc = fmt::format("Decisions per window of {} {}, by reason:",
                                   FixedText(t.charts.window, t.time.decimals), t.time.unit);
    for (std::size_t slot = 0; slot < c.reasons.size(); ++slot) {
      std::uint64_t total = 0;
      for (const ChartWindowReport& w : c.windows) total += w.by_reason[slot];
      desc += fmt::format(" {} {};", c.reasons[slot], total);
    }
    std::size_t herding_windows = 0;
    for (const ChartWindowReport& w : c.windows) herding_windows += w.herded > 0;
    desc += fmt::format(" {} of {} windows hold herding runs.", herding_windows, c.windows.size());
    const std::string svg = plot.Render(fmt::format("reasons-{}", r + 1),
                                        fmt::format("Decisions by reason over time, {}", s.label),
                                        desc, ChartAttributes("reasons", s));
    std::vector<std::string> head{"window", "decisions"};
    for (const std::string& w : c.reasons) head.push_back(HtmlText(w));
    head.push_back("herded");
    std::vector<std::vector<std::string>> rows;
    for (const ChartWindowReport& w : c.windows) {
      std::vector<std::string> row{HtmlText(t.time.Span(w)), Count(w.decisions)};
      for (std::uint64_t n : w.by_reason) row.push_back(Count(n));
      row.push_back(Count(w.herded));
      rows.push_back(std::move(row));
    }
    out += Panel(s, svg, HerdingNote(c, t.time), Table(head, rows));
  }
  out += "</div>\n</section>\n";
  return section;
}

HtmlSection FallbackSection(const Report& report, const Timeline& t) {
  HtmlSection section{"fallback", "Fallback rate and herding over time", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  out += fmt::format(
      "<p class=\"note\">The share of each window's decisions that fell back (every "
      "candidate's load unknown), and the share inside herding runs. A strategy without a "
      "fallback has no fallback line. {}</p>\n",
      WindowNote(t));
  out += Legend({{"fallback rate", "line s5"},
                 {"herded share", "line s0 d1"},
                 {"herding in the window", "herd"},
                 {"longest herding run", "run"}});
  const PlotAxis y = NiceAxis(0.0, 1.0, "share of decisions", true);
  out += "<div class=\"panels\">\n";
  for (std::size_t r = 0; r < report.strategies.size(); ++r) {
    const StrategyReport& s = report.strategies[r];
    const StrategyChartsReport& c = t.charts.strategies[r];
    const auto fallback_at = std::find(c.reasons.begin(), c.reasons.end(), "fallback");
    const bool falls_back =
        std::any_of(s.reasons.begin(), s.reasons.end(),
                    [](const auto& reason) { return reason.first == "fallback"; });
    Series fallback{"fallback rate", "line s5", {}};
    Series herded{"herded share", "line s0 d1", {}};
    for (const ChartWindowReport& w : c.windows) {
      std::optional<double> rate, herd;
      if (w.decisions > 0) {
        const std::uint64_t n =
            fallback_at == c.reasons.end()
                ? 0
                : w.by_reason[static_cast<std::size_t>(fallback_at - c.reasons.begin())];
        if (falls_back) rate = static_cast<double>(n) / static_cast<double>(w.decisions);
        herd = static_cast<double>(w.herded) / static_cast<double>(w.decisions);
      }
      fallback.values.push_back(rate);
      herded.values.push_back(herd);
    }
    std::vector<Series> series;
    if (falls_back) series.push_back(fallback);
    series.push_back(herded);
    SvgPlot plot(kPanelWidth, kPanelHeight);
    plot.SetAxes(t.x, y);
    HerdingMarks(plot, c, t.time);
    for (const Series& se : series)
      for (const auto& run : Steps(c.windows, se.values)) plot.Path(run, se.cls);
    HoverColumns(plot, c.windows, [&](const ChartWindowReport& w) {
      std::string tip = fmt::format("{}: {}", t.time.Span(w), Decisions(w.decisions));
      const std::size_t k = static_cast<std::size_t>(&w - c.windows.data());
      for (const Series& se : series)
        if (se.values[k]) tip += fmt::format("; {} {}", se.label, Percent(*se.values[k]));
      return tip;
    });
    std::string desc;
    if (falls_back) {
      std::optional<std::size_t> most;
      for (std::size_t k = 0; k < c.windows.size(); ++k)
        if (fallback.values[k] && (!most || *fallback.values[k] > *fallback.values[*most]))
          most = k;
      desc = !most                              ? std::string("No decisions.")
             : *fallback.values[*most] == 0.0 ? std::string("No decision fell back.")
                                              : fmt::format("Highest fallback rate {} in {}.",
                                                            Percent(*fallback.values[*most]),
                                                            t.time.Span(c.windows[*most]));
    } else {
      desc = fmt::format("{} has no fallback.", s.strategy);
    }
    desc += fmt::format(" {} of {} decisions in herding runs.", s.herded_decisions, s.decisions);
    const std::string svg =
        plot.Render(fmt::format("fallback-{}", r + 1),
                    fmt::format("Fallback rate and herding over time, {}", s.label), desc,
                    ChartAttributes("fallback", s));
    std::vector<std::string> decisions;
    for (const ChartWindowReport& w : c.windows) decisions.push_back(Count(w.decisions));
    out += Panel(s, svg, HerdingNote(c, t.time),
                 SeriesTable(c.windows, series, t.time, true, {{"decisions", decisions}}));
  }
  out += "</div>\n</section>\n";
  return section;
}

}  // namespace

std::vector<HtmlSection> TimeSections(const Report& report, const InstanceColours& colours) {
  const bool over_time =
      std::any_of(report.charts->strategies.begin(), report.charts->strategies.end(),
                  [](const StrategyChartsReport& c) { return !c.windows.empty(); });
  if (!over_time) return {};
  const Timeline t = MakeTimeline(report);
  return {ShareTimeSection(report, colours, t), InflightSection(report, colours, t),
          ReasonSection(report, t), FallbackSection(report, t)};
}

}  // namespace lbsim::report_html
