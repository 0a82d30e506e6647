#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "strategies/exec/exec_protocol.h"

namespace lbsim {
namespace {

std::vector<Candidate> Candidates() {
  return {Candidate{0, "inst-a", 1.0, 2, 10.5},
          Candidate{3, "inst-\"b\"", 0.25, std::nullopt, std::nullopt},
          Candidate{1, "inst-c", 3.0, 0, 0.0}};
}

std::string Reply(std::string_view line, std::uint64_t seq, ExecReply& reply) {
  std::vector<Candidate> c = Candidates();
  std::string error;
  if (ParseExecReply(line, c, seq, reply, error)) return "ok";
  return error;
}

}  // namespace

TEST_CASE("the request line lists candidates in order with null for unknown load") {
  std::vector<Candidate> c = Candidates();
  Hint hint;
  std::string out = "previous\n";
  AppendExecRequest(out, ArrivalInfo{7, 2.0, "req\t7"}, c, hint);
  CHECK(out ==
        "previous\n"
        "{\"seq\":7,\"t\":2.0,\"request\":\"req\\t7\",\"candidates\":["
        "{\"id\":\"inst-a\",\"weight\":1.0,\"inflight\":2,\"qps_1m\":10.5},"
        "{\"id\":\"inst-\\\"b\\\"\",\"weight\":0.25,\"inflight\":null,\"qps_1m\":null},"
        "{\"id\":\"inst-c\",\"weight\":3.0,\"inflight\":0,\"qps_1m\":0.0}],"
        "\"hint\":null}\n");
  out.clear();
  hint.raw_json = "{\"queue_depths\":{\"per_instance\":{\"inst-a\":{\"queue_depth\":3}}}}";
  AppendExecRequest(out, ArrivalInfo{1, 0.1, "r1"}, std::span(c).first(1), hint);
  CHECK(out ==
        "{\"seq\":1,\"t\":0.1,\"request\":\"r1\",\"candidates\":["
        "{\"id\":\"inst-a\",\"weight\":1.0,\"inflight\":2,\"qps_1m\":10.5}],"
        "\"hint\":{\"queue_depths\":{\"per_instance\":{\"inst-a\":{\"queue_depth\":3}}}}}\n");
}

TEST_CASE("a reply names a candidate and a reason word, seq is checked when given") {
  ExecReply r;
  CHECK(Reply("{\"instance\":\"inst-c\",\"reason\":\"least\"}", 5, r) == "ok");
  CHECK(r.index == 2);
  CHECK(r.reason == "least");
  CHECK(Reply(" {\"reason\":\"my_rule2\",\"seq\":5,\"instance\":\"inst-\\\"b\\\"\",\"x\":[1]} ",
              5, r) == "ok");
  CHECK(r.index == 1);
  CHECK(r.reason == "my_rule2");

  // null: the strategy refused the decision, whatever the reason says.
  CHECK(Reply("{\"instance\":null,\"seq\":5}", 5, r) == "ok");
  CHECK(r.refused);
  CHECK(r.reason == "refused");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"least\"}", 5, r) == "ok");
  CHECK_FALSE(r.refused);

  CHECK(Reply("{\"instance\":\"inst-z\",\"reason\":\"x\"}", 5, r) ==
        "field \"instance\": expected the id of a candidate (inst-a, inst-\"b\", inst-c) or "
        "null (refused), got \"inst-z\"");
  CHECK(Reply("{\"instance\":2,\"reason\":\"x\"}", 5, r) ==
        "field \"instance\": expected the id of a candidate (inst-a, inst-\"b\", inst-c) or "
        "null (refused), got 2");
  CHECK(Reply("{\"reason\":\"x\"}", 5, r) ==
        "field \"instance\": expected the id of a candidate (inst-a, inst-\"b\", inst-c) or "
        "null (refused), but it is missing");
  const std::string kWord =
      "field \"reason\": expected a word of a-z, 0-9 and _ starting with a letter (at most "
      "32 characters, not no_instances), ";
  CHECK(Reply("{\"instance\":\"inst-a\"}", 5, r) == kWord + "but it is missing");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"Tie\"}", 5, r) == kWord + "got \"Tie\"");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"2nd\"}", 5, r) == kWord + "got \"2nd\"");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"\"}", 5, r) == kWord + "got \"\"");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"no_instances\"}", 5, r) ==
        kWord + "got \"no_instances\"");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"" + std::string(33, 'a') + "\"}", 5, r)
            .rfind(kWord, 0) == 0);
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"" + std::string(32, 'a') + "\"}", 5, r) ==
        "ok");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":null}", 5, r) == kWord + "got null");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"x\",\"seq\":4}", 5, r) ==
        "field \"seq\": expected 5 (this decision's seq), got 4");
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"x\",\"seq\":\"5\"}", 5, r) ==
        "field \"seq\": expected 5 (this decision's seq), got \"5\"");
  CHECK(Reply("[\"inst-a\"]", 5, r) ==
        "expected an object {\"instance\": ID, \"reason\": WORD}, got [\"inst-a\"]");
  CHECK(Reply("", 5, r).rfind("invalid JSON at column 1: ", 0) == 0);
  CHECK(Reply("{\"instance\":\"inst-a\"} {}", 5, r).rfind("invalid JSON at column", 0) == 0);
}

TEST_CASE("a reply with a repeated key or a NUL byte is refused, not read in part") {
  ExecReply r;
  // Either reading could be the program's intent: neither is guessed.
  CHECK(Reply("{\"instance\":\"inst-a\",\"reason\":\"x\",\"instance\":\"inst-c\"}", 5, r) ==
        "key \"instance\" appears twice in the object at the top level");
  // A NUL would otherwise end the line for the parser, dropping the rest.
  CHECK(Reply(std::string("{\"instance\":\"inst-a\",\"reason\":\"x\"}\0{\"seq\":4}", 40), 5, r) ==
        "invalid JSON at column 35: a NUL byte (JSON text holds none)");
  CHECK(Reply(std::string(600, '[') + std::string(600, ']'), 5, r) ==
        "nesting deeper than the limit of 512 levels");
}

}  // namespace lbsim
