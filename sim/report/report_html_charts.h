#pragma once

#include <string>
#include <vector>

#include "sim/report/report.h"
#include "sim/report/report_html_parts.h"

namespace lbsim {

// The chart sections of a replay's HTML report, in page order: selection
// share per Instance, shares over time, requests in flight over time,
// decisions by reason, fallback rate and herding over time, and with the
// service model the latency CDF, queue wait and utilisation per Instance.
// Each chart has the strategies side by side on shared scales, a text
// alternative and its numbers in a table. Needs report.charts.
std::vector<HtmlSection> ReplayChartSections(const Report& report);

}  // namespace lbsim
