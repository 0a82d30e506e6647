// least_load's score (strategies.md "Score of a candidate"): value * weight
// summed from 0.0 in the fixed component order inflight, the eight queue
// keys, qps_1m; unknown when no component contributed.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "candidates.h"
#include "strategies/load_score.h"

namespace lbsim {
namespace {

using testing::Candidates;
using testing::Queue;

// 2^53: adding 1 to it is lost to rounding, subtracting it from 1 is exact.
constexpr double kBig = 9007199254740992.0;

// Weights of 1.0 everywhere, so each contribution is the value itself.
LoadWeights UnitWeights() {
  LoadWeights w;
  w.inflight = 1.0;
  w.queue.fill(1.0);
  w.qps_1m = 1.0;
  return w;
}

// The component names in score order.
std::vector<std::string> ComponentOrder() {
  std::vector<std::string> names{"inflight"};
  for (std::string_view k : kQueueFields) names.emplace_back(k);
  names.emplace_back("qps_1m");
  return names;
}

// Score of one candidate with component number k (score order) set to
// values[k], or unknown where values[k] is nullopt.
std::optional<double> ScoreOf(const std::array<std::optional<double>, 10>& values,
                              const LoadWeights& w) {
  Candidate c = Candidates({std::nullopt})[0];
  if (values[0]) c.inflight = static_cast<std::int64_t>(*values[0]);
  if (values[9]) c.qps_1m = *values[9];
  QueueLoad q;
  for (std::size_t i = 0; i < kQueueFields.size(); ++i) {
    if (values[i + 1]) {
      q.value[i] = *values[i + 1];
      q.known[i] = true;
    }
  }
  return LoadScore(c, &q, w);
}

TEST_CASE("load score: the default weights are the spec's, in score order") {
  const LoadWeights w;
  CHECK(w.inflight == 1.0);
  CHECK(w.queue == std::array<double, 8>{0.25, 1.0, 1.0, 0.25, 0.25, 1.0, 0.5, 0.001});
  CHECK(w.qps_1m == 0.01);
  CHECK(std::vector<std::string_view>(kQueueFields.begin(), kQueueFields.end()) ==
        std::vector<std::string_view>{"queue_depth", "active_prepare", "active_ready",
                                      "prepare_queue_depth", "ready_queue_depth",
                                      "pending_prefill_count", "active_decode_count",
                                      "predicted_total_backlog_ms"});
}

TEST_CASE("load score: the declared weight parameters are every component, in order, with the spec defaults") {
  std::vector<std::string> names;
  for (const ParamSpec& p : LoadWeightParams()) names.emplace_back(p.name);
  CHECK(names == ComponentOrder());
  // Resolving the declared defaults gives exactly the default weights.
  LoadWeights w = LoadWeights::FromParams(
      ParamValues::Resolve("least_load", LoadWeightParams(), {}));
  const LoadWeights defaults;
  CHECK(w.inflight == defaults.inflight);
  CHECK(w.queue == defaults.queue);
  CHECK(w.qps_1m == defaults.qps_1m);
}

TEST_CASE("load score: inflight counts with weight 1.0") {
  auto c = Candidates({3})[0];
  CHECK(LoadScore(c, nullptr, LoadWeights{}) == 3.0);
}

TEST_CASE("load score: each queue key counts with its own default weight") {
  // Value 8 in one key at a time: 8 * weight is exact for every weight.
  const std::array<double, 8> expected{2.0, 8.0, 8.0, 2.0, 2.0, 8.0, 4.0, 0.008};
  for (std::size_t i = 0; i < kQueueFields.size(); ++i) {
    CAPTURE(kQueueFields[i]);
    auto c = Candidates({std::nullopt})[0];
    QueueLoad q = Queue({{kQueueFields[i], 8.0}});
    CHECK(LoadScore(c, &q, LoadWeights{}) == expected[i]);
  }
}

TEST_CASE("load score: qps_1m counts with weight 0.01") {
  auto c = Candidates({std::nullopt})[0];
  c.qps_1m = 100;
  CHECK(LoadScore(c, nullptr, LoadWeights{}) == 1.0);
  c.inflight = 1;
  c.qps_1m = 30;
  CHECK(LoadScore(c, nullptr, LoadWeights{}) == 1.3);  // 1 + 0.3 in Python too
}

TEST_CASE("load score: exact total of every component, added in spec order") {
  // Checked in Python: t = 0.0; t += v * w for each component in spec order.
  // Other orders (qps_1m before the queue keys, the queue keys reversed,
  // inflight last, everything reversed) give 41.326 or 41.32599999999999.
  auto c = Candidates({6})[0];
  c.qps_1m = 805;
  QueueLoad q = Queue({{"queue_depth", 7},
                       {"active_prepare", 5},
                       {"active_ready", 6},
                       {"prepare_queue_depth", 5},
                       {"ready_queue_depth", 0},
                       {"pending_prefill_count", 8},
                       {"active_decode_count", 8},
                       {"predicted_total_backlog_ms", 1276}});
  std::optional<double> score = LoadScore(c, &q, LoadWeights{});
  REQUIRE(score);
  CHECK(*score == 0x1.4a9ba5e353f7ep+5);  // 41.32600000000001
}

TEST_CASE("load score: every adjacent pair of components is added in spec order") {
  // With components A then B contributing +2^53 and -2^53 after a base of
  // 1, spec order gives (1 + 2^53) - 2^53 = 0; B before A would give 1.
  const std::vector<std::string> names = ComponentOrder();
  for (std::size_t a = 1; a + 1 < names.size(); ++a) {
    CAPTURE(names[a]);
    CAPTURE(names[a + 1]);
    std::array<std::optional<double>, 10> v{};
    v[0] = 1;  // inflight, the first component, as the base
    if (a + 1 == 9) {  // qps_1m cannot be negative: flip the signs
      v[a] = -kBig;
      v[a + 1] = kBig;
      CHECK(ScoreOf(v, UnitWeights()) == 1.0);  // (1 - 2^53) + 2^53; reversed: 0
    } else {
      v[a] = kBig;
      v[a + 1] = -kBig;
      CHECK(ScoreOf(v, UnitWeights()) == 0.0);
    }
  }
  // inflight comes first: (2^53 + 1) + (-2^53) = 0, where adding inflight
  // last would give (1 - 2^53) + 2^53 = 1.
  std::array<std::optional<double>, 10> v{};
  v[0] = kBig;
  v[1] = 1;
  v[2] = -kBig;
  CHECK(ScoreOf(v, UnitWeights()) == 0.0);
}

TEST_CASE("load score: the total starts at 0.0 and equal inputs give bit-equal totals") {
  auto a = Candidates({2})[0];
  auto b = Candidates({2})[0];
  a.qps_1m = b.qps_1m = 33;
  QueueLoad q = Queue({{"predicted_total_backlog_ms", 777}});
  CHECK(LoadScore(a, &q, LoadWeights{}) == LoadScore(b, &q, LoadWeights{}));
  // 0.0 + 1276 * 0.001 is exactly the double Python computes.
  auto c = Candidates({std::nullopt})[0];
  QueueLoad backlog = Queue({{"predicted_total_backlog_ms", 1276}});
  CHECK(LoadScore(c, &backlog, LoadWeights{}) == 1.276);
}

TEST_CASE("load score: nothing known gives an unknown score, never 0") {
  auto c = Candidates({std::nullopt})[0];
  CHECK_FALSE(LoadScore(c, nullptr, LoadWeights{}).has_value());
  QueueLoad none;
  CHECK_FALSE(LoadScore(c, &none, LoadWeights{}).has_value());
}

TEST_CASE("load score: known zeros make a known score of 0") {
  auto c = Candidates({0})[0];
  CHECK(LoadScore(c, nullptr, LoadWeights{}) == 0.0);
  auto d = Candidates({std::nullopt})[0];
  d.qps_1m = 0.0;
  CHECK(LoadScore(d, nullptr, LoadWeights{}) == 0.0);
  QueueLoad q = Queue({{"active_decode_count", 0}});
  auto e = Candidates({std::nullopt})[0];
  CHECK(LoadScore(e, &q, LoadWeights{}) == 0.0);
}

TEST_CASE("load score: a component with weight 0 neither adds nor makes the score known") {
  const std::vector<std::string> names = ComponentOrder();
  for (std::size_t k = 0; k < names.size(); ++k) {
    CAPTURE(names[k]);
    LoadWeights w = UnitWeights();
    if (k == 0) w.inflight = 0.0;
    else if (k == 9) w.qps_1m = 0.0;
    else w.queue[k - 1] = 0.0;
    std::array<std::optional<double>, 10> only{};
    only[k] = 5;
    CHECK_FALSE(ScoreOf(only, w).has_value());  // the only known value is off
    std::array<std::optional<double>, 10> with_other = only;
    std::size_t other = k == 0 ? 9 : 0;
    with_other[other] = 2;
    CHECK(ScoreOf(with_other, w) == 2.0);  // 5 * 0 is not added either
  }
}

TEST_CASE("load score: negative hint values count as they are") {
  auto c = Candidates({2})[0];
  QueueLoad q = Queue({{"predicted_total_backlog_ms", -600}});
  CHECK(LoadScore(c, &q, LoadWeights{}) == 1.4);  // 2 + -600 * 0.001 in Python
}

}  // namespace
}  // namespace lbsim
