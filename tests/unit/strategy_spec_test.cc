// Strategy specifications on the command line: comma lists, and the tail
// parameter that takes the rest of "NAME:TEXT" (exec:COMMAND).

#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "base/errors.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

ParamSpec Param(std::string_view name, ParamKind kind, std::string_view default_text,
                double min, bool tail) {
  ParamSpec p;
  p.name = name;
  p.kind = kind;
  p.default_text = default_text;
  p.min = min;
  p.tail = tail;
  return p;
}

StrategyRegistry TestRegistry() {
  StrategyInfo plain;
  plain.name = "plain";
  plain.aliases = {"p"};
  plain.params = {Param("k", ParamKind::kNumber, "1", 0.0, false)};
  plain.make = [](const ParamValues&) -> std::unique_ptr<Strategy> { return nullptr; };
  StrategyInfo tail;
  tail.name = "exec";
  tail.params = {Param("command", ParamKind::kText, "", 0.0, true),
                 Param("timeout", ParamKind::kNumber, "10", 0.001, false)};
  tail.make = plain.make;
  return StrategyRegistry({plain, tail});
}

}  // namespace

TEST_CASE("SplitStrategyList splits at commas until a tail strategy takes the rest") {
  StrategyRegistry r = TestRegistry();
  using V = std::vector<std::string>;
  CHECK(SplitStrategyList(r, "plain") == V{"plain"});
  CHECK(SplitStrategyList(r, "p,plain:k=2") == V{"p", "plain:k=2"});
  CHECK(SplitStrategyList(r, "p,exec:cmd a,b") == V{"p", "exec:cmd a,b"});
  CHECK(SplitStrategyList(r, " EXEC :x,y:z") == V{" EXEC :x,y:z"});
  // Without a colon "exec" is only a name.
  CHECK(SplitStrategyList(r, "exec,p") == V{"exec", "p"});
  // Unknown names are left for ParseStrategyRequest to report.
  CHECK(SplitStrategyList(r, "nope:x,p") == V{"nope:x", "p"});
}

TEST_CASE("a tail parameter takes the text after the first colon whole") {
  StrategyRegistry r = TestRegistry();
  StrategyRequest q = ParseStrategyRequest(r, "exec:python3 s.py --w a=1:b=2,c");
  CHECK(q.params.Text("command") == "python3 s.py --w a=1:b=2,c");
  CHECK(q.params.Number("timeout") == 10.0);
  q = ParseStrategyRequest(r, "exec:x", {"exec.timeout=0.5"});
  CHECK(q.params.Number("timeout") == 0.5);
  CHECK_THROWS_WITH_AS(ParseStrategyRequest(r, "exec"),
                       "strategy exec: expected exec:COMMAND (the command is missing or empty)",
                       UsageError);
  CHECK_THROWS_WITH_AS(ParseStrategyRequest(r, "exec:"),
                       "strategy exec: expected exec:COMMAND (the command is missing or empty)",
                       UsageError);
  CHECK_THROWS_AS(ParseStrategyRequest(r, "exec:x", {"exec.timeout=0"}), UsageError);
  // --set can give the command too.
  CHECK(ParseStrategyRequest(r, "exec", {"exec.command=cat"}).params.Text("command") == "cat");
}

}  // namespace lbsim
