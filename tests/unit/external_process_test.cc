// The exec strategy through the registry, with small shell programs.

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "base/errors.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

std::unique_ptr<Strategy> Exec(const std::string& command, std::string timeout = "5") {
  StrategyRequest r = ParseStrategyRequest(StrategyRegistry::Builtin(), "exec:" + command,
                                           {"exec.timeout=" + timeout});
  return r.Make();
}

std::vector<Candidate> Pool() {
  return {Candidate{0, "a", 1.0, 1, std::nullopt}, Candidate{1, "b", 1.0, 0, std::nullopt}};
}

}  // namespace

TEST_CASE("exec is registered with a command tail and a timeout, and wants raw hints") {
  const StrategyInfo& info = StrategyRegistry::Builtin().Require("EXEC");
  CHECK(info.name == "exec");
  REQUIRE(info.TailParam());
  CHECK(info.TailParam()->name == "command");
  CHECK(ParseStrategyRequest(StrategyRegistry::Builtin(), "exec:cat").Make()->WantsRawHint());
  CHECK(ParseStrategyRequest(StrategyRegistry::Builtin(), "exec:x").params.Number("timeout") ==
        10.0);
  CHECK_THROWS_WITH_AS(Exec("cat", "2e6"),
                       "strategy exec: parameter timeout: expected at most 1000000 seconds, "
                       "got 2000000",
                       UsageError);
}

TEST_CASE("exec sends one request per decision and takes the reply's pick") {
  char path[] = "/tmp/lbsim-exec-test-XXXXXX";
  REQUIRE(mkstemp(path) >= 0);
  std::string requests_file = path;
  std::vector<Candidate> pool = Pool();
  Hint hint;
  hint.raw_json = "{\"k\":1}";
  {
    std::unique_ptr<Strategy> s = Exec(
        "while read -r line; do echo \"$line\" >> " + requests_file +
        "; echo '{\"instance\":\"b\",\"reason\":\"picked\"}'; done");
    CHECK(s->Name() == "exec");
    for (std::uint64_t seq = 1; seq <= 2; ++seq) {
      s->BeforeSelect(ArrivalInfo{seq, 0.5 * seq, seq == 1 ? "r1" : "x"});
      Choice c = s->Select(pool, hint);
      CHECK(c.index == 1);
      CHECK(c.reason == "picked");
      CHECK_FALSE(c.passed_over_unknown);
    }
  }  // the destructor closes the program's input; it ends, and is reaped
  std::ifstream in(requests_file);
  std::stringstream got;
  got << in.rdbuf();
  std::remove(path);
  CHECK(got.str() ==
        "{\"seq\":1,\"t\":0.5,\"request\":\"r1\",\"candidates\":[{\"id\":\"a\",\"weight\":1.0,"
        "\"inflight\":1,\"qps_1m\":null},{\"id\":\"b\",\"weight\":1.0,\"inflight\":0,"
        "\"qps_1m\":null}],\"hint\":{\"k\":1}}\n"
        "{\"seq\":2,\"t\":1.0,\"request\":\"x\",\"candidates\":[{\"id\":\"a\",\"weight\":1.0,"
        "\"inflight\":1,\"qps_1m\":null},{\"id\":\"b\",\"weight\":1.0,\"inflight\":0,"
        "\"qps_1m\":null}],\"hint\":{\"k\":1}}\n");
}

TEST_CASE("exec turns every protocol failure into one StrategyError line") {
  std::vector<Candidate> pool = Pool();
  // The message of decision 4 of `command`, after `replied` decisions that
  // it answers (with a pause after them, so that it can act first).
  auto fails = [&](const std::string& command, const std::string& timeout,
                   int replied = 0) {
    std::unique_ptr<Strategy> s = Exec(command, timeout);
    for (int i = 1; i <= replied; ++i) {
      s->BeforeSelect(ArrivalInfo{static_cast<std::uint64_t>(i), 0.0, "ok"});
      CHECK(s->Select(pool, Hint{}).index == 0);
    }
    if (replied) ::usleep(300000);
    s->BeforeSelect(ArrivalInfo{4, 1.0, "req-4"});
    std::string message;
    try {
      s->Select(pool, Hint{});
    } catch (const StrategyError& e) {
      message = e.what();
    }
    return message;
  };
  const std::string kReply = "echo '{\"instance\":\"a\",\"reason\":\"x\"}'";
  const std::string prefix = "exec strategy '";
  CHECK(fails("read l; echo '{\"instance\":\"c\",\"reason\":\"x\"}'; cat >/dev/null", "5") ==
        "exec strategy 'read l; echo '{\"instance\":\"c\",\"reason\":\"x\"}'; cat >/dev/null': "
        "seq 4 (request req-4): bad reply {\"instance\":\"c\",\"reason\":\"x\"}: field "
        "\"instance\": expected the id of a candidate (a, b) or null (refused), got \"c\"");
  CHECK(fails("read l; exit 7", "5") ==
        "exec strategy 'read l; exit 7': seq 4 (request req-4): the program closed the "
        "pipe without replying; it exited with status 7");
  // Never replied: a hint at output buffering; after replies, none.
  CHECK(fails("read l; sleep 30", "0.1") ==
        "exec strategy 'read l; sleep 30': seq 4 (request req-4): no reply within 0.1 s "
        "(--exec-timeout); the program was killed. It never replied: if it answers when run "
        "by hand, it may buffer its output; flush after every reply (Python: "
        "print(..., flush=True) or python3 -u)");
  CHECK(fails("read l; " + kReply + "; read l; sleep 30", "0.2", 1) ==
        "exec strategy 'read l; " + kReply + "; read l; sleep 30': seq 4 (request req-4): "
        "no reply within 0.2 s (--exec-timeout); the program was killed");
  CHECK(fails("read l; " + kReply + "; sleep 0.1; echo late; sleep 30", "5", 1)
            .find("seq 4 (request req-4): the program wrote output before this request") !=
        std::string::npos);
  CHECK(fails("read l; printf '{\"instance\":\"a\",\"reason\":\"x\"}\\n\\n'; sleep 30", "5")
            .find("wrote more than one line for one request") != std::string::npos);
  CHECK(fails("read l; " + kReply + "; exec 0<&-; sleep 1; exit 9", "5", 1)
            .find("seq 4 (request req-4): the program closed the pipe without replying; it exited "
                  "with status 9") != std::string::npos);
  std::string long_command(200, 'x');
  CHECK(fails("exit 0; " + long_command, "5")
            .rfind(prefix + "exit 0; " + std::string(112, 'x') + "...': seq 4", 0) == 0);
}

}  // namespace lbsim
