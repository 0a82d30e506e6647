// The frame of lbsim's HTML pages: escaping, numbers and the style sheet
// every page carries inline.

#include "sim/report/html_page.h"

#include <cmath>

#include <fmt/format.h>

#include "sim/io/printable.h"

namespace lbsim {
namespace {

// One style sheet for every page. Colours are custom properties: the
// chart palette is Okabe-Ito's (told apart with the common colour-vision
// deficiencies), --p7 the grey of "other Instances"; dark mode swaps the
// page colours and lightens the two darkest series colours. Chart text is
// never drawn below 9 px: a chart's min-width is 9 / its font-size times
// its viewBox width (480 for a panel, 960 for a wide one), and narrower
// than that its figure scrolls sideways; a phone gets larger chart text.
constexpr std::string_view kStyle = R"(:root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1b1b;--muted:#595f66;--rule:#c9ced4;--grid:#e4e7eb;--panel:#f6f7f9;--warn:#8a4b00;--fail:#b3261e;--pass:#1e6b34;--herd:#d55e00;--p0:#0072b2;--p1:#e69f00;--p2:#009e73;--p3:#cc79a7;--p4:#56b4e9;--p5:#d55e00;--p6:#000000;--p7:#8c8c8c}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e8e8e8;--muted:#a3a9b0;--rule:#3d4248;--grid:#2b2f34;--panel:#1d2024;--warn:#f0b35a;--fail:#ff8a80;--pass:#7fd18b;--herd:#ff8c42;--p0:#4aa3df;--p6:#f0e442;--p7:#9e9e9e}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1440px;padding:1rem 1.5rem 3rem;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.6rem;margin:.3rem 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2rem 0 .4rem;padding-bottom:.2rem;border-bottom:1px solid var(--rule)}
h3{font-size:1.05rem;margin:1.2rem 0 .3rem}
a{color:var(--p0)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.4rem 0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
nav ol{display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;margin:.6rem 0;padding:0;list-style:none}
.note{color:var(--muted);max-width:70rem;margin:.2rem 0 .6rem}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:1rem}
figure{margin:0;padding:.6rem .7rem;background:var(--panel);border:1px solid var(--rule);border-radius:6px;break-inside:avoid;overflow-x:auto}
figcaption{font-weight:600;margin-bottom:.2rem;overflow-wrap:anywhere}
figure p{margin:.3rem 0;font-size:.9rem}
svg.chart{display:block;width:100%;max-width:640px;height:auto;font-size:11px;min-width:396px}
svg.chart.wide{max-width:1000px;font-size:13px;min-width:665px}
svg.chart.heatmap{width:auto;max-width:none;min-width:0}
.panels.wide{grid-template-columns:repeat(auto-fit,minmax(min(100%,720px),1fr))}
svg.chart text{fill:var(--fg)}
svg.chart .tick{fill:var(--muted)}
svg.chart .axis{stroke:var(--muted);stroke-width:1}
svg.chart .grid{stroke:var(--grid);stroke-width:1}
.s0{--c:var(--p0)}.s1{--c:var(--p1)}.s2{--c:var(--p2)}.s3{--c:var(--p3)}.s4{--c:var(--p4)}.s5{--c:var(--p5)}.s6{--c:var(--p6)}.s7{--c:var(--p7)}
svg .bar,svg .area,svg .dot{fill:var(--c)}
svg .line{fill:none;stroke:var(--c);stroke-width:2;stroke-linejoin:round}
svg .d1{stroke-dasharray:7 3}svg .d2{stroke-dasharray:2 3}svg .d3{stroke-dasharray:9 3 2 3}
svg .fair{stroke:var(--fg);stroke-width:2}
svg .front{fill:none;stroke:var(--fg);stroke-width:1.5;stroke-dasharray:4 3}
svg .ring{fill:none;stroke:var(--fg);stroke-width:1.5}
svg .herd{fill:var(--herd);fill-opacity:.18}
svg .run{fill:var(--herd)}
svg .hit{fill:transparent}
svg .hit:hover{fill:var(--fg);fill-opacity:.08}
svg.chart text.cell-dark{fill:#ffffff}svg.chart text.cell-light{fill:#000000}
ul.legend{display:flex;flex-wrap:wrap;gap:.2rem 1.1rem;margin:.3rem 0 .7rem;padding:0;list-style:none}
ul.legend svg{width:24px;height:12px;margin-right:.35rem;vertical-align:-1px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.3rem 0 .8rem}
th,td{padding:.15rem .6rem;text-align:right;border-bottom:1px solid var(--grid);vertical-align:top}
th:first-child,td:first-child{text-align:left}
thead th{border-bottom:2px solid var(--rule)}
tbody th{font-weight:normal}
tr.section th{padding-top:.7rem;color:var(--muted);text-align:left}
.i1{padding-left:1.5rem}.i2{padding-left:2.7rem}
td.text,th.text{text-align:left}
code.path{overflow-wrap:normal}
ul.warnings li{color:var(--warn)}
.fail{color:var(--fail);font-weight:600}.pass{color:var(--pass)}
details{margin-top:.4rem}
summary{cursor:pointer;color:var(--muted)}
footer{margin-top:2.5rem;color:var(--muted);font-size:.85rem}
@media (max-width:560px){body{padding:.6rem .5rem 2rem}figure{padding:.4rem}svg.chart{font-size:12.5px;min-width:346px}}
@media print{:root{--bg:#ffffff;--fg:#000000;--muted:#444444;--rule:#999999;--grid:#dddddd;--panel:#ffffff;--p0:#0072b2;--p6:#000000}body{max-width:none;padding:0;font-size:10pt}nav,details{display:none}.panels{grid-template-columns:repeat(2,1fr)}h2{break-after:avoid}figure,tr{break-inside:avoid}*{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
)";

}  // namespace

std::string HtmlText(std::string_view text) {
  const std::string printable = Printable(text);
  std::string out;
  out.reserve(printable.size());
  for (char c : printable) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string HtmlPath(std::string_view path) {
  std::string out;
  for (char c : HtmlText(path)) {
    out += c;
    if (c == '/') out += "<wbr>";
  }
  return out;
}

std::string FixedText(double x, int decimals) {
  // Past 10^15 fixed notation is a wall of digits: six significant ones.
  if (!std::isfinite(x) || std::fabs(x) >= 1e15) return fmt::format("{:.6g}", x);
  std::string text = fmt::format("{:.{}f}", x, decimals);
  // -0.004 with 2 decimals is "-0.00": a sign without a value.
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

std::string HtmlPage(std::string_view title, std::string_view body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta name=\"color-scheme\" content=\"light dark\">\n";
  // Nothing may load or run: the page is complete as it is.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n";
  out += fmt::format("<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n", HtmlText(title),
                     kStyle);
  out += body;
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace lbsim
