#include "sim/report/text_table.h"

#include <algorithm>

#include <fmt/format.h>

namespace lbsim {

std::string TextTable::Render() const {
  std::vector<std::size_t> width;
  for (const auto& row : rows_) {
    if (row.size() < 2) continue;  // sections and blanks do not size columns
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c == 0 && row.size() > 1) line += fmt::format("{:<{}}", row[c], width[0]);
      else if (c == 0) line += row[c];
      else line += fmt::format("  {:>{}}", row[c], width[c]);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

}  // namespace lbsim
