// The pieces of the chart sections of a replay's HTML report.

#include "sim/report/report_html_parts.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/number_text.h"
#include "sim/report/html_page.h"

namespace lbsim::report_html {

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
                           std::vector<std::pair<std::string, std::string>> extra) {
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


std::string TimeFormat::operator()(double t) const { return FixedText(t, decimals); }

std::string TimeFormat::Exact(double t) const {
  return std::fabs(t) < 1e15 ? NumberText(t) : FixedText(t, decimals);
}

std::string TimeFormat::Span(const ChartWindowReport& w) const {
  return fmt::format("[{}, {}) {}", (*this)(w.start), (*this)(w.end), unit);
}

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

}  // namespace lbsim::report_html
