// Strategy parameters: declared with defaults, set inline ("ll:qps_1m=0")
// or with --set ("ll.qps_1m=0"), validated with usage errors that name the
// strategy, the key and what was expected.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/errors.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

StrategyRequest Parse(std::string_view spec, const std::vector<std::string>& settings = {}) {
  return ParseStrategyRequest(StrategyRegistry::Builtin(), spec, settings);
}

// The UsageError message of Parse(spec, settings); "" if it does not throw.
std::string ParseError(std::string_view spec, const std::vector<std::string>& settings = {}) {
  try {
    Parse(spec, settings);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("params: a request without parameters has every default, in declaration order") {
  StrategyRequest r = Parse("ll");
  CHECK(r.info->name == "least_load");
  CHECK(r.requested_as == "ll");
  std::vector<std::string> texts;
  for (const auto& v : r.params.All())
    texts.push_back(std::string(v.name) + "=" + v.text);
  CHECK(texts == std::vector<std::string>{
                     "inflight=1", "queue_depth=0.25", "active_prepare=1", "active_ready=1",
                     "prepare_queue_depth=0.25", "ready_queue_depth=0.25",
                     "pending_prefill_count=1", "active_decode_count=0.5",
                     "predicted_total_backlog_ms=0.001", "qps_1m=0.01", "unknown=exclude"});
  CHECK(Parse("rr").params.All().empty());
}

TEST_CASE("params: requested_as keeps the text as written") {
  CHECK(Parse(" LL ").requested_as == " LL ");
  CHECK(Parse(" LL ").info->name == "least_load");
  CHECK(Parse("least-load:qps_1m=0").requested_as == "least-load:qps_1m=0");
}

TEST_CASE("params: inline NAME:KEY=VALUE settings, several in a row") {
  StrategyRequest r = Parse("ll:qps_1m=0:inflight=2.5");
  CHECK(r.params.Number("qps_1m") == 0.0);
  CHECK(r.params.Number("inflight") == 2.5);
  CHECK(r.params.Number("queue_depth") == 0.25);
  // A later inline value for the same key wins.
  CHECK(Parse("ll:qps_1m=1:qps_1m=3").params.Number("qps_1m") == 3.0);
}

TEST_CASE("params: values are kept as canonical text") {
  StrategyRequest r = Parse("ll:qps_1m=0.50:inflight=+2:active_ready=1e-3");
  CHECK(r.params.Text("qps_1m") == "0.5");
  CHECK(r.params.Text("inflight") == "2");
  CHECK(r.params.Number("active_ready") == 0.001);
}

TEST_CASE("params: --set NAME.KEY=VALUE applies to every request of that strategy, by any alias") {
  const std::vector<std::string> settings{"ll.qps_1m=0"};
  CHECK(Parse("least_load", settings).params.Number("qps_1m") == 0.0);
  CHECK(Parse("LEAST-LOAD", settings).params.Number("qps_1m") == 0.0);
  CHECK(Parse("ll", {"least_load.qps_1m=0"}).params.Number("qps_1m") == 0.0);
  CHECK(Parse("ll", {" LL .qps_1m=0"}).params.Number("qps_1m") == 0.0);
  // Settings of another strategy leave this one alone.
  CHECK(Parse("rr", settings).params.All().empty());
  CHECK(Parse("ll", {"rr.anything=1"}).params.Number("qps_1m") == 0.01);
}

TEST_CASE("params: inline values win over --set, later --set values win over earlier ones") {
  CHECK(Parse("ll:qps_1m=0.5", {"ll.qps_1m=0"}).params.Number("qps_1m") == 0.5);
  CHECK(Parse("ll", {"ll.qps_1m=1", "ll.qps_1m=2"}).params.Number("qps_1m") == 2.0);
  // The parameter value itself may contain dots.
  CHECK(Parse("ll", {"ll.inflight=0.125"}).params.Number("inflight") == 0.125);
}

TEST_CASE("params: an unknown key is a usage error naming the strategy, the key and the declared keys") {
  std::string message = ParseError("ll:qps=0");
  CHECK(Contains(message, "least_load"));
  CHECK(Contains(message, "'qps'"));
  CHECK(Contains(message, "expected one of: inflight queue_depth active_prepare"));
  CHECK(Contains(message, "qps_1m"));
  CHECK(Contains(ParseError("ll", {"ll.bogus=1"}), "'bogus'"));
  std::string rr = ParseError("rr:weight=2");
  CHECK(Contains(rr, "round_robin"));
  CHECK(Contains(rr, "'weight'"));
  CHECK(Contains(rr, "takes no parameters"));
}

TEST_CASE("params: a bad value is a usage error naming the parameter and what was expected") {
  for (std::string_view value : {"abc", "", "-1", "-0.5", "nan", "inf", "-inf", "1e999",
                                 "0x10", "1,5", " 1", "1 ", "2x", "++1"}) {
    CAPTURE(value);
    std::string message = ParseError("ll:qps_1m=" + std::string(value));
    CHECK(Contains(message, "strategy least_load: parameter qps_1m: expected a finite number >= 0"));
    CHECK(Contains(message, "got '" + std::string(value) + "'"));
  }
  CHECK(Contains(ParseError("ll", {"ll.inflight=-2"}), "parameter inflight"));
}

TEST_CASE("params: weights accept 0 and any finite non-negative number") {
  for (std::string_view value : {"0", "0.0", "1e-9", "1000000", "2."}) {
    CAPTURE(value);
    CHECK(ParseError("ll:inflight=" + std::string(value)).empty());
  }
}

TEST_CASE("params: an inline setting without KEY=VALUE is a usage error") {
  CHECK(Contains(ParseError("ll:qps_1m"), "expected KEY=VALUE, got 'qps_1m'"));
  CHECK(Contains(ParseError("ll:=3"), "expected KEY=VALUE"));
  CHECK(Contains(ParseError("ll:"), "expected KEY=VALUE, got ''"));
}

TEST_CASE("params: a malformed --set is a usage error") {
  CHECK(Contains(ParseError("ll", {"qps_1m=0"}), "expected STRATEGY.PARAMETER=VALUE"));
  CHECK(Contains(ParseError("ll", {".qps_1m=0"}), "expected STRATEGY.PARAMETER=VALUE"));
  CHECK(Contains(ParseError("ll", {"ll.qps_1m"}), "expected KEY=VALUE"));
}

TEST_CASE("params: --set must name a registered strategy of this run") {
  const StrategyRegistry& reg = StrategyRegistry::Builtin();
  std::vector<StrategyRequest> requests{Parse("rr")};
  CHECK_NOTHROW(CheckSettingsUsed(reg, requests, {"round-robin.x=1"}));
  try {
    CheckSettingsUsed(reg, requests, {"ll.qps_1m=0"});
    FAIL("no error for a strategy not in the run");
  } catch (const UsageError& e) {
    CHECK(Contains(e.what(), "ll.qps_1m=0"));
    CHECK(Contains(e.what(), "least_load is not among the strategies of this run"));
  }
  try {
    CheckSettingsUsed(reg, requests, {"fast.x=1"});
    FAIL("no error for an unknown strategy");
  } catch (const UsageError& e) {
    CHECK(Contains(e.what(), "unknown strategy 'fast'"));
    CHECK(Contains(e.what(), "least_load (ll, least-load)"));
  }
}

TEST_CASE("params: integer and choice kinds, and lower bounds") {
  std::vector<ParamSpec> specs(3);
  specs[0].name = "count";
  specs[0].kind = ParamKind::kInteger;
  specs[0].default_text = "3";
  specs[0].min = 1;
  specs[1].name = "mode";
  specs[1].kind = ParamKind::kChoice;
  specs[1].default_text = "fast";
  specs[1].choices = {"fast", "slow"};
  specs[2].name = "scale";
  specs[2].default_text = "1.5";
  specs[2].min = 1;

  ParamValues defaults = ParamValues::Resolve("demo", specs, {});
  CHECK(defaults.Number("count") == 3);
  CHECK(defaults.Text("mode") == "fast");
  CHECK(defaults.Number("scale") == 1.5);

  using Overrides = std::vector<std::pair<std::string, std::string>>;
  ParamValues set = ParamValues::Resolve("demo", specs,
                                         Overrides{{"count", "7"}, {"mode", "slow"}});
  CHECK(set.Number("count") == 7);
  CHECK(set.Text("mode") == "slow");

  auto error = [&](std::string key, std::string value) -> std::string {
    try {
      ParamValues::Resolve("demo", specs, Overrides{{key, value}});
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(Contains(error("count", "2.5"), "expected an integer >= 1, got '2.5'"));
  CHECK(Contains(error("count", "0"), "expected an integer >= 1, got '0'"));
  CHECK(Contains(error("mode", "FAST"), "expected one of fast, slow, got 'FAST'"));
  CHECK(Contains(error("scale", "0.5"), "expected a finite number >= 1, got '0.5'"));
}

TEST_CASE("params: SplitAssignment splits at the first '='") {
  auto [key, value] = SplitAssignment("a=b=c", "ctx");
  CHECK(key == "a");
  CHECK(value == "b=c");
  CHECK_THROWS_AS(SplitAssignment("abc", "ctx"), UsageError);
}

}  // namespace
}  // namespace lbsim
