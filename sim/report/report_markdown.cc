// The table report as Markdown: what a CI job posts on a pull request.

#include <fmt/format.h>

#include "sim/report/report.h"
#include "sim/report/report_rows.h"

namespace lbsim {
namespace {

// `text` as Markdown inline text: nothing in it formats, links or ends a
// table cell.
std::string Inline(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\\': case '|': case '*': case '_': case '`': case '[': case ']': case '#':
      case '~':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

// A row's title without the table's indentation.
std::string_view Title(std::string_view cell) {
  while (!cell.empty() && cell.front() == ' ') cell.remove_prefix(1);
  return cell;
}

}  // namespace

std::string RenderMarkdown(const Report& report) {
  const ReportRows rows = BuildReportRows(report);
  std::string out = fmt::format("### lbsim: {}\n\n",
                                Inline(report.trace_name.empty() ? report.trace_path
                                                                 : report.trace_name));
  for (const auto& [key, value] : rows.header)
    out += fmt::format("- **{}**: {}\n", Inline(key), Inline(value));
  // The strategy columns: the rows' first row holds their labels.
  std::vector<std::string> labels;
  if (!rows.rows.empty())
    for (std::size_t k = 1; k < rows.rows.front().size(); ++k) labels.push_back(rows.rows.front()[k]);
  std::string head = "| |";
  std::string rule = "| --- |";
  for (const std::string& label : labels) {
    head += fmt::format(" {} |", Inline(label));
    rule += " ---: |";
  }
  // Sections: a title row starts one, a blank row ends it.
  struct Section {
    std::string title;
    std::vector<const std::vector<std::string>*> rows;
  };
  std::vector<Section> sections(1);
  for (std::size_t k = 1; k < rows.rows.size(); ++k) {
    const std::vector<std::string>& row = rows.rows[k];
    if (row.empty()) {
      if (!sections.back().rows.empty() || !sections.back().title.empty()) sections.emplace_back();
    } else if (row.size() == 1) {
      if (!sections.back().rows.empty() || !sections.back().title.empty()) sections.emplace_back();
      sections.back().title = Title(row[0]);
    } else {
      sections.back().rows.push_back(&row);
    }
  }
  for (const Section& s : sections) {
    if (s.rows.empty() && s.title.empty()) continue;
    const bool folded = s.rows.size() > kMarkdownOpenRows;
    out += "\n";
    if (folded)
      out += fmt::format("<details><summary>{} ({} rows)</summary>\n\n", Inline(s.title),
                         s.rows.size());
    else if (!s.title.empty())
      out += fmt::format("**{}**\n\n", Inline(s.title));
    out += head + "\n" + rule + "\n";
    for (const std::vector<std::string>* row : s.rows) {
      out += fmt::format("| {} |", Inline(Title((*row)[0])));
      for (std::size_t k = 1; k < row->size(); ++k) out += fmt::format(" {} |", Inline((*row)[k]));
      out += "\n";
    }
    if (folded) out += "\n</details>\n";
  }
  if (!rows.params.empty()) {
    out += "\n**parameters**\n\n";
    for (const auto& [label, text] : rows.params)
      out += fmt::format("- {}: {}\n", Inline(label), Inline(text));
  }
  if (rows.warnings.empty()) {
    out += "\n**warnings**: none\n";
  } else {
    out += "\n**warnings**\n\n";
    for (const auto& [who, text] : rows.warnings)
      out += fmt::format("- {}: {}\n", Inline(who), Inline(text));
  }
  return out;
}

}  // namespace lbsim
