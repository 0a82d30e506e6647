// The pool and the lifecycle counter (trace-format.md "Events", "Time,
// order and the lifecycle counter"): pool order, up/down/remove/load, and
// how arrivals with a duration move each strategy's own inflight counters.
// least_load's picks reveal the counters: with a reference Instance at a
// known load, the probed one wins (least), ties, or loses.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "replay_fixture.h"

namespace lbsim {
namespace {

using testing::Picks;
using testing::ReplayText;
using Strings = std::vector<std::string>;

// A JSON Lines header with Instances a and b at the given inflight values.
std::string Header(std::string_view a, std::string_view b) {
  return std::string(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": )") +
         std::string(a) + R"(}, {"id": "b", "inflight": )" + std::string(b) + "}]}\n";
}

// Three Instances a, b, c (loads unknown) for round_robin pool-order probes.
const std::string kThree =
    R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}, {"id": "c"}]})"
    "\n";

TEST_CASE("lifecycle: an arrival with a duration increments a known inflight at once") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "b/tie"});  // a = 1 = b; counter 1
}

TEST_CASE("lifecycle: an arrival without a duration changes no load") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "a/least", "a/least"});
}

TEST_CASE("lifecycle: an unknown inflight stays unknown through arrivals and completions") {
  auto run = ReplayText(Header("null", "null") + R"({"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "load", "instance": "b", "inflight": 5}
{"t": 2, "type": "arrival"}
{"t": 11, "type": "arrival"}
)");
  // Had the counter turned a's unknown into 1 (or 0 at the completion),
  // a would beat b's 5.
  CHECK(Picks(run) == Strings{"a/fallback", "b/least", "b/least"});
  CHECK(run.metrics().unknown_excluded() == 2);
}

TEST_CASE("lifecycle: a completion decrements, clamped at 0") {
  // a's request completes at t=5 after a snapshot reset a to 0: a stays 0
  // (not -1, not unknown) and ties with b at 0.
  auto run = ReplayText(Header("0", "1") + R"({"t": 0, "type": "arrival", "duration": 5}
{"t": 1, "type": "load", "instance": "a", "inflight": 0}
{"t": 6, "type": "load", "instance": "b", "inflight": 0}
{"t": 6, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "b/tie"});
}

TEST_CASE("lifecycle: a completion on a known inflight takes it back down by one") {
  auto run = ReplayText(Header("0", "2") + R"({"t": 0, "type": "arrival", "duration": 5}
{"t": 0, "type": "arrival", "duration": 6}
{"t": 1, "type": "arrival"}
{"t": 5, "type": "arrival"}
)");
  // a: 0 -> 1 -> 2 (ties b at t=1, counter 2 picks a), back to 1 at t=5.
  CHECK(Picks(run) == Strings{"a/least", "a/least", "a/tie", "a/least"});
}

TEST_CASE("lifecycle: a completion for a removed registration does nothing") {
  SUBCASE("even after re-registration with the same id") {
    auto run = ReplayText(Header("0", "5") + R"({"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "remove", "instance": "a"}
{"t": 2, "type": "up", "instance": "a", "inflight": 3}
{"t": 11, "type": "load", "instance": "b", "inflight": 3}
{"t": 11, "type": "arrival"}
)");
    // a stays 3 (a decrement would make it 2 and the least); pool order is
    // now b, a, and counter 1 picks a among the tie.
    CHECK(Picks(run) == Strings{"a/least", "a/tie"});
  }
  SUBCASE("while it stays removed") {
    auto run = ReplayText(Header("0", "5") + R"({"t": 0, "type": "arrival", "duration": 1}
{"t": 0, "type": "remove", "instance": "a"}
{"t": 2, "type": "arrival"}
)");
    CHECK(Picks(run) == Strings{"a/least", "b/least"});
  }
}

TEST_CASE("lifecycle: requests routed to an Instance that goes down still complete") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 0, "type": "arrival", "duration": 2}
{"t": 1, "type": "down", "instance": "a"}
{"t": 3, "type": "up", "instance": "a"}
{"t": 3, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "a/least"});  // a back to 0, not tied at 1
}

TEST_CASE("lifecycle: down keeps the Instance's load") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 0}, {"id": "c", "inflight": 2}]}
{"t": 1, "type": "down", "instance": "b"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "up", "instance": "b"}
{"t": 2, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"a/least", "b/least"});
}

TEST_CASE("lifecycle: down keeps the Instance's place in pool order") {
  auto run = ReplayText(kThree + R"({"t": 0, "type": "arrival"}
{"t": 1, "type": "down", "instance": "b"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "up", "instance": "b"}
{"t": 2, "type": "arrival"}
)",
                        {"rr"});
  // c = 0: [a b c] -> a; c = 1: [a c] -> c; c = 2: [a b c] -> c (b kept
  // its place; appended at the end it would be [a c b] -> b).
  CHECK(Picks(run, "round_robin") == Strings{"a/round_robin", "c/round_robin", "c/round_robin"});
}

TEST_CASE("lifecycle: up of an alive registered Instance keeps its place") {
  auto run = ReplayText(kThree + R"({"t": 0, "type": "arrival"}
{"t": 1, "type": "up", "instance": "a"}
{"t": 1, "type": "arrival"}
{"t": 1, "type": "arrival"}
)",
                        {"rr"});
  CHECK(Picks(run, "round_robin") == Strings{"a/round_robin", "b/round_robin", "c/round_robin"});
}

TEST_CASE("lifecycle: up of a registered Instance sets the given fields and keeps the rest") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 1, "type": "up", "instance": "a", "inflight": 7}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "up", "instance": "a", "inflight": 0}
{"t": 2, "type": "up", "instance": "a"}
{"t": 2, "type": "arrival"}
{"t": 3, "type": "up", "instance": "a", "inflight": null}
{"t": 3, "type": "arrival"}
{"t": 4, "type": "up", "instance": "a", "qps_1m": 50}
{"t": 4, "type": "arrival"}
)");
  // a: 7 -> b; 0 (kept through the bare up) -> a; unknown -> b; qps_1m
  // alone gives a 0.5 < 1 -> a.
  CHECK(Picks(run) == Strings{"b/least", "a/least", "b/least", "a/least"});
}

TEST_CASE("lifecycle: a new up registers at the end of pool order, load unknown unless given") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "up", "instance": "c"}
{"t": 1, "type": "arrival"}
{"t": 1, "type": "arrival"}
)",
                        {"rr", "ll"});
  CHECK(Picks(run, "round_robin") == Strings{"a/round_robin", "b/round_robin", "c/round_robin"});
  CHECK(Picks(run) == Strings{"a/fallback", "b/fallback", "c/fallback"});

  auto given = ReplayText(Header("3", "3") + R"({"t": 1, "type": "up", "instance": "c", "inflight": 1}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(given) == Strings{"c/least"});
}

TEST_CASE("lifecycle: re-registration after remove appends at the end") {
  auto run = ReplayText(kThree + R"({"t": 0, "type": "arrival"}
{"t": 1, "type": "remove", "instance": "a"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "up", "instance": "a"}
{"t": 2, "type": "arrival"}
{"t": 2, "type": "arrival"}
)",
                        {"rr"});
  // c = 0: [a b c] -> a; c = 1: [b c] -> c; c = 2: [b c a] -> a; c = 3 -> b.
  CHECK(Picks(run, "round_robin") ==
        Strings{"a/round_robin", "c/round_robin", "a/round_robin", "b/round_robin"});
}

TEST_CASE("lifecycle: a re-registration starts with unknown load unless given") {
  const std::string header =
      R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0, "qps_1m": 0}, {"id": "b", "inflight": 5}]})"
      "\n";
  auto bare = ReplayText(header + R"({"t": 1, "type": "remove", "instance": "a"}
{"t": 1, "type": "up", "instance": "a"}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(bare) == Strings{"b/least"});  // inflight and qps_1m forgotten
  auto given = ReplayText(header + R"({"t": 1, "type": "remove", "instance": "a"}
{"t": 1, "type": "up", "instance": "a", "inflight": 2}
{"t": 1, "type": "arrival"}
)");
  CHECK(Picks(given) == Strings{"a/least"});
}

TEST_CASE("lifecycle: load applies to dead Instances too") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 1, "type": "down", "instance": "a"}
{"t": 1, "type": "load", "instance": "a", "inflight": 9}
{"t": 2, "type": "up", "instance": "a"}
{"t": 2, "type": "arrival"}
)");
  CHECK(Picks(run) == Strings{"b/least"});
}

TEST_CASE("lifecycle: load sets present keys, null makes a field unknown, absent keys stay") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 1, "type": "load", "instance": "a", "inflight": null}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "load", "instance": "a"}
{"t": 2, "type": "arrival"}
{"t": 3, "type": "load", "instance": "a", "qps_1m": 10}
{"t": 3, "type": "arrival"}
{"t": 4, "type": "load", "instance": "a", "inflight": 3}
{"t": 4, "type": "arrival"}
{"t": 5, "type": "load", "instance": "a", "inflight": null, "qps_1m": null}
{"t": 5, "type": "arrival"}
)");
  // a: unknown; still unknown; qps 10 -> 0.1; 3 + 0.1; unknown again.
  CHECK(Picks(run) == Strings{"b/least", "b/least", "a/least", "b/least", "b/least"});
  CHECK(run.metrics().unknown_excluded() == 3);
}

TEST_CASE("lifecycle: header Instances with alive false are registered but not candidates") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "alive": false}, {"id": "b"}, {"id": "c", "alive": true}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "up", "instance": "a"}
{"t": 1, "type": "arrival"}
)",
                        {"rr"});
  // c = 0: [b c] -> b; c = 1: [a b c] -> b (a in its header place).
  CHECK(Picks(run, "round_robin") == Strings{"b/round_robin", "b/round_robin"});
  const auto& log = run.log;
  REQUIRE(log.size() == 2);
  CHECK(nlohmann::json::parse(log[0])["candidates"] == 2);
  CHECK(nlohmann::json::parse(log[1])["candidates"] == 3);
}

TEST_CASE("lifecycle: each strategy's decisions move only its own counters") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "arrival", "duration": 10}
{"t": 2, "type": "arrival"}
)",
                        {"rr", "ll"});
  // round_robin also sends the first request to a; were its counters shared
  // with least_load's, a would be at 2 and b would win the second outright.
  CHECK(Picks(run) == Strings{"a/least", "b/tie", "a/least"});
  CHECK(Picks(run, "round_robin") ==
        Strings{"a/round_robin", "b/round_robin", "a/round_robin"});
}

TEST_CASE("lifecycle: strategies in one run decide as each does alone, completions first") {
  // The first request ends at t = 2, the third arrival's own time: its
  // completion comes first (kCompletion < kTrace) in every world, whatever
  // the world's place in the run.
  auto trace = [](std::string_view first_duration) {
    return Header("0", "0") + R"({"t": 0, "type": "arrival", "duration": )" +
           std::string(first_duration) + R"(}
{"t": 1, "type": "arrival", "duration": 5}
{"t": 2, "type": "arrival", "duration": 5}
{"t": 3, "type": "arrival", "duration": 5}
{"t": 4, "type": "arrival"}
)";
  };
  const Strings alone = Picks(ReplayText(trace("2"), {"ll"}));
  // a, then b (a at 1); at t = 2 a is back at 0; then a tie (1, 1).
  CHECK(alone == Strings{"a/tie", "b/least", "a/least", "b/tie", "a/least"});
  // Had the completion come after the decision at t = 2, a would still be
  // at 1 there.
  CHECK(Picks(ReplayText(trace("2.5"), {"ll"})) != alone);
  CHECK(Picks(ReplayText(trace("2"), {"ll", "rr"})) == alone);
  CHECK(Picks(ReplayText(trace("2"), {"rr", "ll"})) == alone);
  CHECK(Picks(ReplayText(trace("2"), {"rr", "rr", "ll", "rr"})) == alone);
}

TEST_CASE("lifecycle: two runs of one strategy keep separate counters too") {
  auto run = ReplayText(Header("0", "1") + R"({"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "arrival"}
)",
                        {"ll", "ll:qps_1m=0"});
  REQUIRE(run.log.size() == 4);
  CHECK(Picks(run) == Strings{"a/least", "b/tie", "a/least", "b/tie"});
}

TEST_CASE("lifecycle: an arrival without request gets the id r<N>, N the 1-based arrival count") {
  auto run = ReplayText(Header("0", "0") + R"({"t": 0, "type": "arrival", "request": "x"}
{"t": 0, "type": "load", "instance": "a", "inflight": 1}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival", "request": "r9"}
{"t": 3, "type": "arrival"}
)");
  Strings ids, seqs;
  for (const std::string& line : run.log) {
    auto j = nlohmann::json::parse(line);
    ids.push_back(j["request"]);
    seqs.push_back(j["seq"].dump());
  }
  CHECK(ids == Strings{"x", "r2", "r9", "r4"});
  CHECK(seqs == Strings{"1", "2", "3", "4"});
}

}  // namespace
}  // namespace lbsim
