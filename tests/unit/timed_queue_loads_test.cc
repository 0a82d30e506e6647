// least_load deciding from TimedQueueLoads (the Proxy queue model's loads,
// read on demand) against its plain Select over the hint they stand for,
// which lists every load: on random pools with standing queue loads, timed
// loads at least as high (from a tiny backlog to a large one, so that
// rescored scores land on, just above and far above the lowest), policies,
// weights and both Pythons' sum(). Where SelectTimed declines, the caller's
// SelectIndexed over the listed hint decides, as a replay does.

#include <doctest/doctest.h>

#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "replay_fixture.h"
#include "strategies/proxy_profile.h"
#include "strategies/strategy.h"
#include "strategies/timed_queue_loads.h"

namespace lbsim {
namespace {

using testing::Request;

// Loads given by Instance, for the Instances listed.
class ListedLoads : public TimedQueueLoads {
 public:
  std::vector<InstanceIndex> instances;
  std::vector<QueueLoad> loads;  // by position in `instances`

  std::span<const InstanceIndex> Instances() const override { return instances; }
  void LoadNow(InstanceIndex i, QueueLoad& load) const override {
    for (std::size_t k = 0; k < instances.size(); ++k)
      if (instances[k] == i) load = loads[k];
    ++reads;
  }
  mutable std::size_t reads = 0;
};

class TimedComparison {
 public:
  // `scanned`: at most LoadIndex::kScanMax candidates (a scanned list);
  // otherwise mostly more (score groups).
  TimedComparison(std::uint64_t seed, std::optional<ProxyRun> proxy, bool scanned = false)
      : rng_(seed), spec_(RandomSpec()),
        reference_(Bound(spec_, proxy).Make()), timed_(Bound(spec_, proxy).Make()) {
    REQUIRE(timed_->Indexed() != nullptr);
    const std::size_t pool = scanned || Chance(0.1) ? 1 + rng_() % 64 : 65 + rng_() % 400;
    known_inflight_ = Chance(0.7) ? 1.0 : Fraction();
    for (std::size_t i = 0; i < pool; ++i) {
      candidates_.push_back(Candidate{static_cast<InstanceIndex>(2 * i), "", 1.0, std::nullopt,
                                      std::nullopt, 0});
      standing_.emplace_back();
      RandomLoad(i);
    }
    timed_->Indexed()->Reset(candidates_);
  }

  // Decisions SelectTimed made (not declined).
  std::size_t decided() const { return decided_; }
  // LoadNow calls, and hint entries the listed hints held.
  std::size_t reads() const { return reads_; }
  std::size_t listed() const { return listed_; }

  void Run(int decisions) {
    for (int d = 0; d < decisions; ++d) {
      for (auto changes = rng_() % 4; changes > 0; --changes) {
        const std::size_t slot = rng_() % candidates_.size();
        RandomLoad(slot);
        timed_->Indexed()->Update(candidates_, slot);
      }
      const ListedLoads loads = RandomTimed();
      Hint listed;
      for (std::size_t k = 0; k < loads.instances.size(); ++k)
        listed.queues.push_back({loads.instances[k], loads.loads[k]});
      listed_ += listed.queues.size();
      Decide(loads, listed, d);
    }
  }

 private:
  static StrategyRequest Bound(const std::string& spec, const std::optional<ProxyRun>& proxy) {
    return proxy ? BindToProxy(Request(spec), *proxy) : Request(spec);
  }

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  double Fraction() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  // Weights (parameters take no negative one), the three unknown policies.
  std::string RandomSpec() {
    static const char* const policies[] = {"exclude", "zero", "max"};
    static const char* const components[] = {
        "inflight", "active_prepare", "active_ready", "prepare_queue_depth",
        "ready_queue_depth", "pending_prefill_count", "active_decode_count",
        "predicted_total_backlog_ms", "qps_1m"};
    static const double weights[] = {0.0, 0.5, 1.0, 2.0, 0.001, 0.1, 3.0};
    std::string spec = fmt::format("ll:unknown={}", policies[rng_() % 3]);
    for (const char* component : components) {
      const auto roll = rng_() % 4;
      if (roll == 0) continue;  // the default weight
      spec += fmt::format(":{}={}", component, weights[rng_() % std::size(weights)]);
    }
    return spec;
  }

  // Small counts, so that many scores tie; a standing queue load on most.
  void RandomLoad(std::size_t slot) {
    Candidate& c = candidates_[slot];
    c.inflight = std::nullopt;
    c.qps_1m = std::nullopt;
    if (Chance(known_inflight_)) c.inflight = static_cast<std::int64_t>(rng_() % 4);
    if (Chance(0.2)) c.qps_1m = Chance(0.2) ? -2.0 : static_cast<double>(rng_() % 3);
    c.queue = nullptr;
    if (Chance(0.3)) return;  // idle
    QueueLoad& q = standing_[slot];
    q = QueueLoad{};
    for (std::size_t k = 1; k < kQueueFields.size(); ++k) {
      q.known[k] = true;
      q.value[k] = k + 1 == kQueueFields.size() ? 0.0 : static_cast<double>(rng_() % 3);
    }
    c.queue = &q;
  }

  // A random set of Instances (some not candidates), each with its
  // standing load raised: a backlog from tiny to large, sometimes a count.
  ListedLoads RandomTimed() {
    ListedLoads loads;
    const std::size_t n = Chance(0.2) ? 0 : rng_() % (candidates_.size() / 2 + 2);
    std::vector<bool> taken(2 * candidates_.size() + 8, false);
    for (std::size_t e = 0; e < n; ++e) {
      const InstanceIndex i = static_cast<InstanceIndex>(rng_() % taken.size());
      if (taken[i]) continue;  // each once
      taken[i] = true;
      QueueLoad load;
      const bool candidate = i % 2 == 0 && i / 2 < candidates_.size();
      if (candidate && candidates_[i / 2].queue) load = *candidates_[i / 2].queue;
      for (std::size_t k = 1; k < kQueueFields.size(); ++k) load.known[k] = true;
      static const double backlogs[] = {0.0, 1e-300, 1e-13, 1e-9, 0.25, 1.0, 7.5, 300.0, 4e5};
      load.value[7] += backlogs[rng_() % std::size(backlogs)];
      if (Chance(0.2)) load.value[1 + rng_() % 6] += 1.0;
      loads.instances.push_back(i);
      loads.loads.push_back(load);
    }
    return loads;
  }

  void Decide(const ListedLoads& loads, const Hint& listed, int d) {
    INFO("spec ", spec_, ", decision ", d, ", ", candidates_.size(), " candidates, ",
         listed.queues.size(), " timed");
    const Choice want = reference_->Select(candidates_, listed);
    std::optional<Choice> got = timed_->Indexed()->SelectTimed(candidates_, {}, loads);
    if (got) ++decided_;
    else got = timed_->Indexed()->SelectIndexed(candidates_, listed);
    reads_ += loads.reads;
    CHECK(got->index == want.index);
    CHECK(got->reason == want.reason);
    CHECK(got->passed_over_unknown == want.passed_over_unknown);
  }

  std::mt19937_64 rng_;
  std::string spec_;
  std::unique_ptr<Strategy> reference_, timed_;
  double known_inflight_ = 1.0;
  std::vector<Candidate> candidates_;
  std::deque<QueueLoad> standing_;  // by slot; a load's address stays
  std::size_t decided_ = 0, reads_ = 0, listed_ = 0;
};

TEST_CASE("least_load: decisions from timed queue loads equal Select's on the listed hint") {
  std::size_t decided = 0, decisions = 0, reads = 0, listed = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    std::optional<ProxyRun> proxy;
    if (seed % 3 == 1) proxy = ProxyRun{&LatestProxyProfile(), PythonVersion::k312};
    if (seed % 3 == 2) proxy = ProxyRun{&LatestProxyProfile(), PythonVersion::k311};
    TimedComparison comparison(seed, proxy);
    comparison.Run(50);
    decided += comparison.decided();
    reads += comparison.reads();
    listed += comparison.listed();
    decisions += 50;
  }
  // The bound decides most decisions, reading a fraction of the loads.
  CHECK(decided > decisions / 3);
  CHECK(reads < listed / 2);
}

TEST_CASE("least_load: decisions from timed queue loads equal Select's on scanned lists") {
  std::size_t decided = 0, decisions = 0;
  for (std::uint64_t seed = 1000; seed < 1200; ++seed) {
    CAPTURE(seed);
    std::optional<ProxyRun> proxy;
    if (seed % 2) proxy = ProxyRun{&LatestProxyProfile(), PythonVersion::k312};
    TimedComparison comparison(seed, proxy, true);
    comparison.Run(50);
    decided += comparison.decided();
    decisions += 50;
  }
  CHECK(decided > decisions / 3);
}

}  // namespace
}  // namespace lbsim
