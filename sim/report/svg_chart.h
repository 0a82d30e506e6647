#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lbsim {

// A linear axis: its range, round tick values and its label (with unit).
struct PlotAxis {
  double lo = 0.0;
  double hi = 1.0;
  std::vector<double> ticks;
  std::string label;     // "time (s)", "share of decisions"
  bool percent = false;  // tick labels x 100 with "%"
  int decimals = 0;      // digits of the tick labels
};

// An axis covering [lo, hi] with about `count` intervals between ticks 1,
// 2 or 5 x 10^k apart, its range widened to the ticks around it (an empty or reversed
// range becomes [lo, lo + 1]).
PlotAxis NiceAxis(double lo, double hi, std::string label, bool percent = false, int count = 5);

// One inline SVG chart: a plot area with axes, gridlines and marks placed
// in data coordinates. Everything is written with fixed precision, so a
// chart is byte-identical for the same data. Classes name the style
// sheet's rules (HtmlPage): "bar", "area", "line", "dot" with a series
// colour "s0".."s7" (and a dash "d1".."d3"), "fair", "herd", "hit".
class SvgPlot {
 public:
  SvgPlot(int width, int height);

  // A numeric x axis and y axis.
  void SetAxes(PlotAxis x, PlotAxis y);
  // Categories along x (bars), labelled below the plot, and a numeric y.
  void SetCategories(std::vector<std::string> labels, std::string x_label, PlotAxis y);

  // Data to pixels, clamped to the plot area.
  double X(double v) const;
  double Y(double v) const;
  // The left edge and width of category `i`'s slot.
  double CategoryLeft(std::size_t i) const;
  double CategoryWidth() const;

  // Marks. `tip` is hover text (an SVG <title>), none when empty; texts
  // are escaped here.
  // A rectangle between data points (x0, y0) and (x1, y1).
  void Rect(double x0, double y0, double x1, double y1, std::string_view cls,
            std::string_view tip = {});
  // A rectangle in pixels across the plot's height from data x0 to x1.
  void Column(double x0, double x1, std::string_view cls, std::string_view tip = {});
  // A rectangle in pixels (for category charts).
  void PixelRect(double left, double top, double width, double height, std::string_view cls,
                 std::string_view tip = {});
  // A line through data points, or with `closed` a filled shape (an SVG
  // <path>).
  void Path(const std::vector<std::pair<double, double>>& points, std::string_view cls,
            bool closed = false, std::string_view tip = {});
  // A line in pixels.
  void PixelLine(double x0, double y0, double x1, double y1, std::string_view cls,
                 std::string_view tip = {});
  // A circle of `radius` pixels at a data point.
  void Dot(double x, double y, double radius, std::string_view cls, std::string_view tip = {});
  // Text at pixel (x, y), anchored "start", "middle" or "end".
  void Text(double x, double y, std::string_view text, std::string_view anchor,
            std::string_view cls = {});

  int width() const { return width_; }
  int height() const { return height_; }
  double left() const { return left_; }
  double right() const { return width_ - right_margin_; }
  double top() const { return top_; }
  double bottom() const { return height_ - bottom_margin_; }

  // The chart as an <svg> element ending in "\n": role="img" named by its
  // <title> and described by its <desc> (the text alternative), gridlines
  // and axes behind the marks. `attributes` (HTML already) are added to the
  // <svg> tag, e.g. data-chart="share".
  std::string Render(std::string_view id, std::string_view title, std::string_view desc,
                     std::string_view attributes = {}) const;

 private:
  std::string Axes() const;

  int width_;
  int height_;
  double left_ = 58.0;
  double top_ = 12.0;
  double right_margin_ = 22.0;  // half the last x tick label ("0.006" at a phone's 12.5 px)
  double bottom_margin_ = 42.0;
  PlotAxis x_;
  PlotAxis y_;
  std::vector<std::string> categories_;  // empty: a numeric x axis
  std::string marks_;
};

// Pixel coordinates as text: one decimal.
std::string Px(double v);

// A tick label of `axis` for value `v`.
std::string TickText(const PlotAxis& axis, double v);

// `text` cut to at most `max` characters (UTF-8 aware), with "…" when cut.
std::string Shorten(std::string_view text, std::size_t max);

// A legend: one item per (label, classes) with a swatch drawn as the
// series is (a line when the classes contain "line", else a block), as an
// HTML <ul class="legend"> ending in "\n". Labels are escaped here.
std::string Legend(const std::vector<std::pair<std::string, std::string>>& items);

}  // namespace lbsim
