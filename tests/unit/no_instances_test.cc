// Arrivals when nothing is alive (strategies.md "Common contract",
// trace-format.md): a decision with no Instance, reason no_instances; it is
// counted, schedules nothing, and leaves the strategy's state unchanged.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "replay_fixture.h"

namespace lbsim {
namespace {

using testing::Picks;
using testing::ReplayText;
using Strings = std::vector<std::string>;

// Instances a and b with the given inflight; an arrival; both go down; two
// arrivals find nothing alive; both come back; one more arrival.
std::string DownAndBack(std::string_view inflight) {
  std::string load(inflight);
  return R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": )" + load +
         R"(}, {"id": "b", "inflight": )" + load + R"(}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "down", "instance": "a"}
{"t": 1, "type": "down", "instance": "b"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival"}
{"t": 3, "type": "up", "instance": "a"}
{"t": 3, "type": "up", "instance": "b"}
{"t": 3, "type": "arrival"}
)";
}

TEST_CASE("no_instances: round_robin's counter is unchanged by decisions with nothing alive") {
  std::string text = DownAndBack("null");
  text.insert(text.find(R"({"t": 3, "type": "up", "instance": "a"})"),
              R"({"t": 2, "type": "arrival"})"
              "\n");
  auto run = ReplayText(text, {"rr"});
  // Counter 0 -> a, then 1 -> b. Three empty decisions (an odd number, so
  // that the mapping shows it) advancing the counter to 4 would pick a.
  CHECK(Picks(run, "round_robin") == Strings{"a/round_robin", "-/no_instances", "-/no_instances",
                                             "-/no_instances", "b/round_robin"});
}

TEST_CASE("no_instances: least_load's shared counter is unchanged (fallback and tie)") {
  std::string three_empty = R"({"t": 2, "type": "arrival"})"
                            "\n";
  for (std::string_view inflight : {"null", "4"}) {
    CAPTURE(inflight);
    std::string text = DownAndBack(inflight);
    text.insert(text.find(R"({"t": 3, "type": "up", "instance": "a"})"), three_empty);
    auto run = ReplayText(text, {"ll"});
    std::string reason = inflight == "null" ? "fallback" : "tie";
    CHECK(Picks(run) == Strings{"a/" + reason, "-/no_instances", "-/no_instances",
                                "-/no_instances", "b/" + reason});
  }
}

TEST_CASE("no_instances: decisions are counted, logged with a null instance, and 0 candidates") {
  auto run = ReplayText(DownAndBack("null"), {"rr", "ll"});
  for (std::size_t k = 0; k < 2; ++k) {
    CAPTURE(k);
    CHECK(run.metrics(k).decisions() == 4);
    CHECK(run.metrics(k).no_instances() == 2);
    CHECK(run.metrics(k).ReasonCount("no_instances") == 2);
  }
  CHECK(run.log[1] ==
        R"({"strategy":"round_robin","seq":2,"t":1,"request":"r2","instance":null,"reason":"no_instances","candidates":0})");
  CHECK(run.log[6] ==
        R"({"strategy":"least_load","seq":3,"t":2,"request":"r3","instance":null,"reason":"no_instances","candidates":0})");
}

TEST_CASE("no_instances: an arrival with a duration and nothing alive schedules nothing") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1, "alive": false}, {"id": "b", "inflight": 1, "alive": false}]}
{"t": 0, "type": "arrival", "duration": 1}
{"t": 2, "type": "up", "instance": "a"}
{"t": 2, "type": "up", "instance": "b"}
{"t": 2, "type": "arrival"}
)");
  // A completion of the first arrival would take a (or b) down to 0.
  CHECK(Picks(run) == Strings{"-/no_instances", "a/tie"});
}

TEST_CASE("no_instances: a trace with no Instances at all") {
  auto run = ReplayText(R"({"lbsim_trace": 1}
{"t": 0, "type": "arrival"}
{"t": 0, "type": "arrival", "duration": 3}
)",
                        {"rr", "ll"});
  CHECK(Picks(run, "round_robin") == Strings{"-/no_instances", "-/no_instances"});
  CHECK(Picks(run) == Strings{"-/no_instances", "-/no_instances"});
  CHECK(run.result.counts.arrivals == 2);
  CHECK(run.metrics(1).decisions() == 2);
  CHECK(run.metrics(1).no_instances() == 2);
}

TEST_CASE("no_instances: after every Instance is removed") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}]}
{"t": 0, "type": "remove", "instance": "a"}
{"t": 0, "type": "arrival"}
)",
                        {"rr"});
  CHECK(Picks(run, "round_robin") == Strings{"-/no_instances"});
}

}  // namespace
}  // namespace lbsim
