// Check results as JUnit XML, the test report format GitHub Actions (through
// report actions), GitLab and Jenkins display natively. Deterministic: no
// timestamps, durations or host names.

#include <fmt/format.h>

#include "sim/check/scenario_check.h"
#include "sim/check/xml_text.h"
#include "sim/io/printable.h"

namespace lbsim {
namespace {

// The JUnit writers' escaping.
std::string Xml(std::string_view text, bool attribute = true) { return XmlText(text, attribute); }

// Text from a scenario or a report, as a CI log may show it: escaped
// (Printable), so that it can neither break a line nor reorder what is
// around it.
std::string Text(std::string_view text) { return Printable(text); }

// "scenarios/ties.json" -> "scenarios.ties": a class name that tools which
// split class names at dots show as package "scenarios", class "ties".
std::string ClassName(std::string path) {
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0)
    path.resize(path.size() - 5);
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  for (char& c : path)
    if (c == '/') c = '.';
  return path;
}

}  // namespace

std::string RenderCheckJUnit(const std::vector<ScenarioResult>& results) {
  const CheckSummary sum = Summarize(results);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"lbsim check\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                     sum.expectations, sum.failed);
  for (const ScenarioResult& s : results) {
    out += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
        Xml(Text(s.path)), s.expectations.size(), s.failed());
    out += fmt::format(
        "    <properties><property name=\"scenario\" value=\"{}\"/><property name=\"proxy\" "
        "value=\"{}\"/></properties>\n",
        Xml(Text(s.name)),
        Xml(Text(s.python.empty() ? s.proxy : s.proxy + " (Python " + s.python + ")")));
    const std::string class_name = Xml(Text(ClassName(s.path)));
    for (const ExpectationResult& r : s.expectations) {
      out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" file=\"{}\"",
                         Xml(Text(r.key + ": " + r.subject)), class_name, Xml(Text(s.path)));
      if (r.passed) {
        out += "/>\n";
        continue;
      }
      std::string detail = fmt::format(
          "scenario: {} ({})\nexpectation: {}: {}\nexpected: {}\nactual: {}\n", Text(s.name),
          Text(s.path), Text(r.key), Text(r.subject), Text(r.expected), Text(r.actual));
      if (!r.why.empty()) detail += fmt::format("why: {}\n", Text(r.why));
      out += fmt::format(
          ">\n      <failure type=\"expectation\" message=\"{}\">{}</failure>\n    </testcase>\n",
          Xml(Text(fmt::format("expected {}, actual {}", r.expected, r.actual))),
          Xml(detail, false));
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace lbsim
