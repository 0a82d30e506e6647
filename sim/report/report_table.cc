// The human report: the table report's rows laid out for a terminal.

#include <fmt/format.h>

#include "sim/report/report.h"
#include "sim/report/report_rows.h"
#include "sim/report/text_table.h"

namespace lbsim {

std::string RenderTable(const Report& report) {
  const ReportRows rows = BuildReportRows(report);
  std::string out;
  for (const auto& [key, value] : rows.header) out += fmt::format("{:<10}{}\n", key, value);
  out += "\n";
  TextTable t;
  for (const std::vector<std::string>& row : rows.rows) t.Row(row);
  out += t.Render();
  if (!rows.params.empty()) {
    out += "\nparameters\n";
    for (const auto& [label, text] : rows.params) out += fmt::format("  {}: {}\n", label, text);
  }
  if (rows.warnings.empty()) {
    out += "\nwarnings: none\n";
  } else {
    out += "\nwarnings\n";
    for (const auto& [who, text] : rows.warnings) out += fmt::format("  {}: {}\n", who, text);
  }
  return out;
}

}  // namespace lbsim
