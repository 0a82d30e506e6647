// The chart sections of a replay's HTML report: inline SVG, strategies
// side by side on shared scales, each chart with a text alternative (its
// <desc>) and its numbers in a table.

#include "sim/report/report_html_charts.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include <fmt/format.h>

#include "base/number_text.h"
#include "sim/report/html_page.h"
#include "sim/report/svg_chart.h"

namespace lbsim {
namespace {

// Instances a bar chart shows one by one; past that, the rest are one bar.
constexpr std::size_t kMaxBars = 24;
// Series colours: s0..s6 for Instances drawn on their own, s7 for the rest.
constexpr std::size_t kOwnColours = 7;
constexpr int kPanelWidth = 480;
constexpr int kPanelHeight = 250;

std::string Percent(double x) { return FixedText(100.0 * x, 1) + "%"; }

// The top of a y axis for data reaching `top`: a little above it, so that
// a line or tick at the top stays clear of the frame.
double Headroom(double top) { return top * 1.06; }

std::string Count(std::uint64_t n) { return fmt::format("{}", n); }

// "1 decision", "2 decisions".
std::string Decisions(std::uint64_t n) { return fmt::format("{} decision{}", n, n == 1 ? "" : "s"); }

// A text alternative listing items with ";" ends with a full stop.
std::string& Finish(std::string& desc) {
  if (!desc.empty() && (desc.back() == ';' || desc.back() == ':')) desc.back() = '.';
  else if (!desc.empty() && desc.back() != '.') desc += '.';
  return desc;
}

// Which Instances the time charts draw on their own, in which colour: all
// of them when there are at most 8, else the 7 with the most selections
// over every strategy (ties: the earlier registered), the rest grouped in
// grey. The same for every chart, so a colour means one Instance.
struct InstanceColours {
  std::vector<std::size_t> own;   // drawn on their own, in report order
  std::vector<std::size_t> rest;  // grouped, in report order
  std::vector<int> colour;        // per Instance: 0..7

  std::string Class(std::size_t i) const { return fmt::format("s{}", colour[i]); }
  // "other Instances (12)".
  std::string RestLabel() const { return fmt::format("other Instances ({})", rest.size()); }
};

// Instances by their selections over every strategy, most first.
std::vector<std::size_t> ByTotalSelections(const Report& report) {
  std::vector<std::uint64_t> total(report.instances.size(), 0);
  for (const StrategyReport& s : report.strategies)
    for (std::size_t i = 0; i < s.instances.size() && i < total.size(); ++i)
      total[i] += s.instances[i].selections;
  std::vector<std::size_t> order(total.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return total[a] > total[b]; });
  return order;
}

InstanceColours ChooseColours(const Report& report) {
  InstanceColours c;
  const std::size_t n = report.instances.size();
  c.colour.assign(n, 7);
  if (n <= kOwnColours + 1) {
    for (std::size_t i = 0; i < n; ++i) {
      c.own.push_back(i);
      c.colour[i] = static_cast<int>(i);
    }
    return c;
  }
  std::vector<std::size_t> top = ByTotalSelections(report);
  top.resize(kOwnColours);
  std::sort(top.begin(), top.end());
  std::vector<bool> is_own(n, false);
  for (std::size_t k = 0; k < top.size(); ++k) {
    is_own[top[k]] = true;
    c.colour[top[k]] = static_cast<int>(k);
  }
  for (std::size_t i = 0; i < n; ++i) (is_own[i] ? c.own : c.rest).push_back(i);
  return c;
}

// The legend of the Instance colours, plus `extra` items.
std::string InstanceLegend(const Report& report, const InstanceColours& colours,
                           std::string_view kind,
                           std::vector<std::pair<std::string, std::string>> extra = {}) {
  std::vector<std::pair<std::string, std::string>> items;
  for (std::size_t i : colours.own)
    items.emplace_back(report.instances[i], fmt::format("{} {}", kind, colours.Class(i)));
  if (!colours.rest.empty()) items.emplace_back(colours.RestLabel(), fmt::format("{} s7", kind));
  for (auto& e : extra) items.push_back(std::move(e));
  return Legend(items);
}

// Digits that show every chart window boundary exactly enough.
int TimeDecimals(double window) {
  for (int d = 0; d < 9; ++d) {
    const double scaled = window * std::pow(10.0, d);
    if (std::fabs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, scaled)) return d;
  }
  return 9;
}

// Formats trace times of one report.
struct TimeFormat {
  int decimals = 0;
  std::string unit;
  std::string operator()(double t) const { return FixedText(t, decimals); }
  // An event's own time, every digit it has ("2.5"; huge ones as FixedText).
  std::string Exact(double t) const {
    return std::fabs(t) < 1e15 ? NumberText(t) : FixedText(t, decimals);
  }
  std::string Span(const ChartWindowReport& w) const {
    return fmt::format("[{}, {}) {}", (*this)(w.start), (*this)(w.end), unit);
  }
};

// An HTML table: a header row and body rows of cells (HTML already); the
// first cell of each row is a row header.
std::string Table(const std::vector<std::string>& head,
                  const std::vector<std::vector<std::string>>& rows) {
  std::string out = "<div class=\"scroll\"><table>\n<thead><tr>";
  for (const std::string& h : head) out += fmt::format("<th scope=\"col\">{}</th>", h);
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c)
      out += c == 0 ? fmt::format("<th scope=\"row\">{}</th>", row[c])
                    : fmt::format("<td>{}</td>", row[c]);
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  return out;
}

// A panel: one strategy's chart with its caption and its numbers.
std::string Panel(const StrategyReport& s, const std::string& svg, const std::string& note,
                  const std::string& data) {
  std::string out = fmt::format("<figure>\n<figcaption>{}</figcaption>\n", HtmlText(s.label));
  out += svg;
  if (!note.empty()) out += fmt::format("<p>{}</p>\n", note);
  out += fmt::format("<details><summary>Numbers</summary>\n{}</details>\n</figure>\n", data);
  return out;
}

std::string SectionStart(const std::string& id, const std::string& title) {
  return fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id, HtmlText(title));
}

std::string ChartAttributes(std::string_view kind, const StrategyReport& s) {
  return fmt::format("data-chart=\"{}\" data-strategy=\"{}\"", kind, HtmlText(s.label));
}

// Decisions in a window that chose an Instance.
std::uint64_t Chose(const ChartWindowReport& w) {
  return std::accumulate(w.selections.begin(), w.selections.end(), std::uint64_t{0});
}

// The Instances' fair shares in strategy `s`: each one's candidate
// decisions over the sum of everyone's (1/n when all were always
// candidates); 0 for all when nobody was a candidate.
std::vector<double> FairShares(const StrategyReport& s) {
  double total = 0.0;
  for (const InstanceReport& i : s.instances) total += static_cast<double>(i.candidate_decisions);
  std::vector<double> fair;
  for (const InstanceReport& i : s.instances)
    fair.push_back(total > 0 ? static_cast<double>(i.candidate_decisions) / total : 0.0);
  return fair;
}

// The bars of a per-Instance bar chart: at most kMaxBars, the Instances
// with the most selections over every strategy in report order, and one
// bar for the rest.
struct Bars {
  std::vector<std::string> labels;
  std::vector<std::vector<std::size_t>> members;  // Instances behind each bar
};

Bars ChooseBars(const Report& report) {
  Bars bars;
  const std::size_t n = report.instances.size();
  if (n <= kMaxBars) {
    for (std::size_t i = 0; i < n; ++i) {
      bars.labels.push_back(report.instances[i]);
      bars.members.push_back({i});
    }
    return bars;
  }
  std::vector<std::size_t> top = ByTotalSelections(report);
  std::vector<std::size_t> rest(top.begin() + kMaxBars - 1, top.end());
  top.resize(kMaxBars - 1);
  std::sort(top.begin(), top.end());
  std::sort(rest.begin(), rest.end());
  for (std::size_t i : top) {
    bars.labels.push_back(report.instances[i]);
    bars.members.push_back({i});
  }
  bars.labels.push_back(fmt::format("{} others", rest.size()));
  bars.members.push_back(std::move(rest));
  return bars;
}

struct BarValue {
  std::optional<double> height;
  std::string tip;
  std::optional<double> tick;
};

// A line across a bar chart: its value and hover text.
struct Across {
  double value = 0.0;
  std::string tip;
};

// A bar chart panel over `bars`: `value(members)` gives each bar's
// height, hover text and tick; `across` an optional line over them all.
template <typename Value>
std::string BarPanel(const std::string& id, std::string_view kind, const StrategyReport& s,
                     const Bars& bars, const InstanceColours& colours, const PlotAxis& y,
                     const std::string& title, const std::string& desc, Value value,
                     const std::optional<Across>& across = std::nullopt) {
  SvgPlot plot(kPanelWidth, kPanelHeight);
  plot.SetCategories(bars.labels, "Instance", y);
  for (std::size_t b = 0; b < bars.labels.size(); ++b) {
    const BarValue v = value(bars.members[b]);
    const std::string cls = fmt::format(
        "bar {}", bars.members[b].size() == 1 ? colours.Class(bars.members[b][0]) : "s7");
    const double slot = plot.CategoryWidth();
    const double left = plot.CategoryLeft(b) + slot * 0.15;
    const double width = slot * 0.7;
    if (v.height) {
      const double top = plot.Y(*v.height);
      plot.PixelRect(left, top, width, plot.bottom() - top, cls, v.tip);
    }
    if (v.tick) {
      const double ty = plot.Y(*v.tick);
      plot.PixelLine(left - slot * 0.1, ty, left + width + slot * 0.1, ty, "fair", v.tip);
    }
  }
  if (across) {
    const double ay = plot.Y(across->value);
    plot.PixelLine(plot.left(), ay, plot.right(), ay, "fair", across->tip);
  }
  return plot.Render(id, title, desc, ChartAttributes(kind, s));
}

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

// Names a quantile per mille: "p99.9", "p50", "min", "max".
std::string QuantileName(std::uint32_t q) {
  if (q == 0) return "min";
  if (q == 1000) return "max";
  return q % 10 == 0 ? fmt::format("p{}", q / 10) : fmt::format("p{}.{}", q / 10, q % 10);
}

HtmlSection LatencySection(const Report& report) {
  HtmlSection section{"latency", "Latency distribution", ""};
  std::string& out = section.html;
  out = SectionStart(section.id, section.title);
  const std::string& unit = report.time_unit;
  out += fmt::format(
      "<p class=\"note\">The share of served requests whose latency (queue wait + service) "
      "was at most x, one line per strategy, from {} nearest-rank quantiles (min, p1 to p99, "
      "p99.5, p99.9, max).</p>\n",
      LatencyChartQuantiles().size());
  const auto& runs = report.strategies;
  const ChartsReport& charts = *report.charts;
  std::vector<std::pair<std::string, std::string>> legend;
  double top = 0.0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    legend.emplace_back(runs[r].label, fmt::format("line s{} d{}", r % kOwnColours, r % 4));
    for (const auto& [q, v] : charts.strategies[r].latency_quantiles) top = std::max(top, v);
  }
  std::vector<std::pair<std::string, std::string>> with_p99 = legend;
  with_p99.emplace_back("p99 of each strategy", "dot s7");
  out += Legend(with_p99);
  SvgPlot plot(2 * kPanelWidth, 300);
  plot.SetAxes(NiceAxis(0.0, std::max(top, 1e-9), fmt::format("latency ({})", unit)),
               NiceAxis(0.0, 1.0, "share of served requests", true));
  std::string desc = "Latency percentiles:";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& quantiles = charts.strategies[r].latency_quantiles;
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
    const LatencySummary& l = runs[r].what_if->service->latency;
    plot.Dot(l.p99, 0.99, 3.0, fmt::format("dot s{}", r % kOwnColours),
             fmt::format("{}: p99 {} {}", runs[r].label, FixedText(l.p99, 3), unit));
    desc += fmt::format(" {} p50 {}, p90 {}, p99 {}, max {} {};", runs[r].label,
                        FixedText(l.p50, 3), FixedText(l.p90, 3), FixedText(l.p99, 3),
                        FixedText(l.max, 3), unit);
  }
  Finish(desc);
  out += "<figure>\n";
  out += plot.Render("latency-cdf", "Latency distribution of served requests", desc,
                     "data-chart=\"latency-cdf\"");
  std::vector<std::string> head{"quantile"};
  for (const StrategyReport& s : runs) head.push_back(HtmlText(s.label) + fmt::format(" ({})", HtmlText(unit)));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < LatencyChartQuantiles().size(); ++k) {
    std::vector<std::string> row{QuantileName(LatencyChartQuantiles()[k])};
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const auto& quantiles = charts.strategies[r].latency_quantiles;
      row.push_back(k < quantiles.size() ? FixedText(quantiles[k].second, 3) : "-");
    }
    rows.push_back(std::move(row));
  }
  out += fmt::format("<details><summary>Numbers</summary>\n{}</details>\n</figure>\n",
                     Table(head, rows));
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
  const bool over_time = std::any_of(
      report.charts->strategies.begin(), report.charts->strategies.end(),
      [](const StrategyChartsReport& c) { return !c.windows.empty(); });
  if (over_time) {
    const Timeline t = MakeTimeline(report);
    sections.push_back(ShareTimeSection(report, colours, t));
    sections.push_back(InflightSection(report, colours, t));
    sections.push_back(ReasonSection(report, t));
    sections.push_back(FallbackSection(report, t));
  }
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
  // The engine model (issue 20) adds its charts here, as sections of their
  // own: TTFT and E2E CDFs beside the latency CDF, batch size and KV use
  // over time on the shared Timeline.
  return sections;
}

}  // namespace lbsim
