// The HTML report: one self-contained page with a header naming the trace
// and the Proxy, the warnings, the charts (report_html_charts.cc) and every
// figure of the table report as tables.

#include <fmt/format.h>

#include "base/number_text.h"
#include "sim/report/html_page.h"
#include "sim/report/report.h"
#include "sim/report/report_html_charts.h"
#include "sim/report/report_rows.h"

namespace lbsim {
namespace {

// The figures of the table report as an HTML table: a column per
// strategy; section titles as header rows, blank lines as row groups.
std::string FiguresTable(const ReportRows& rows) {
  std::string out = "<div class=\"scroll\"><table class=\"figures\">\n";
  std::size_t columns = 1;
  for (const auto& row : rows.rows) columns = std::max(columns, row.size());
  bool head = true;
  bool open = false;  // a <tbody> is open
  for (const auto& row : rows.rows) {
    if (head) {
      // The first row names the strategies.
      out += "<thead><tr>";
      for (std::size_t c = 0; c < row.size(); ++c)
        out += fmt::format("<th scope=\"col\">{}</th>", HtmlText(row[c]));
      out += "</tr></thead>\n";
      head = false;
      continue;
    }
    if (row.empty()) {
      if (open) out += "</tbody>\n";
      open = false;
      continue;
    }
    if (!open) out += "<tbody>\n";
    open = true;
    // Leading spaces indent a figure under its section, two per level.
    const std::size_t spaces = row[0].find_first_not_of(' ');
    const std::size_t level = spaces == std::string::npos ? 0 : spaces / 2;
    const std::string title = HtmlText(row[0].substr(spaces == std::string::npos ? 0 : spaces));
    const std::string indent = level ? fmt::format(" class=\"i{}\"", std::min<std::size_t>(level, 2)) : "";
    if (row.size() == 1) {
      out += fmt::format("<tr class=\"section\"><th colspan=\"{}\" scope=\"colgroup\"{}>{}</th></tr>\n",
                         columns, indent, title);
      continue;
    }
    out += fmt::format("<tr><th scope=\"row\"{}>{}</th>", indent, title);
    for (std::size_t c = 1; c < row.size(); ++c) out += fmt::format("<td>{}</td>", HtmlText(row[c]));
    out += "</tr>\n";
  }
  if (open) out += "</tbody>\n";
  out += "</table></div>\n";
  return out;
}

// How the charts' window was chosen, for the header.
std::string ChartWindowText(const Report& report) {
  const ChartsReport& charts = *report.charts;
  if (!(charts.window > 0.0)) return "no events, nothing over time";
  const std::string width = fmt::format("{} {}", NumberText(charts.window), report.time_unit);
  if (report.simulation && report.simulation->windows()) {
    const double window = report.simulation->window;
    if (charts.window == window) return fmt::format("{} (--window)", width);
    return fmt::format("{} (--window {} x {}: at most {} windows)", width, NumberText(window),
                       NumberText(charts.window / window), charts.max_windows);
  }
  return fmt::format("{} (the narrowest 1, 2 or 5 x 10^k {} that cuts the run into at most {} "
                     "windows)",
                     width, report.time_unit, charts.max_windows);
}

std::string Header(const Report& report, const ReportRows& rows) {
  const std::string& name = report.trace_name.empty() ? report.trace_path : report.trace_name;
  std::string out = fmt::format("<header>\n<h1>lbsim report: {}</h1>\n", HtmlText(name));
  out += "<dl class=\"facts\">\n";
  for (const auto& [key, value] : rows.header) {
    if (key == "name") continue;  // the heading
    const std::string shown = key == "trace" ? fmt::format("<code>{}</code>", HtmlText(value))
                                             : HtmlText(value);
    out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", HtmlText(key), shown);
  }
  std::string strategies;
  for (const StrategyReport& s : report.strategies)
    strategies += fmt::format("{}{} (<code>{}</code>)", strategies.empty() ? "" : ", ",
                              HtmlText(s.label), HtmlText(s.requested_as));
  out += fmt::format("<dt>strategies</dt><dd>{}</dd>\n", strategies);
  out += fmt::format("<dt>chart window</dt><dd>{}</dd>\n", HtmlText(ChartWindowText(report)));
  out += "</dl>\n</header>\n";
  return out;
}

std::string Warnings(const ReportRows& rows) {
  std::string out = "<section id=\"warnings\">\n<h2>Warnings</h2>\n";
  if (rows.warnings.empty()) return out + "<p>None.</p>\n</section>\n";
  out += "<ul class=\"warnings\">\n";
  for (const auto& [who, text] : rows.warnings)
    out += fmt::format("<li><strong>{}</strong>: {}</li>\n", HtmlText(who), HtmlText(text));
  out += "</ul>\n</section>\n";
  return out;
}

std::string Figures(const ReportRows& rows) {
  std::string out = "<section id=\"figures\">\n<h2>All figures</h2>\n";
  out += "<p class=\"note\">The figures of the table report (<code>--format table</code>), "
         "strategies side by side.</p>\n";
  out += FiguresTable(rows);
  if (!rows.params.empty()) {
    out += "<h3>Parameters</h3>\n<p class=\"note\">Those that differ from their defaults "
           "(the JSON report lists all).</p>\n<ul>\n";
    for (const auto& [label, text] : rows.params)
      out += fmt::format("<li><strong>{}</strong>: <code>{}</code></li>\n", HtmlText(label),
                         HtmlText(text));
    out += "</ul>\n";
  }
  out += "</section>\n";
  return out;
}

}  // namespace

std::string RenderHtml(const Report& report) {
  const ReportRows rows = BuildReportRows(report);
  const std::vector<HtmlSection> charts = ReplayChartSections(report);
  std::string body = Header(report, rows);
  body += "<nav aria-label=\"Contents\"><ol>\n<li><a href=\"#warnings\">Warnings</a></li>\n";
  for (const HtmlSection& s : charts)
    body += fmt::format("<li><a href=\"#{}\">{}</a></li>\n", s.id, HtmlText(s.title));
  body += "<li><a href=\"#figures\">All figures</a></li>\n</ol></nav>\n<main>\n";
  body += Warnings(rows);
  for (const HtmlSection& s : charts) body += s.html;
  body += Figures(rows);
  body += "</main>\n<footer>Written by lbsim: inline SVG, no script, nothing loaded. The same "
          "trace, options and parameters give a byte-identical file.</footer>\n";
  const std::string& name = report.trace_name.empty() ? report.trace_path : report.trace_name;
  return HtmlPage("lbsim report: " + name, body);
}

}  // namespace lbsim
