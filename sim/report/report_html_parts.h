#pragma once

// The pieces the chart sections of a replay's HTML report are made of
// (report_html_charts.cc, report_html_time.cc): the Instances' colours and
// bars, number and time text, panels, tables and bar charts. Internal to
// the HTML report.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/report/report.h"
#include "sim/report/svg_chart.h"

namespace lbsim {

// One section of an HTML page: its anchor, its heading and its HTML (the
// heading included).
struct HtmlSection {
  std::string id;
  std::string title;
  std::string html;
};

namespace report_html {

// Instances a bar chart shows one by one; past that, the rest are one bar.
inline constexpr std::size_t kMaxBars = 24;
// Series colours: s0..s6 for Instances drawn on their own, s7 for the rest.
inline constexpr std::size_t kOwnColours = 7;
// The size of one strategy's chart (SVG user units).
inline constexpr int kPanelWidth = 480;
inline constexpr int kPanelHeight = 250;

// "12.5%" of a fraction.
std::string Percent(double x);
// The top of a y axis for data reaching `top`: a little above it, so that
// a line or tick at the top stays clear of the frame.
double Headroom(double top);
std::string Count(std::uint64_t n);
// "1 decision", "2 decisions".
std::string Decisions(std::uint64_t n);
// A text alternative listing items with ";" ends with a full stop.
std::string& Finish(std::string& desc);

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

// Instances by their selections over every strategy, most first (ties:
// the earlier registered).
std::vector<std::size_t> ByTotalSelections(const Report& report);
InstanceColours ChooseColours(const Report& report);
// The legend of the Instance colours as `kind` marks ("bar", "area",
// "line"), plus `extra` items.
std::string InstanceLegend(const Report& report, const InstanceColours& colours,
                           std::string_view kind,
                           std::vector<std::pair<std::string, std::string>> extra = {});

// Digits that show every chart window boundary exactly enough.
int TimeDecimals(double window);

// Formats trace times of one report.
struct TimeFormat {
  int decimals = 0;
  std::string unit;
  // A window boundary.
  std::string operator()(double t) const;
  // An event's own time, every digit it has ("2.5"; huge ones as FixedText).
  std::string Exact(double t) const;
  // "[10, 20) s".
  std::string Span(const ChartWindowReport& w) const;
};

// An HTML table: a header row and body rows of cells (HTML already); the
// first cell of each row is a row header.
std::string Table(const std::vector<std::string>& head,
                  const std::vector<std::vector<std::string>>& rows);
// A panel: one strategy's chart with its caption, a note (HTML, may be
// empty) and its numbers (HTML) under "Numbers".
std::string Panel(const StrategyReport& s, const std::string& svg, const std::string& note,
                  const std::string& data);
// A section's opening tag and heading.
std::string SectionStart(const std::string& id, const std::string& title);
// The data-chart and data-strategy attributes of a strategy's chart.
std::string ChartAttributes(std::string_view kind, const StrategyReport& s);

// Decisions in a window that chose an Instance.
std::uint64_t Chose(const ChartWindowReport& w);
// The Instances' fair shares in strategy `s`: each one's candidate
// decisions over the sum of everyone's (1/n when all were always
// candidates); 0 for all when nobody was a candidate.
std::vector<double> FairShares(const StrategyReport& s);

// The bars of a per-Instance bar chart: at most kMaxBars, the Instances
// with the most selections over every strategy in report order, and one
// bar for the rest.
struct Bars {
  std::vector<std::string> labels;
  std::vector<std::vector<std::size_t>> members;  // Instances behind each bar
};
Bars ChooseBars(const Report& report);

// One bar: its height (none: no bar), hover text and tick (fair share).
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
// BarValue; `across` an optional line over them all.
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

// The sections over time (report_html_time.cc): shares, requests in
// flight, decisions by reason, fallback rate and herding, in the chart
// windows every strategy shares. Empty when nothing happened over time.
std::vector<HtmlSection> TimeSections(const Report& report, const InstanceColours& colours);

}  // namespace report_html
}  // namespace lbsim
