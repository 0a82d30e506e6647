#include "sim/report/svg_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html_page.h"

namespace lbsim {
namespace {

// 10^e for a small integer e, by repeated multiplication or division.
double Decade(int e) {
  double x = 1.0;
  for (int k = 0; k < e; ++k) x *= 10.0;
  for (int k = 0; k > e; --k) x /= 10.0;
  return x;
}

// The <title> child that gives a mark its hover text, or nothing.
std::string Tip(std::string_view tip) {
  return tip.empty() ? std::string() : fmt::format("<title>{}</title>", HtmlText(tip));
}

// A mark element: self-closing without a tip, else holding its <title>.
std::string Mark(std::string_view element, const std::string& attributes,
                 std::string_view cls, std::string_view tip) {
  if (tip.empty()) return fmt::format("<{} {} class=\"{}\"/>\n", element, attributes, cls);
  return fmt::format("<{} {} class=\"{}\">{}</{}>\n", element, attributes, cls, Tip(tip), element);
}

bool Has(std::string_view classes, std::string_view word) {
  std::size_t at = 0;
  while ((at = classes.find(word, at)) != std::string_view::npos) {
    const bool starts = at == 0 || classes[at - 1] == ' ';
    const bool ends = at + word.size() == classes.size() || classes[at + word.size()] == ' ';
    if (starts && ends) return true;
    at += word.size();
  }
  return false;
}

}  // namespace

std::string Px(double v) { return FixedText(v, 1); }

PlotAxis NiceAxis(double lo, double hi, std::string label, bool percent, int count) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(hi - lo)) lo = 0.0, hi = 1.0;
  if (!(hi > lo)) hi = lo + 1.0;
  const double raw = (hi - lo) / std::max(1, count);
  const int e = static_cast<int>(std::floor(std::log10(raw)));
  const double decade = Decade(e);
  const double lead = raw / decade;
  // The step nearest the raw one (thresholds at the geometric means).
  const int factor = lead < 1.5 ? 1 : lead < 3.0 ? 2 : lead < 7.0 ? 5 : 10;
  const double step = factor * decade;
  const int step_exponent = factor == 10 ? e + 1 : e;
  PlotAxis axis;
  axis.label = std::move(label);
  axis.percent = percent;
  // Digits enough for the step: percent ticks show 100 x the value.
  axis.decimals = std::max(0, -(step_exponent + (percent ? 2 : 0)));
  const auto first = static_cast<std::int64_t>(std::floor(lo / step + 1e-9));
  const auto last = static_cast<std::int64_t>(std::ceil(hi / step - 1e-9));
  for (std::int64_t k = first; k <= last; ++k) axis.ticks.push_back(static_cast<double>(k) * step);
  axis.lo = axis.ticks.front();
  axis.hi = axis.ticks.back();
  if (!(axis.hi > axis.lo)) axis.hi = axis.lo + step;
  return axis;
}

std::string TickText(const PlotAxis& axis, double v) {
  return axis.percent ? FixedText(100.0 * v, axis.decimals) + "%" : FixedText(v, axis.decimals);
}

std::string Shorten(std::string_view text, std::size_t max) {
  std::size_t chars = 0, at = 0;
  while (at < text.size()) {
    // Step over one UTF-8 character.
    std::size_t next = at + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
    if (++chars > max) return std::string(text.substr(0, at)) + "\u2026";
    at = next;
  }
  return std::string(text);
}

SvgPlot::SvgPlot(int width, int height) : width_(width), height_(height) {}

void SvgPlot::SetAxes(PlotAxis x, PlotAxis y) {
  x_ = std::move(x);
  y_ = std::move(y);
  categories_.clear();
}

void SvgPlot::SetCategories(std::vector<std::string> labels, std::string x_label, PlotAxis y) {
  categories_ = std::move(labels);
  x_ = PlotAxis{};
  x_.label = std::move(x_label);
  y_ = std::move(y);
  // Many or long labels are slanted and need more room below.
  std::size_t longest = 0;
  for (const std::string& l : categories_) longest = std::max(longest, l.size());
  if (categories_.size() > 8 || longest > 10) bottom_margin_ = 84.0;
}

double SvgPlot::X(double v) const {
  const double f = (v - x_.lo) / (x_.hi - x_.lo);
  return left_ + std::clamp(f, 0.0, 1.0) * (right() - left_);
}

double SvgPlot::Y(double v) const {
  const double f = (v - y_.lo) / (y_.hi - y_.lo);
  return bottom() - std::clamp(f, 0.0, 1.0) * (bottom() - top_);
}

double SvgPlot::CategoryWidth() const {
  return (right() - left_) / static_cast<double>(std::max<std::size_t>(1, categories_.size()));
}

double SvgPlot::CategoryLeft(std::size_t i) const {
  return left_ + CategoryWidth() * static_cast<double>(i);
}

void SvgPlot::Rect(double x0, double y0, double x1, double y1, std::string_view cls,
                   std::string_view tip) {
  const double l = std::min(X(x0), X(x1)), r = std::max(X(x0), X(x1));
  const double t = std::min(Y(y0), Y(y1)), b = std::max(Y(y0), Y(y1));
  PixelRect(l, t, r - l, b - t, cls, tip);
}

void SvgPlot::Column(double x0, double x1, std::string_view cls, std::string_view tip) {
  const double l = std::min(X(x0), X(x1)), r = std::max(X(x0), X(x1));
  PixelRect(l, top_, r - l, bottom() - top_, cls, tip);
}

void SvgPlot::PixelRect(double left, double top, double width, double height,
                        std::string_view cls, std::string_view tip) {
  marks_ += Mark("rect",
                 fmt::format("x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", Px(left), Px(top),
                             Px(std::max(0.0, width)), Px(std::max(0.0, height))),
                 cls, tip);
}

void SvgPlot::Path(const std::vector<std::pair<double, double>>& points, std::string_view cls,
                   bool closed, std::string_view tip) {
  if (points.empty()) return;
  // Path data, each step as short as it can be: a horizontal or vertical
  // move names one coordinate (step charts are mostly such moves), and a
  // move that goes on in the same direction replaces the one before.
  std::string d;
  std::string last_x, last_y;
  char last_move = 'M';
  std::size_t last_at = 0;  // where the last move's text starts in d
  for (const auto& [x, y] : points) {
    const std::string px = Px(X(x)), py = Px(Y(y));
    char move = 0;
    std::string text;
    if (d.empty()) {
      move = 'M', text = "M" + px + " " + py;
    } else if (py == last_y && px != last_x) {
      move = 'H', text = "H" + px;
    } else if (px == last_x && py != last_y) {
      move = 'V', text = "V" + py;
    } else if (px != last_x || py != last_y) {
      move = 'L', text = "L" + px + " " + py;
    }
    if (move) {
      if ((move == 'H' || move == 'V') && move == last_move) d.resize(last_at);
      last_at = d.size();
      d += text;
      last_move = move;
    }
    last_x = px;
    last_y = py;
  }
  if (closed) d += "Z";
  marks_ += Mark("path", fmt::format("d=\"{}\"", d), cls, tip);
}

void SvgPlot::PixelLine(double x0, double y0, double x1, double y1, std::string_view cls,
                        std::string_view tip) {
  marks_ += Mark("line",
                 fmt::format("x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"", Px(x0), Px(y0), Px(x1),
                             Px(y1)),
                 cls, tip);
}

void SvgPlot::Dot(double x, double y, double radius, std::string_view cls, std::string_view tip) {
  marks_ += Mark("circle",
                 fmt::format("cx=\"{}\" cy=\"{}\" r=\"{}\"", Px(X(x)), Px(Y(y)), Px(radius)), cls,
                 tip);
}

void SvgPlot::Text(double x, double y, std::string_view text, std::string_view anchor,
                   std::string_view cls) {
  marks_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}>{}</text>\n", Px(x), Px(y),
                        anchor, cls.empty() ? "" : fmt::format(" class=\"{}\"", cls),
                        HtmlText(text));
}

std::string SvgPlot::Axes() const {
  std::string out = "<g aria-hidden=\"true\">\n";
  // Horizontal gridlines and y tick labels.
  for (double v : y_.ticks) {
    const double y = Y(v);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>\n",
                       Px(left_), Px(y), Px(right()), Px(y));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"tick\">{}</text>\n",
                       Px(left_ - 6), Px(y + 3.5), TickText(y_, v));
  }
  if (categories_.empty()) {
    for (double v : x_.ticks) {
      const double x = X(v);
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>\n",
                         Px(x), Px(top_), Px(x), Px(bottom()));
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{}</text>\n", Px(x),
          Px(bottom() + 14), TickText(x_, v));
    }
  } else {
    const bool slanted = bottom_margin_ > 42.0;
    for (std::size_t i = 0; i < categories_.size(); ++i) {
      const double x = CategoryLeft(i) + CategoryWidth() / 2;
      const std::string label = HtmlText(Shorten(categories_[i], 14));
      if (slanted)
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"tick\" "
            "transform=\"rotate(-40 {} {})\">{}</text>\n",
            Px(x + 3), Px(bottom() + 12), Px(x + 3), Px(bottom() + 12), label);
      else
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{}</text>\n", Px(x),
            Px(bottom() + 14), label);
    }
  }
  // Axis titles: x below, y turned along the axis.
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     Px((left_ + right()) / 2), Px(height_ - 6.0), HtmlText(x_.label));
  const double mid = (top_ + bottom()) / 2;
  out += fmt::format(
      "<text x=\"12\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 12 {})\">{}</text>\n",
      Px(mid), Px(mid), HtmlText(y_.label));
  out += "</g>\n";
  return out;
}

std::string SvgPlot::Render(std::string_view id, std::string_view title, std::string_view desc,
                            std::string_view attributes) const {
  // Wide charts (a whole row to themselves) may grow larger on screen.
  std::string out = fmt::format(
      "<svg class=\"chart{7}\" id=\"{0}\" viewBox=\"0 0 {1} {2}\" role=\"img\" "
      "aria-labelledby=\"{0}-t\" aria-describedby=\"{0}-d\"{3}{4}>\n"
      "<title id=\"{0}-t\">{5}</title>\n<desc id=\"{0}-d\">{6}</desc>\n",
      id, width_, height_, attributes.empty() ? "" : " ", attributes, HtmlText(title),
      HtmlText(desc), width_ > 640 ? " wide" : "");
  out += Axes();
  out += marks_;
  // The axis lines on top of the marks.
  out += fmt::format(
      "<path d=\"M{} {}V{}H{}\" class=\"axis\" fill=\"none\" aria-hidden=\"true\"/>\n", Px(left_),
      Px(top_), Px(bottom()), Px(right()));
  out += "</svg>\n";
  return out;
}

std::string Legend(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string out = "<ul class=\"legend\">\n";
  for (const auto& [label, cls] : items) {
    std::string swatch;
    if (Has(cls, "bar") || Has(cls, "area") || Has(cls, "herd") || Has(cls, "run"))
      swatch = fmt::format("<rect x=\"2\" y=\"1\" width=\"20\" height=\"10\" class=\"{}\"/>", cls);
    else if (Has(cls, "dot") || Has(cls, "ring"))
      swatch = fmt::format("<circle cx=\"12\" cy=\"6\" r=\"4.5\" class=\"{}\"/>", cls);
    else
      swatch = fmt::format("<line x1=\"1\" y1=\"6\" x2=\"23\" y2=\"6\" class=\"{}\"/>", cls);
    out += fmt::format(
        "<li><svg viewBox=\"0 0 24 12\" aria-hidden=\"true\">{}</svg>{}</li>\n", swatch,
        HtmlText(label));
  }
  out += "</ul>\n";
  return out;
}

}  // namespace lbsim
