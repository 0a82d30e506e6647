#pragma once

#include <string>
#include <vector>

namespace lbsim {

// A plain-text table for terminals: rows of cells, the first column
// left-aligned and the others right-aligned, two spaces apart. A row of one
// cell (a section title) or none (a blank line) does not size the columns.
class TextTable {
 public:
  void Row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void Section(std::string title) { rows_.push_back({std::move(title)}); }
  void Blank() { rows_.push_back({}); }

  // Every row as one line, trailing spaces removed, each ending in "\n".
  std::string Render() const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace lbsim
