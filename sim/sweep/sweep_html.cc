// A sweep as one HTML page: a heatmap per figure over the grid (a row per
// configuration, a column per trace), a scatter of two figures per trace
// with the Pareto front marked, and every row's figures as a table.

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html_page.h"
#include "sim/report/svg_chart.h"
#include "sim/sweep/sweep.h"

namespace lbsim {
namespace {

// The grid as a table: rows are configurations (a spec with its varied
// values and seed) in cell order, columns the traces; each place holds
// the row of that cell, or none (a shard's slice).
struct Grid {
  std::vector<std::string> specs;
  std::vector<std::string> traces;
  std::vector<std::vector<const SweepRow*>> at;  // [spec][trace]
};

Grid MakeGrid(const SweepResult& result) {
  Grid g;
  auto index = [](std::vector<std::string>& list, const std::string& name) {
    const auto it = std::find(list.begin(), list.end(), name);
    if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
    list.push_back(name);
    return list.size() - 1;
  };
  for (const std::string& t : result.grid.traces) index(g.traces, t);
  for (const SweepRow& row : result.rows) index(g.specs, row.spec);
  g.at.assign(g.specs.size(), std::vector<const SweepRow*>(g.traces.size(), nullptr));
  for (const SweepRow& row : result.rows) g.at[index(g.specs, row.spec)][index(g.traces, row.trace)] = &row;
  return g;
}

// The file name of a trace path, for column heads.
std::string BaseName(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Viridis at 0 (dark purple: the worst value) .. 1 (yellow: the best);
// told apart with the common colour-vision deficiencies, and in grey.
std::string Viridis(double g) {
  static constexpr std::array<std::array<int, 3>, 5> kStops{{
      {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}}};
  g = std::clamp(g, 0.0, 1.0) * 4.0;
  const auto k = std::min<std::size_t>(3, static_cast<std::size_t>(g));
  const double f = g - static_cast<double>(k);
  std::array<int, 3> c{};
  for (int i = 0; i < 3; ++i)
    c[i] = static_cast<int>(std::lround(kStops[k][i] + f * (kStops[k + 1][i] - kStops[k][i])));
  return fmt::format("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
}

std::string Value(const SweepFigure& f, const std::optional<double>& v) {
  return v ? FixedText(*v, f.decimals) : "n/a";
}

// The smallest and largest value of figure `f` in each trace's column.
std::vector<std::optional<std::pair<double, double>>> ColumnRanges(const SweepFigure& f,
                                                                   const Grid& g) {
  std::vector<std::optional<std::pair<double, double>>> ranges(g.traces.size());
  for (const auto& line : g.at)
    for (std::size_t t = 0; t < line.size(); ++t)
      if (line[t])
        if (const auto v = f.value(*line[t])) {
          auto& r = ranges[t];
          r = r ? std::pair{std::min(r->first, *v), std::max(r->second, *v)} : std::pair{*v, *v};
        }
  return ranges;
}

// The heatmap of figure `f`, or "" when it is undefined everywhere or the
// same in every cell (those are listed instead). Each column is coloured
// on its own scale: configurations compete per trace.
std::string Heatmap(const SweepFigure& f, const Grid& g, std::size_t number) {
  const auto ranges = ColumnRanges(f, g);
  std::optional<std::pair<double, double>> all;
  for (const auto& r : ranges)
    if (r) all = all ? std::pair{std::min(all->first, r->first), std::max(all->second, r->second)} : *r;
  if (!all || all->first == all->second) return "";
  std::size_t longest = 8;
  for (const std::string& s : g.specs) longest = std::max(longest, std::min<std::size_t>(s.size(), 36));
  const double label_width = 7.0 * static_cast<double>(longest) + 16.0;
  const double column = 112.0, row_height = 24.0, head = 34.0, foot = 40.0;
  // The legend's line: five swatches, then "best of its column (...)".
  const double legend_width = 146.0 + 6.5 * 38.0;
  const double width = std::max(label_width + column * static_cast<double>(g.traces.size()),
                                label_width + legend_width) + 8.0;
  const double height = head + row_height * static_cast<double>(g.specs.size()) + foot;
  const std::string id = fmt::format("heat-{}", number);
  std::string desc = fmt::format("{} ({} is better):", f.title, f.lower_is_better ? "lower" : "higher");
  std::string marks;
  for (std::size_t t = 0; t < g.traces.size(); ++t)
    marks += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{}</text>\n",
                         Px(label_width + column * (static_cast<double>(t) + 0.5)), Px(head - 10),
                         HtmlText(Shorten(BaseName(g.traces[t]), 16)));
  for (std::size_t s = 0; s < g.specs.size(); ++s) {
    const double y = head + row_height * static_cast<double>(s);
    marks += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                         Px(label_width - 8), Px(y + 16), HtmlText(Shorten(g.specs[s], 36)));
    for (std::size_t t = 0; t < g.traces.size(); ++t) {
      const SweepRow* row = g.at[s][t];
      if (!row) continue;
      const std::optional<double> v = f.value(*row);
      const double x = label_width + column * static_cast<double>(t);
      const std::string tip = fmt::format("{} on {}: {} {}", g.specs[s], g.traces[t], f.name,
                                          Value(f, v));
      desc += fmt::format(" {} on {} {};", g.specs[s], BaseName(g.traces[t]), Value(f, v));
      if (!v) {
        marks += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"grid\" fill=\"none\">"
            "<title>{}</title></rect>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
            "class=\"tick\">n/a</text>\n",
            Px(x + 1), Px(y + 1), Px(column - 2), Px(row_height - 2), HtmlText(tip),
            Px(x + column / 2), Px(y + 16));
        continue;
      }
      // Differences too small to matter stay near mid scale.
      const auto [lo, hi] = *ranges[t];
      const double better = HeatmapPosition(*v, lo, hi, f.lower_is_better);
      marks += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n"
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"{}\">{}</text>\n",
          Px(x + 1), Px(y + 1), Px(column - 2), Px(row_height - 2), Viridis(better),
          HtmlText(tip), Px(x + column / 2), Px(y + 16), better < 0.5 ? "cell-dark" : "cell-light",
          Value(f, v));
    }
  }
  // The colour scale: worst to best in a column.
  const double scale_y = head + row_height * static_cast<double>(g.specs.size()) + 12;
  for (int k = 0; k < 5; ++k)
    marks += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"28\" height=\"12\" fill=\"{}\"/>\n",
                         Px(label_width + 28.0 * k), Px(scale_y), Viridis(k / 4.0));
  marks += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"tick\">worst</text>\n"
      "<text x=\"{}\" y=\"{}\" class=\"tick\">best of its column ({} is better)</text>\n",
      Px(label_width - 6), Px(scale_y + 10), Px(label_width + 146), Px(scale_y + 10),
      f.lower_is_better ? "lower" : "higher");
  desc.back() = '.';
  return fmt::format(
      "<figure>\n<figcaption>{0} <span class=\"note\">({1})</span></figcaption>\n<div class=\"scroll\">"
      "<svg class=\"chart heatmap\" id=\"{2}\" viewBox=\"0 0 {3} {4}\" width=\"{3}\" "
      "role=\"img\" aria-labelledby=\"{2}-t\" aria-describedby=\"{2}-d\" data-chart=\"heatmap\" "
      "data-figure=\"{0}\">\n<title id=\"{2}-t\">{0} over the grid</title>\n<desc id=\"{2}-d\">{5}"
      "</desc>\n{6}</svg></div>\n</figure>\n",
      f.name, HtmlText(f.title), id, Px(width), Px(height), HtmlText(desc), marks);
}

// Whether `a` is at least as good as `b` on both figures and better on one.
bool Dominates(const std::pair<double, double>& a, const std::pair<double, double>& b,
               const SweepScatter& s) {
  auto better = [](double p, double q, bool lower) { return lower ? p < q : p > q; };
  auto no_worse = [](double p, double q, bool lower) { return lower ? p <= q : p >= q; };
  return no_worse(a.first, b.first, s.x->lower_is_better) &&
         no_worse(a.second, b.second, s.y->lower_is_better) &&
         (better(a.first, b.first, s.x->lower_is_better) ||
          better(a.second, b.second, s.y->lower_is_better));
}

std::string ScatterSection(const SweepResult& result, const Grid& g, const SweepScatter& s) {
  const SweepFigure& fx = *s.x;
  const SweepFigure& fy = *s.y;
  std::string out = fmt::format(
      "<section id=\"scatter\">\n<h2>{} against {}</h2>\n<p class=\"note\">One point per "
      "configuration, one panel per trace on its own scales; {} is better to the {}, {} is "
      "better {}. Ringed and "
      "joined: the Pareto front, the configurations no other beats on both. Choose the figures "
      "with <code>--scatter X,Y</code>.</p>\n",
      fy.name, fx.name, fx.name, fx.lower_is_better ? "left" : "right", fy.name,
      fy.lower_is_better ? "down" : "up");
  // Strategies in order of appearance, one colour each.
  std::vector<std::string> strategies;
  for (const SweepRow& row : result.rows)
    if (std::find(strategies.begin(), strategies.end(), row.strategy) == strategies.end())
      strategies.push_back(row.strategy);
  auto colour = [&](const std::string& strategy) {
    return static_cast<std::size_t>(std::find(strategies.begin(), strategies.end(), strategy) -
                                    strategies.begin()) % 7;
  };
  std::vector<std::pair<std::string, std::string>> legend;
  for (const std::string& st : strategies) legend.emplace_back(st, fmt::format("dot s{}", colour(st)));
  legend.emplace_back("Pareto front", "front");
  out += Legend(legend);
  out += "<div class=\"panels\">\n";
  for (std::size_t t = 0; t < g.traces.size(); ++t) {
    struct Point {
      const SweepRow* row;
      std::pair<double, double> at;
      bool front = true;
    };
    std::vector<Point> points;
    for (std::size_t sp = 0; sp < g.specs.size(); ++sp)
      if (const SweepRow* row = g.at[sp][t])
        if (const auto x = fx.value(*row), y = fy.value(*row); x && y)
          points.push_back({row, {*x, *y}});
    if (points.empty()) {
      out += fmt::format("<figure>\n<figcaption>{}</figcaption>\n<p>No configuration has "
                         "both figures on this trace.</p>\n</figure>\n",
                         HtmlText(g.traces[t]));
      continue;
    }
    // Each trace on its own scales: traces differ far more than
    // configurations do.
    double xlo = points[0].at.first, xhi = xlo, ylo = points[0].at.second, yhi = ylo;
    for (const Point& p : points) {
      xlo = std::min(xlo, p.at.first);
      xhi = std::max(xhi, p.at.first);
      ylo = std::min(ylo, p.at.second);
      yhi = std::max(yhi, p.at.second);
    }
    const double xpad = std::max((xhi - xlo) * 0.08, std::fabs(xhi) * 1e-3 + 1e-9);
    const double ypad = std::max((yhi - ylo) * 0.08, std::fabs(yhi) * 1e-3 + 1e-9);
    const PlotAxis x_axis = NiceAxis(xlo - xpad, xhi + xpad, std::string(fx.name));
    const PlotAxis y_axis = NiceAxis(ylo - ypad, yhi + ypad, std::string(fy.name));
    for (Point& p : points)
      for (const Point& q : points)
        if (Dominates(q.at, p.at, s)) p.front = false;
    SvgPlot plot(480, 300);
    plot.SetAxes(x_axis, y_axis);
    std::vector<std::pair<double, double>> front;
    for (const Point& p : points)
      if (p.front) front.push_back(p.at);
    std::sort(front.begin(), front.end());
    front.erase(std::unique(front.begin(), front.end()), front.end());
    if (front.size() > 1) plot.Path(front, "front");
    std::string desc = fmt::format("{} configurations. Pareto front:", points.size());
    std::vector<std::vector<std::string>> rows;
    for (const Point& p : points) {
      const std::string tip = fmt::format("{}: {} {}, {} {}{}", p.row->spec, fx.name,
                                          FixedText(p.at.first, fx.decimals), fy.name,
                                          FixedText(p.at.second, fy.decimals),
                                          p.front ? " (Pareto front)" : "");
      plot.Dot(p.at.first, p.at.second, 4.5, fmt::format("dot s{}", colour(p.row->strategy)), tip);
      if (p.front) {
        plot.Dot(p.at.first, p.at.second, 8.0, "ring");
        desc += fmt::format(" {} ({}, {});", p.row->spec, FixedText(p.at.first, fx.decimals),
                            FixedText(p.at.second, fy.decimals));
      }
      rows.push_back({HtmlText(p.row->spec), FixedText(p.at.first, fx.decimals),
                      FixedText(p.at.second, fy.decimals), p.front ? "yes" : ""});
    }
    desc.back() = '.';
    out += fmt::format("<figure>\n<figcaption>{}</figcaption>\n", HtmlText(g.traces[t]));
    out += plot.Render(fmt::format("scatter-{}", t + 1),
                       fmt::format("{} against {} on {}", fy.name, fx.name, g.traces[t]), desc,
                       "data-chart=\"scatter\"");
    std::string table = fmt::format(
        "<div class=\"scroll\"><table>\n<thead><tr><th scope=\"col\">configuration</th>"
        "<th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">Pareto front</th>"
        "</tr></thead>\n<tbody>\n",
        fx.name, fy.name);
    for (const auto& r : rows)
      table += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                           r[0], r[1], r[2], r[3]);
    table += "</tbody></table></div>\n";
    out += fmt::format("<details><summary>Numbers</summary>\n{}</details>\n</figure>\n", table);
  }
  out += "</div>\n</section>\n";
  return out;
}

// Whether any cell ran the service model (--slots, or a sim.slots axis).
bool AnyService(const SweepResult& result) {
  return std::any_of(result.rows.begin(), result.rows.end(),
                     [](const SweepRow& row) { return row.service() != nullptr; });
}

// Whether the page shows figure `f`: some cell ran what it needs.
bool Shown(const SweepFigure& f, const SweepResult& result) {
  switch (f.needs) {
    case SweepFigure::Needs::kNothing: return true;
    case SweepFigure::Needs::kService: return AnyService(result);
    case SweepFigure::Needs::kProxyQueue:
      return std::any_of(result.rows.begin(), result.rows.end(),
                         [](const SweepRow& row) { return row.proxy_queue() != nullptr; });
  }
  return false;
}

std::string RowsTable(const SweepResult& result) {
  std::string out = "<section id=\"rows\">\n<h2>All rows</h2>\n<p class=\"note\">Every cell's "
                    "figures, as in <code>-f csv</code> (which has the parameters and reason "
                    "counts too).</p>\n<div class=\"scroll\"><table>\n<thead><tr>"
                    "<th scope=\"col\">cell</th><th scope=\"col\" class=\"text\">trace</th>"
                    "<th scope=\"col\" class=\"text\">configuration</th>";
  std::vector<const SweepFigure*> shown;
  for (const SweepFigure& f : SweepFigures())
    if (Shown(f, result)) shown.push_back(&f);
  for (const SweepFigure* f : shown) out += fmt::format("<th scope=\"col\">{}</th>", f->name);
  out += "</tr></thead>\n<tbody>\n";
  for (const SweepRow& row : result.rows) {
    out += fmt::format("<tr><th scope=\"row\">{}</th><td class=\"text\">{}</td><td class=\"text\">{}</td>",
                       row.cell, HtmlText(row.trace), HtmlText(row.spec));
    for (const SweepFigure* f : shown) out += fmt::format("<td>{}</td>", Value(*f, f->value(row)));
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n</section>\n";
  return out;
}

}  // namespace

std::string RenderSweepHtml(const SweepResult& result, const SweepScatter& scatter) {
  const SweepGrid& grid = result.grid;
  const Grid g = MakeGrid(result);
  std::string body = "<header>\n<h1>lbsim sweep</h1>\n<dl class=\"facts\">\n";
  auto fact = [&](std::string_view key, const std::string& value) {
    body += fmt::format("<dt>{}</dt><dd>{}</dd>\n", key, value);
  };
  auto list = [](const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& i : items) out += fmt::format("{}<code>{}</code>", out.empty() ? "" : ", ", HtmlText(i));
    return out.empty() ? std::string("none") : out;
  };
  fact("cells", result.shard ? fmt::format("{} of {} (shard {}/{})", result.rows.size(), result.cells,
                                           result.shard->index, result.shard->count)
                             : fmt::format("{}", result.cells));
  fact("traces", list(grid.traces));
  fact("strategies", list(grid.strategies.empty() ? std::vector<std::string>{"round_robin"} : grid.strategies));
  std::vector<std::string> vary;
  for (const SweepAxis& axis : grid.axes) {
    std::string values;
    for (const std::string& v : axis.values) values += (values.empty() ? "" : ",") + v;
    vary.push_back(axis.Name() + "=" + values);
  }
  fact("varied", list(vary));
  if (!grid.settings.empty()) fact("settings", list(grid.settings));
  if (!grid.seeds.empty()) {
    std::vector<std::string> seeds;
    for (std::uint64_t s : grid.seeds) seeds.push_back(fmt::format("{}", s));
    fact("seeds", list(seeds));
  }
  // Every row names the Proxy it replayed (a trace header may pick one).
  std::vector<std::string> proxies;
  for (const SweepRow& row : result.rows) {
    const std::string p = row.python.empty() ? row.proxy : fmt::format("{} (Python {})", row.proxy, row.python);
    if (std::find(proxies.begin(), proxies.end(), p) == proxies.end()) proxies.push_back(p);
  }
  fact("proxy", list(proxies));
  std::vector<std::string> slots;
  for (const SweepRow& row : result.rows) {
    std::string k = "off";
    for (const auto& [key, value] : row.sim_values)
      if (key == "slots") k = value;
    if (k == "off" && grid.sim.service()) k = fmt::format("{}", grid.sim.slots);
    if (std::find(slots.begin(), slots.end(), k) == slots.end()) slots.push_back(k);
  }
  fact("service model", slots.size() == 1 && slots.front() == "off"
                            ? std::string("off (--slots K adds latency figures)")
                        : slots.size() == 1
                            ? fmt::format("{} slot{} per Instance", slots.front(),
                                          slots.front() == "1" ? "" : "s")
                            : fmt::format("{} slots per Instance (varied)", list(slots)));
  body += "</dl>\n</header>\n";

  std::string heatmaps, constant, none;
  std::size_t number = 0;
  for (const SweepFigure& f : SweepFigures()) {
    if (!Shown(f, result)) continue;
    const std::string map = Heatmap(f, g, ++number);
    if (!map.empty()) {
      heatmaps += map;
      continue;
    }
    // The same value wherever there is one, or none at all: a line each
    // instead of a map.
    std::optional<double> v;
    for (const SweepRow& row : result.rows)
      if ((v = f.value(row))) break;
    if (v)
      constant += fmt::format("{}<code>{}</code> {}", constant.empty() ? "" : ", ", f.name,
                              Value(f, *v));
    else
      none += fmt::format("{}<code>{}</code>", none.empty() ? "" : ", ", f.name);
  }
  body += "<nav aria-label=\"Contents\"><ol>\n<li><a href=\"#heatmaps\">Figures over the grid</a></li>\n"
          "<li><a href=\"#scatter\">Scatter</a></li>\n<li><a href=\"#rows\">All rows</a></li>\n</ol></nav>\n<main>\n";
  body += "<section id=\"heatmaps\">\n<h2>Figures over the grid</h2>\n<p class=\"note\">A row per "
          "configuration, a column per trace, the value written in each cell; its colour goes from "
          "the worst (dark) to the best (yellow) value of its column, over the column's range or, "
          "when the values lie closer than 5% of the largest, over 5% of it: values that differ "
          "by less look alike (mid scale).</p>\n";
  if (!constant.empty())
    body += fmt::format("<p>The same in every cell that has a value: {}.</p>\n", constant);
  if (!none.empty()) body += fmt::format("<p>No value in any cell: {}.</p>\n", none);
  body += "<div class=\"panels wide\">\n" + heatmaps + "</div>\n</section>\n";
  body += ScatterSection(result, g, scatter);
  body += RowsTable(result);
  body += "</main>\n<footer>Written by lbsim: inline SVG, no script, nothing loaded. The same "
          "sweep gives a byte-identical file.</footer>\n";
  return HtmlPage("lbsim sweep", body);
}

}  // namespace lbsim
