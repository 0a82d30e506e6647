#pragma once

#include <string>
#include <vector>

#include "sim/report/report.h"

namespace lbsim {

// One section of an HTML page: its anchor, its heading and its HTML (the
// heading included).
struct HtmlSection {
  std::string id;
  std::string title;
  std::string html;
};

// The chart sections of a replay's HTML report, in page order: selection
// share per Instance, shares over time, requests in flight over time,
// decisions by reason, fallback rate and herding over time, and with the
// service model the latency CDF, queue wait and utilisation per Instance.
// Each chart has the strategies side by side on shared scales, a text
// alternative and its numbers in a table. Needs report.charts.
std::vector<HtmlSection> ReplayChartSections(const Report& report);

}  // namespace lbsim
