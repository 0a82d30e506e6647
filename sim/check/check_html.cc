// Check results as one HTML page: the totals, the failed expectations
// first with what was expected and what the run showed, each scenario's
// count, then the expectations that held.

#include <fmt/format.h>

#include "sim/check/scenario_check.h"
#include "sim/report/html_page.h"

namespace lbsim {
namespace {

// The expectations of `results` that passed (`passed`) or failed, as
// table rows.
std::string ExpectationRows(const std::vector<ScenarioResult>& results, bool passed) {
  std::string out;
  for (const ScenarioResult& s : results)
    for (const ExpectationResult& r : s.expectations) {
      if (r.passed != passed) continue;
      out += fmt::format(
          "<tr><th scope=\"row\" class=\"text\"><code class=\"path\">{}</code></th>"
          "<td class=\"text\">{}</td><td class=\"text\"><code>{}</code></td>"
          "<td class=\"text\">{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td></tr>\n",
          HtmlPath(s.path), HtmlText(r.key), HtmlText(r.subject), HtmlText(r.expected),
          HtmlText(r.actual), HtmlText(r.why));
    }
  return out;
}

std::string ExpectationTable(const std::string& rows) {
  return "<div class=\"scroll\"><table>\n<thead><tr><th scope=\"col\" class=\"text\">scenario "
         "file</th><th scope=\"col\" class=\"text\">key</th><th scope=\"col\" "
         "class=\"text\">subject</th><th scope=\"col\" class=\"text\">expected</th>"
         "<th scope=\"col\" class=\"text\">actual</th><th scope=\"col\" class=\"text\">why</th>"
         "</tr></thead>\n<tbody>\n" +
         rows + "</tbody></table></div>\n";
}

}  // namespace

std::string RenderCheckHtml(const std::vector<ScenarioResult>& results) {
  const CheckSummary sum = Summarize(results);
  const std::string verdict = sum.failed == 0 ? "every expectation holds"
                                              : fmt::format("{} expectation{} failed", sum.failed,
                                                            sum.failed == 1 ? "" : "s");
  std::string body = fmt::format(
      "<header>\n<h1>lbsim check: <span class=\"{}\">{}</span></h1>\n<dl class=\"facts\">\n"
      "<dt>scenarios</dt><dd>{}</dd>\n<dt>expectations</dt><dd>{}</dd>\n"
      "<dt>passed</dt><dd>{}</dd>\n<dt>failed</dt><dd>{}</dd>\n</dl>\n</header>\n",
      sum.failed ? "fail" : "pass", verdict, sum.scenarios, sum.expectations,
      sum.expectations - sum.failed, sum.failed);
  body += "<nav aria-label=\"Contents\"><ol>\n<li><a href=\"#failed\">Failed</a></li>\n"
          "<li><a href=\"#scenarios\">Scenarios</a></li>\n<li><a href=\"#passed\">Passed</a>"
          "</li>\n</ol></nav>\n<main>\n";
  body += "<section id=\"failed\">\n<h2>Failed</h2>\n";
  body += sum.failed ? ExpectationTable(ExpectationRows(results, false))
                     : "<p>None: every expectation holds.</p>\n";
  body += "</section>\n<section id=\"scenarios\">\n<h2>Scenarios</h2>\n<div class=\"scroll\">"
          "<table>\n<thead><tr><th scope=\"col\" class=\"text\">scenario file</th>"
          "<th scope=\"col\" class=\"text\">name</th><th scope=\"col\">passed</th>"
          "<th scope=\"col\">failed</th></tr></thead>\n<tbody>\n";
  // Scenarios with failures first, each group in the order they ran.
  for (bool failing : {true, false})
    for (const ScenarioResult& s : results) {
      if ((s.failed() > 0) != failing) continue;
      body += fmt::format(
          "<tr><th scope=\"row\" class=\"text\"><code class=\"path\">{}</code></th>"
          "<td class=\"text\">{}</td><td>{}</td><td{}>{}</td></tr>\n",
          HtmlPath(s.path), HtmlText(s.name), s.expectations.size() - s.failed(),
          s.failed() ? " class=\"fail\"" : "", s.failed());
    }
  body += "</tbody></table></div>\n</section>\n<section id=\"passed\">\n<h2>Passed</h2>\n";
  body += sum.expectations > sum.failed ? ExpectationTable(ExpectationRows(results, true))
                                        : "<p>None.</p>\n";
  body += "</section>\n</main>\n<footer>Written by lbsim check: no script, nothing loaded. The "
          "same scenarios give a byte-identical file.</footer>\n";
  return HtmlPage(fmt::format("lbsim check: {}", verdict), body);
}

}  // namespace lbsim
