// Check results as JUnit XML, the test report format GitHub Actions (through
// report actions), GitLab and Jenkins display natively. Deterministic: no
// timestamps, durations or host names.

#include <fmt/format.h>

#include "sim/check/scenario_check.h"
#include "sim/check/xml_text.h"

namespace lbsim {
namespace {

// The JUnit writers' escaping.
std::string Xml(std::string_view text, bool attribute = true) { return XmlText(text, attribute); }

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
        Xml(s.path), s.expectations.size(), s.failed());
    out += fmt::format(
        "    <properties><property name=\"scenario\" value=\"{}\"/></properties>\n",
        Xml(s.name));
    const std::string class_name = Xml(ClassName(s.path));
    for (const ExpectationResult& r : s.expectations) {
      out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" file=\"{}\"",
                         Xml(r.key + ": " + r.subject), class_name, Xml(s.path));
      if (r.passed) {
        out += "/>\n";
        continue;
      }
      std::string detail = fmt::format("scenario: {} ({})\nexpectation: {}: {}\nexpected: {}\nactual: {}\n",
                                       s.name, s.path, r.key, r.subject, r.expected, r.actual);
      if (!r.why.empty()) detail += fmt::format("why: {}\n", r.why);
      out += fmt::format(
          ">\n      <failure type=\"expectation\" message=\"{}\">{}</failure>\n    </testcase>\n",
          Xml(fmt::format("expected {}, actual {}", r.expected, r.actual)), Xml(detail, false));
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace lbsim
