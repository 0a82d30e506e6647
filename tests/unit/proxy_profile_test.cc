// The pinned Proxy profiles (proxy-versions.md): each version's pool (where
// inflight comes from, registration, heartbeats, request counting) and its
// least_load (L1 lexicographic; L2 and L3 weighted with Python's float()
// and sum(); refusals). Every expected pick was worked out by hand from
// that page.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/errors.h"
#include "replay_fixture.h"

namespace lbsim {
namespace {

using testing::PinnedProxy;
using testing::Picks;
using testing::ReplayText;
using Strings = std::vector<std::string>;

Strings Run(std::string_view trace, std::string_view proxy,
            PythonVersion python = PythonVersion::k312, std::string_view strategy = "ll") {
  auto run = ReplayText(trace, {std::string(strategy)}, "trace.ndjson", PinnedProxy(proxy, python));
  return Picks(run, run.result.requests.at(0).info->name);
}

TEST_CASE("profiles: names, latest and the default") {
  CHECK(FindProxyProfile("latest") == &LatestProxyProfile());
  CHECK(LatestProxyProfile().name == "cacheroute@28e857c");
  CHECK(FindProxyProfile(" CacheRoute@DF8382D ")->name == "cacheroute@df8382d");
  CHECK(FindProxyProfile("spec") == &SpecProxyProfile());
  CHECK(FindProxyProfile("cacheroute@9371b79") == nullptr);  // no least_load there
  CHECK(FindProxyProfile("df8382d") == nullptr);
  CHECK(ProxyChoice{}.Resolve(nullptr).profile == &LatestProxyProfile());
  CHECK(ProxyChoice{}.Resolve(&SpecProxyProfile()).profile == &SpecProxyProfile());
  CHECK(ProxyChoice{&SpecProxyProfile(), std::nullopt}.Resolve(&LatestProxyProfile()).profile ==
        &SpecProxyProfile());
}

TEST_CASE("L1 (df8382d): lowest known inflight, then lowest known qps_1m among those") {
  // a and b tie at inflight 1; b's qps is lower. c's inflight is unknown.
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1, "qps_1m": 5}, {"id": "b", "inflight": 1, "qps_1m": 2}, {"id": "c", "qps_1m": 0}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "load", "instance": "b", "qps_1m": 5}
{"t": 1, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "load", "instance": "a", "inflight": 3}
{"t": 2, "type": "arrival"}
)";
  // Qps ties a and b at 5: the shared counter (1, 2) picks b then a.
  CHECK(Run(trace, "cacheroute@df8382d") == Strings{"b/least", "b/tie", "a/tie", "b/least"});
}

TEST_CASE("L1: with no inflight known, the lowest known qps_1m wins among all, else fallback") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b", "qps_1m": 4}, {"id": "c", "qps_1m": 3}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"c": {"active_ready": 9}}}}}
)";
  // Hints are not read by L1.
  CHECK(Run(trace, "cacheroute@df8382d") == Strings{"c/least", "c/least"});
  const std::string unknown = R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival"}
)";
  CHECK(Run(unknown, "cacheroute@df8382d") == Strings{"a/fallback", "b/fallback", "a/fallback"});
}

TEST_CASE("df8382d: heartbeats set inflight (a null leaves it), requests are not counted") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "arrival", "duration": 10}
{"t": 2, "type": "load", "instance": "a", "inflight": 5}
{"t": 2, "type": "arrival"}
{"t": 3, "type": "load", "instance": "a", "inflight": null}
{"t": 3, "type": "arrival"}
)";
  CHECK(Run(trace, "cacheroute@df8382d") == Strings{"a/least", "a/least", "b/least", "b/least"});
  auto run = ReplayText(trace, {"ll"}, "trace.ndjson", PinnedProxy("cacheroute@df8382d"));
  CHECK(run.result.ignored.inflight == 1);  // the null
}

TEST_CASE("2f1019a: the Proxy counts requests, ignores heartbeats' inflight, a new one is unknown") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 0}]}
{"t": 0, "type": "arrival", "duration": 10}
{"t": 1, "type": "load", "instance": "a", "inflight": 0}
{"t": 1, "type": "arrival", "duration": 10}
{"t": 2, "type": "up", "instance": "c"}
{"t": 2, "type": "arrival", "duration": 10}
{"t": 3, "type": "arrival"}
{"t": 4, "type": "arrival"}
)";
  // a 1; the heartbeat's 0 is ignored, so b; c is unknown and never picked
  // while a and b are known (both 1): a tie, counter 2 -> a (a = 2); then
  // b (1) least; then b = 2 ties a = 2 at counter 4 -> a.
  CHECK(Run(trace, "cacheroute@2f1019a") ==
        Strings{"a/tie", "b/least", "a/tie", "b/least", "a/tie"});
  auto run = ReplayText(trace, {"ll"}, "trace.ndjson", PinnedProxy("cacheroute@2f1019a"));
  CHECK(run.result.ignored.inflight == 1);
  CHECK(run.metrics().never_completed() == 2);
}

TEST_CASE("2f1019a: routing an unknown counter makes it 1") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}
{"t": 0, "type": "arrival", "duration": 5}
{"t": 1, "type": "arrival", "duration": 5}
{"t": 2, "type": "arrival", "duration": 5}
)";
  // All unknown: fallback picks a (now 1); b unknown is passed over for a.
  CHECK(Run(trace, "cacheroute@2f1019a") == Strings{"a/fallback", "a/least", "a/least"});
}

TEST_CASE("55b32e9 on: registering sets an unknown counter to 0") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 2}, {"id": "b"}]}
{"t": 0, "type": "arrival"}
{"t": 1, "type": "up", "instance": "b"}
{"t": 1, "type": "up", "instance": "c"}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival"}
)";
  // The header's b stays unknown ("as reported") until its re-registration
  // sets it to 0; c registers at 0: b and c tie at the counter 1 -> c (1),
  // then b alone.
  CHECK(Run(trace, "cacheroute@55b32e9") == Strings{"a/least", "c/tie", "b/least"});
  CHECK(Run(trace, "cacheroute@2f1019a") == Strings{"a/least", "a/least", "a/least"});
}

TEST_CASE("counting Proxies: a completion decrements whatever holds the id then") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 0}]}
{"t": 0, "type": "arrival", "duration": 5}
{"t": 1, "type": "remove", "instance": "a"}
{"t": 1, "type": "up", "instance": "a"}
{"t": 2, "type": "arrival", "duration": 100}
{"t": 3, "type": "arrival", "duration": 100}
{"t": 6, "type": "arrival", "duration": 100}
)";
  // 55b32e9: a is routed (1), removed, registered again at 0 (at the end:
  // [b, a]); r2 ties b/a at the counter 1 -> a (1); r3 picks b (0); at t=5
  // r1's completion decrements the new a to 0; r4 picks a.
  CHECK(Run(trace, "cacheroute@55b32e9") == Strings{"a/tie", "a/tie", "b/least", "a/least"});
  // 2f1019a: the new a is unknown; b (0) wins r2 and r3; r1's completion
  // turns the unknown counter into 0, so r4 ties a (0) with... b is 2: a.
  CHECK(Run(trace, "cacheroute@2f1019a") == Strings{"a/tie", "b/least", "b/least", "a/least"});
}

TEST_CASE("counting Proxies: a down Instance's completions still count down") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 0}]}
{"t": 0, "type": "arrival", "duration": 2}
{"t": 1, "type": "down", "instance": "a"}
{"t": 3, "type": "up", "instance": "a"}
{"t": 3, "type": "arrival", "duration": 2}
)";
  CHECK(Run(trace, "latest") == Strings{"a/tie", "b/tie"});
}

TEST_CASE("pinned profiles: a load event brings a down Instance back, spec does not") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 5}]}
{"t": 0, "type": "down", "instance": "a"}
{"t": 1, "type": "load", "instance": "a", "qps_1m": 1}
{"t": 1, "type": "arrival"}
)";
  CHECK(Run(trace, "cacheroute@df8382d") == Strings{"a/least"});
  CHECK(Picks(ReplayText(trace)) == Strings{"b/least"});
}

TEST_CASE("L2/L3: weights, no queue_depth term, qps_1m weight 0, keys by version") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1, "qps_1m": 0}, {"id": "b", "inflight": 1, "qps_1m": 900}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"queue_depth": 50, "pending_prefill_count": 1}}}}}
)";
  // queue_depth is no term; qps_1m weighs 0; pending_prefill_count is L3's.
  CHECK(Run(trace, "cacheroute@8b116b6") == Strings{"a/tie"});
  CHECK(Run(trace, "latest") == Strings{"b/least"});
  CHECK(Picks(ReplayText(trace)) == Strings{"b/least"});  // spec: queue_depth 50 x 0.25
}

TEST_CASE("L2/L3: hint values as float() reads them: strings, booleans") {
  auto hint = [](std::string_view value) {
    return R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 2}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"active_ready": )" +
           std::string(value) + "}}}}}\n";
  };
  CHECK(Run(hint("\"3\""), "latest") == Strings{"b/least"});
  CHECK(Run(hint("\" 1_000 \""), "latest") == Strings{"b/least"});
  CHECK(Run(hint("true"), "latest") == Strings{"a/tie"});   // 1 + 1.0 ties b's 2
  CHECK(Run(hint("false"), "latest") == Strings{"a/least"});
  CHECK(Run(hint("\"abc\""), "latest") == Strings{"a/least"});  // unknown: no term
  CHECK(Run(hint("[1]"), "latest") == Strings{"a/least"});
  CHECK(Run(hint("\"-inf\""), "latest") == Strings{"a/least"});
  // Typed under spec: a string is unknown.
  CHECK(Picks(ReplayText(hint("\"3\""))) == Strings{"a/least"});
}

TEST_CASE("L2/L3: a NaN first score refuses, leaving the counter, a later NaN never wins") {
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 1}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"active_ready": "nan"}}}}}
{"t": 1, "type": "arrival"}
{"t": 2, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"b": {"active_ready": "nan"}}}}}
)";
  // r1 refused: nothing counted, the counter stays 0; r2 ties a/b -> a (a=2);
  // r3: b's NaN is never the minimum, a (2) wins alone.
  CHECK(Run(trace, "latest") == Strings{"-/refused", "a/tie", "a/least"});
  auto run = ReplayText(trace, {"ll"}, "trace.ndjson", PinnedProxy("latest"));
  CHECK(run.metrics().refused() == 1);
  CHECK(run.metrics().decisions() == 3);
}

TEST_CASE("L2/L3: a hint integer past the double range refuses, where the version reads it") {
  const std::string big(400, '9');
  auto trace = [&](std::string_view key, std::string_view id) {
    return R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 0}, {"id": "c"}]}
{"t": 0, "type": "down", "instance": "c"}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {")" + std::string(id) +
           R"(": {")" + std::string(key) + R"(": )" + big + "}}}}}\n";
  };
  CHECK(Run(trace("active_ready", "a"), "latest") == Strings{"-/refused"});
  CHECK(Run(trace("active_ready", "a"), "cacheroute@8b116b6") == Strings{"-/refused"});
  // L2 does not read pending_prefill_count; nobody reads queue_depth.
  CHECK(Run(trace("pending_prefill_count", "a"), "cacheroute@8b116b6") == Strings{"b/least"});
  CHECK(Run(trace("pending_prefill_count", "a"), "latest") == Strings{"-/refused"});
  CHECK(Run(trace("queue_depth", "a"), "latest") == Strings{"b/least"});
  // A down Instance is no candidate: its entry is never read.
  CHECK(Run(trace("active_ready", "c"), "latest") == Strings{"b/least"});
  // A literal with an exponent is a float to json.loads: infinity, no error.
  const std::string inf = R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 1}, {"id": "b", "inflight": 2}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"active_ready": 1e400}}}}}
)";
  CHECK(Run(inf, "latest") == Strings{"b/least"});
}

TEST_CASE("L3 on 3.11 and 3.12: the summation splits a tie") {
  // a: 0.1 + 0.2 + 0.3 (active_prepare, active_ready, pending_prefill_count);
  // b: 0.6 (active_prepare). Inflight unknown: the hint terms alone.
  const std::string trace = R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}
{"t": 0, "type": "arrival", "hint": {"queue_depths": {"per_instance": {"a": {"active_prepare": 0.1, "active_ready": 0.2, "pending_prefill_count": 0.3}, "b": {"active_prepare": 0.6}}}}}
)";
  CHECK(Run(trace, "latest", PythonVersion::k312) == Strings{"a/tie"});
  CHECK(Run(trace, "latest", PythonVersion::k311) == Strings{"b/least"});
}

TEST_CASE("a trace header's proxy is the default, the run's choice wins") {
  const std::string trace = R"({"lbsim_trace": 1, "proxy": "cacheroute@df8382d", "instances": [{"id": "a", "inflight": 3}, {"id": "b", "inflight": 0}]}
{"t": 0, "type": "load", "instance": "a", "inflight": 0}
{"t": 0, "type": "load", "instance": "b", "inflight": 1}
{"t": 0, "type": "arrival"}
)";
  SimOptions options;
  auto header = ReplayText(trace, {"ll"}, "trace.ndjson", ProxyChoice{});
  CHECK(header.result.proxy.profile->name == "cacheroute@df8382d");
  CHECK(Picks(header) == Strings{"a/least"});
  CHECK(Run(trace, "latest") == Strings{"b/least"});  // the heartbeats are ignored
  CHECK(testing::ReadError(R"({"lbsim_trace": 1, "proxy": "cacheroute@nope"})") ==
        "FILE:1: header: field \"proxy\": expected a Proxy profile: one of cacheroute@df8382d, "
        "cacheroute@2f1019a, cacheroute@55b32e9, cacheroute@8b116b6, cacheroute@d4bd47f, "
        "cacheroute@28e857c, latest, spec, got \"cacheroute@nope\"");
}

TEST_CASE("parameters: profile defaults, changes reported, L1 takes none") {
  const ProxyRun latest{};
  StrategyRequest ll = BindToProxy(testing::Request("ll"), latest);
  CHECK(ll.params.Number("qps_1m") == 0.0);
  CHECK(ll.params.Number("queue_depth") == 0.0);
  CHECK(ll.params.Number("pending_prefill_count") == 1.0);
  CHECK(ll.ReplaysProxy());
  CHECK_FALSE(BindToProxy(testing::Request("ll:qps_1m=0.01"), latest).ReplaysProxy());
  CHECK(BindToProxy(testing::Request("rr"), latest).ReplaysProxy());
  CHECK_FALSE(BindToProxy(testing::Request("p2c"), latest).ReplaysProxy());  // lbsim's own
  const ProxyRun l2{FindProxyProfile("cacheroute@8b116b6")};
  CHECK(BindToProxy(testing::Request("ll"), l2).params.Number("pending_prefill_count") == 0.0);
  const ProxyRun l1{FindProxyProfile("cacheroute@55b32e9")};
  CHECK(BindToProxy(testing::Request("ll"), l1).params.All().empty());
  CHECK_THROWS_WITH_AS(BindToProxy(testing::Request("ll:qps_1m=0"), l1),
                       "strategy least_load: unknown parameter 'qps_1m'; it takes no parameters "
                       "(under Proxy profile cacheroute@55b32e9, least_load L1)",
                       UsageError);
}

}  // namespace
}  // namespace lbsim
