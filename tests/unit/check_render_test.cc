// Renderings of check results: text lines, JSON, JUnit XML and HTML.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sim/check/scenario_check.h"

namespace lbsim {
namespace {

std::vector<ScenarioResult> Results() {
  ScenarioResult s;
  s.path = "dir/a&b.json";
  s.name = "quotes \"and\" <tags>";
  s.expectations.push_back({"expect[0]", "least_load.share.x<y", ">= 0.5", "0.25", "why & \x01", false, ""});
  s.expectations.push_back({"expect[1]", "least_load.decisions", "== 2", "2", "", true, ""});
  return {s};
}

TEST_CASE("text: one line per expectation, a failure's why, and the summary") {
  CHECK(RenderCheckText(Results()) ==
        "FAIL dir/a&b.json: expect[0]: least_load.share.x<y: expected >= 0.5, actual 0.25 "
        "(why: why & \\u0001)\n"
        "PASS dir/a&b.json: expect[1]: least_load.decisions: expected == 2, actual 2\n"
        "lbsim check: 1 scenario, 2 expectations: 1 passed, 1 failed\n");
  CHECK(RenderCheckText({}) == "lbsim check: 0 scenarios, 0 expectations: 0 passed, 0 failed\n");
}

TEST_CASE("text and junit: text from scenarios and reports cannot forge a line or reorder one") {
  // An Instance id (in the subject and the actual value) and a scenario
  // name that would print a PASS line of their own, a colour and a
  // right-to-left override.
  ScenarioResult s;
  s.path = "dir/\xe2\x80\xaejson.a";
  s.name = "n\nPASS fake.json: expect[0]: x: expected == 1, actual 1";
  s.expectations.push_back({"expect[0]", "least_load.selections.a\nPASS b", "== 1",
                            "2\nPASS forged.json: expect[9]: all: expected == 1, actual 1",
                            "\x1b[32mgreen", false, ""});
  const std::string text = RenderCheckText({s});
  CHECK(text ==
        "FAIL dir/\\u202ejson.a: expect[0]: least_load.selections.a\\nPASS b: expected == 1, "
        "actual 2\\nPASS forged.json: expect[9]: all: expected == 1, actual 1 (why: "
        "\\u001b[32mgreen)\n"
        "lbsim check: 1 scenario, 1 expectation: 0 passed, 1 failed\n");
  const std::string xml = RenderCheckJUnit({s});
  CHECK(xml.find('\x1b') == std::string::npos);
  CHECK(xml.find("\xe2\x80\xae") == std::string::npos);
  CHECK(xml.find("\nPASS") == std::string::npos);
  CHECK(xml.find("value=\"n\\nPASS fake.json") != std::string::npos);
}

TEST_CASE("json: every expectation and the summary") {
  auto j = nlohmann::json::parse(RenderCheckJson(Results()));
  CHECK(j["lbsim_check"] == 1);
  CHECK(j["summary"]["failed"] == 1);
  CHECK(j["summary"]["passed"] == 1);
  CHECK(j["scenarios"][0]["file"] == "dir/a&b.json");
  CHECK(j["scenarios"][0]["expectations"][0]["passed"] == false);
  CHECK(j["scenarios"][0]["expectations"][0]["expected"] == ">= 0.5");
  CHECK(j["scenarios"][0]["expectations"][0]["actual"] == "0.25");
}

TEST_CASE("junit: escaped, deterministic, one testcase per expectation") {
  std::string xml = RenderCheckJUnit(Results());
  CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lbsim check\" "
                  "tests=\"2\" failures=\"1\" errors=\"0\">\n",
                  0) == 0);
  CHECK(xml.find("<testsuite name=\"dir/a&amp;b.json\" tests=\"2\" failures=\"1\"") !=
        std::string::npos);
  CHECK(xml.find("<property name=\"scenario\" value=\"quotes &quot;and&quot; &lt;tags&gt;\"/>") !=
        std::string::npos);
  CHECK(xml.find("<testcase name=\"expect[0]: least_load.share.x&lt;y\" classname=\"dir.a&amp;b\"") !=
        std::string::npos);
  CHECK(xml.find("message=\"expected &gt;= 0.5, actual 0.25\"") != std::string::npos);
  // A control character is escaped (XML could not carry it either).
  CHECK(xml.find("why: why &amp; \\u0001\n</failure>") != std::string::npos);
  CHECK(xml.find('\x01') == std::string::npos);
  CHECK(xml.find("<testcase name=\"expect[1]: least_load.decisions\" classname=\"dir.a&amp;b\" "
                 "file=\"dir/a&amp;b.json\"/>") != std::string::npos);
  CHECK(xml == RenderCheckJUnit(Results()));
}

TEST_CASE("html: escaped, failures first, the totals, deterministic") {
  std::vector<ScenarioResult> results = Results();
  ScenarioResult passing;
  passing.path = "dir/ok.json";
  passing.name = "fine";
  passing.expectations.push_back({"expect[0]", "round_robin.decisions", "== 1", "1", "", true, ""});
  results.insert(results.begin(), passing);  // ran first, shown after the failing one
  const std::string html = RenderCheckHtml(results);
  CHECK(html.rfind("<!DOCTYPE html>\n", 0) == 0);
  CHECK(html.find("<title>lbsim check: 1 expectation failed</title>") != std::string::npos);
  CHECK(html.find("<dt>expectations</dt><dd>3</dd>\n<dt>passed</dt><dd>2</dd>\n"
                  "<dt>failed</dt><dd>1</dd>") != std::string::npos);
  // Paths break only between folders: a break opportunity after each '/'.
  CHECK(html.find("<code class=\"path\">dir/<wbr>a&amp;b.json</code>") != std::string::npos);
  CHECK(html.find("<code>least_load.share.x&lt;y</code></td><td class=\"text\">&gt;= 0.5</td>"
                  "<td class=\"text\">0.25</td><td class=\"text\">why &amp; \\u0001</td>") !=
        std::string::npos);
  CHECK(html.find("quotes &quot;and&quot; &lt;tags&gt;") != std::string::npos);
  CHECK(html.find('\x01') == std::string::npos);
  // The failed expectation comes before the passing ones, and the failing
  // scenario before the passing one in the scenario table.
  const std::size_t failed = html.find("<section id=\"failed\">");
  const std::size_t passed = html.find("<section id=\"passed\">");
  CHECK(failed < html.find("least_load.share.x&lt;y"));
  CHECK(html.find("least_load.share.x&lt;y") < passed);
  CHECK(html.find("round_robin.decisions", passed) != std::string::npos);
  const std::size_t table = html.find("<section id=\"scenarios\">");
  CHECK(html.find("dir/<wbr>a&amp;b.json", table) < html.find("dir/<wbr>ok.json", table));
  CHECK(html == RenderCheckHtml(results));
  CHECK(RenderCheckHtml({}).find("<p>None: every expectation holds.</p>") != std::string::npos);
}

}  // namespace
}  // namespace lbsim
