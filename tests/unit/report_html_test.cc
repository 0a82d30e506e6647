// The HTML report and its parts: escaping of hostile text, fixed number
// text, axes, and a page that is deterministic, self-contained and gives
// every chart a text alternative.

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <vector>

#include "replay_fixture.h"
#include "sim/replay/replay.h"
#include "sim/report/html_page.h"
#include "sim/report/report.h"
#include "sim/report/svg_chart.h"

namespace lbsim {
namespace {

using testing::Request;
using testing::TempFile;

std::size_t Count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string HtmlOfFile(const std::string& path, SimOptions options = {},
                       const std::vector<std::string>& specs = {"rr", "ll"}) {
  options.charts = true;
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs) requests.push_back(Request(spec));
  return RenderHtml(BuildReport(Replay(path, TraceEncoding::kAuto, requests, {}, options)));
}

std::string HtmlOf(const std::string& trace, SimOptions options = {},
                   const std::vector<std::string>& specs = {"rr", "ll"}) {
  TempFile file(trace);
  return HtmlOfFile(file.path(), options, specs);
}

TEST_CASE("html text: markup characters become references, control characters escapes") {
  CHECK(HtmlText("<b>\"a\" & 'b'</b>") == "&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;");
  CHECK(HtmlText("two\nlines\x1b[31m") == "two\\nlines\\u001b[31m");
  CHECK(HtmlText("caf\xc3\xa9 \xff") == "caf\xc3\xa9 \\xff");
}

TEST_CASE("fixed text: fixed digits, no negative zero, huge values in six digits") {
  CHECK(FixedText(0.5, 2) == "0.50");
  CHECK(FixedText(-0.004, 2) == "0.00");
  CHECK(FixedText(-1.5, 1) == "-1.5");
  CHECK(FixedText(12.0, 0) == "12");
  CHECK(FixedText(1.7976931348623157e308, 3) == "1.79769e+308");
  CHECK(FixedText(std::numeric_limits<double>::infinity(), 1) == "inf");
}

TEST_CASE("nice axis: round ticks 1, 2 or 5 x 10^k apart around the data") {
  const PlotAxis a = NiceAxis(0.0, 0.5, "share", true);
  CHECK(a.lo == 0.0);
  CHECK(a.ticks.size() == 6);
  CHECK(TickText(a, a.ticks[1]) == "10%");
  CHECK(TickText(a, a.ticks.back()) == "50%");
  const PlotAxis b = NiceAxis(3.0, 117.0, "time (s)");
  CHECK(b.lo == 0.0);
  CHECK(b.hi == 120.0);  // 20 apart: 2 is nearer the 5 ticks asked for than 5
  CHECK(TickText(b, b.ticks[1]) == "20");
  const PlotAxis c = NiceAxis(0.0, 0.004, "latency (s)");
  CHECK(TickText(c, c.ticks[1]) == "0.001");
  // Empty, reversed or non-finite ranges still give an axis.
  CHECK(NiceAxis(2.0, 2.0, "x").hi > 2.0);
  CHECK(NiceAxis(std::numeric_limits<double>::quiet_NaN(), 1.0, "x").ticks.size() >= 2);
  CHECK(NiceAxis(0.0, std::numeric_limits<double>::infinity(), "x").hi == 1.0);
}

TEST_CASE("shorten: at most N characters, cut between UTF-8 characters") {
  CHECK(Shorten("inst-a", 14) == "inst-a");
  CHECK(Shorten("abcdef", 3) == "abc\u2026");
  CHECK(Shorten("\xc3\xa9\xc3\xa9\xc3\xa9", 2) == "\xc3\xa9\xc3\xa9\u2026");
}

constexpr const char* kHostile =
    R"({"lbsim_trace":1,"name":"<script>alert('name')</script>","description":"a & b </title>","instances":[{"id":"<script>alert(1)</script>","inflight":0},{"id":"q\"uote'&amp;","inflight":0},{"id":"bell\u0007\n<img src=x onerror=alert(2)>"}]}
{"t":0,"type":"arrival","duration":1}
{"t":0.5,"type":"arrival","duration":1}
{"t":1,"type":"arrival","duration":1}
{"t":2,"type":"arrival","duration":1}
)";

TEST_CASE("html report: text from the trace cannot add markup, a script or a load") {
  SimOptions options;
  options.slots = 1;
  const std::string html = HtmlOf(kHostile, options);
  const std::string lower = Lower(html);
  CHECK(Count(lower, "<script") == 0);
  CHECK(Count(lower, "<img") == 0);
  // "onerror=" and "src=" only ever in escaped text.
  CHECK(Count(lower, "onerror=") == Count(lower, "&lt;img src=x onerror="));
  CHECK(Count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") > 0);
  CHECK(Count(html, "q&quot;uote&#39;&amp;amp;") > 0);
  CHECK(Count(html, "bell\\u0007\\n&lt;img") > 0);
  CHECK(Count(html, "<title>lbsim report: &lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;</title>") == 1);
  // No byte below 0x20 but newlines: hostile control characters are escapes.
  CHECK(std::none_of(html.begin(), html.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; }));
  // Nothing is loaded: no src, no external href, a policy that forbids it.
  CHECK(Count(lower, " src=") == Count(lower, "&lt;img src="));
  CHECK(Count(lower, "href=\"http") == 0);
  CHECK(Count(html, "Content-Security-Policy\" content=\"default-src 'none'") == 1);
}

TEST_CASE("html report: every chart has a title and a description, and a table of numbers") {
  SimOptions options;
  options.slots = 1;
  const std::string html = HtmlOf(kHostile, options);
  const std::size_t charts = Count(html, "<svg class=\"chart");
  // Two strategies x (share, share over time, inflight, reasons, fallback,
  // queue wait, utilisation) + one latency CDF.
  CHECK(charts == 2 * 7 + 1);
  CHECK(Count(html, "role=\"img\" aria-labelledby=") == charts);
  CHECK(Count(html, "<desc id=") == charts);
  CHECK(Count(html, "<summary>Numbers</summary>") == charts);
  CHECK(Count(html, "<desc id=\"share-1-d\">4 decisions.") == 1);
}

TEST_CASE("html report: the same inputs give the same bytes") {
  SimOptions options;
  options.slots = 1;
  TempFile file(kHostile);
  CHECK(HtmlOfFile(file.path(), options) == HtmlOfFile(file.path(), options));
}

TEST_CASE("html report: a large pool shows 24 bars and 8 colours at most") {
  std::string trace = R"({"lbsim_trace":1,"instances":[)";
  for (int i = 0; i < 40; ++i) {
    if (i) trace += ',';
    trace += R"({"id":"i)" + std::to_string(i) + R"(","inflight":0})";
  }
  trace += "]}\n";
  for (int k = 0; k < 400; ++k) trace += "{\"t\":" + std::to_string(k) + ",\"type\":\"arrival\",\"duration\":3}\n";
  const std::string html = HtmlOf(trace, {}, {"rr"});
  CHECK(Count(html, "<desc id=\"share-1-d\">400 decisions.") == 1);
  CHECK(Count(html, "17 others") > 0);  // 23 Instances and one bar for the rest
  CHECK(Count(html, "other Instances (33)") > 0);  // 7 colours and grey for the rest
  CHECK(Count(html, " s8") == 0);
}

TEST_CASE("html report: a trace without events says there is nothing over time") {
  const std::string html = HtmlOf("{\"lbsim_trace\":1,\"instances\":[{\"id\":\"a\"}]}\n");
  CHECK(Count(html, "no events, nothing over time") == 1);
  CHECK(Count(html, "data-chart=\"share-time\"") == 0);
  CHECK(Count(html, "data-chart=\"share\"") == 2);
}

}  // namespace
}  // namespace lbsim
