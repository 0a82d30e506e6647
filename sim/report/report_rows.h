#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/report/report.h"

namespace lbsim {

// The table report's content before layout, shared by the text table and
// the HTML report: header lines, the figures with the strategies side by
// side, the parameters and the warnings. Every text taken from the trace
// or the command line has been through Printable.
struct ReportRows {
  // ("trace", path), ("name", ...), ("about", ...), ("events", ...),
  // ("proxy", ...) and, with a what-if option, ("what-if", ...).
  std::vector<std::pair<std::string, std::string>> header;
  // A row of cells: the figure's title (indented by two spaces per level),
  // then one cell per strategy. A row of one cell is a section title, a
  // row of none a blank line between groups.
  std::vector<std::vector<std::string>> rows;
  // (strategy label, the parameters that differ from their defaults).
  std::vector<std::pair<std::string, std::string>> params;
  // ("proxy" or a strategy label, the warning).
  std::vector<std::pair<std::string, std::string>> warnings;

  void Row(std::vector<std::string> cells) { rows.push_back(std::move(cells)); }
  void Section(std::string title) { rows.push_back({std::move(title)}); }
  void Blank() { rows.push_back({}); }
};

// The rows of the table report of `report`.
ReportRows BuildReportRows(const Report& report);

}  // namespace lbsim
