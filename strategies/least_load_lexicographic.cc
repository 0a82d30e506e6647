// least_load as the first Proxy versions run it (L1: cacheroute@df8382d,
// 2f1019a, 55b32e9): lexicographic, no weights, no hints.
//   1. The candidates with a known inflight form K. When K is not empty,
//      the tier is its members at the lowest inflight; otherwise every
//      candidate.
//   2. The tier's members with a known qps_1m form Q. When Q is empty the
//      pick is round-robin over the tier; otherwise round-robin over Q's
//      members at the lowest qps_1m, in pool order.
// One round-robin counter serves every pick and advances on each. Reasons:
// `fallback` when neither inflight nor qps_1m is known anywhere (round-robin
// over every candidate), else `least` when one candidate was left to pick
// from and `tie` when several were.

#include <cstdint>
#include <memory>
#include <vector>

#include "strategies/least_load_lexicographic.h"
#include "strategies/lexicographic_index.h"

namespace lbsim {
namespace {

class LexicographicLeastLoad final : public Strategy, public IndexedSelect {
 public:
  std::string_view Name() const override { return "least_load"; }
  // No hints: neither the queue keys nor the signals published under them.
  bool ReadsQueueLoads() const override { return false; }

  IndexedSelect* Indexed() override { return this; }
  void Reset(std::span<const Candidate> candidates) override {
    scan_ = candidates.size() < kIndexFrom;
    if (!scan_) index_.Reset(candidates);
  }
  void Update(std::span<const Candidate> candidates, std::size_t slot) override {
    if (!scan_) index_.Update(candidates, slot);
  }

  // Select's decision, read from the index: the tier and its ties are the
  // index's front, in pool order. A short list is scanned instead.
  Choice SelectIndexed(std::span<const Candidate> candidates, const Hint& hint) override {
    if (scan_) return Select(candidates, hint);
    return Choose(index_.Read(), [&](std::size_t k) { return index_.Pick(k); });
  }

  Choice Select(std::span<const Candidate> candidates, const Hint&) override {
    LexicographicIndex::Front f;
    std::int64_t lowest_inflight = 0;
    for (const Candidate& c : candidates) {
      if (!c.inflight) {
        f.inflight_unknown = true;
      } else if (!f.any_inflight || *c.inflight < lowest_inflight) {
        lowest_inflight = *c.inflight;
        f.any_inflight = true;
      }
    }
    tier_.clear();
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (!f.any_inflight || candidates[i].inflight == lowest_inflight) tier_.push_back(i);

    double lowest_qps = 0.0;
    for (std::size_t i : tier_) {
      const std::optional<double>& qps = candidates[i].qps_1m;
      if (!qps) {
        f.qps_unknown = true;
      } else if (!f.any_qps || *qps < lowest_qps) {  // min(): the first of equals
        lowest_qps = *qps;
        f.any_qps = true;
      }
    }
    ties_.clear();
    if (f.any_qps)
      for (std::size_t i : tier_)
        if (candidates[i].qps_1m == lowest_qps) ties_.push_back(i);
    f.tier = tier_.size();
    f.ties = f.any_qps ? ties_.size() : tier_.size();
    const std::vector<std::size_t>& picks = f.any_qps ? ties_ : tier_;
    return Choose(f, [&](std::size_t k) { return picks[k]; });
  }

 private:
  // Below this many candidates a scan costs less than keeping the index
  // (scale_bench: at 16 Instances the index made a replay 27% slower; at
  // 10,000 it makes it 74 times faster).
  static constexpr std::size_t kIndexFrom = 128;

  // The rule's decision for a list whose front is `f`: the counter's turn
  // among the picks (`pick(k)`, the k-th in pool order), and its reason.
  template <class Pick>
  Choice Choose(const LexicographicIndex::Front& f, Pick pick) {
    const std::size_t chosen = pick(counter_++ % f.ties);
    if (!f.any_qps) {
      if (!f.any_inflight) return {chosen, "fallback"};
      return {chosen, f.tier == 1 ? "least" : "tie", f.inflight_unknown};
    }
    return {chosen, f.ties == 1 ? "least" : "tie",
            (f.any_inflight && f.inflight_unknown) || f.qps_unknown};
  }

  std::uint64_t counter_ = 0;
  std::vector<std::size_t> tier_, ties_;  // reused buffers
  bool scan_ = true;  // the list is shorter than kIndexFrom: Select scans it
  LexicographicIndex index_;
};

}  // namespace

StrategyInfo LexicographicLeastLoadInfo(const StrategyInfo& least_load) {
  StrategyInfo info = least_load;
  info.description =
      "Chooses the alive Instance with the lowest known inflight, then the lowest known "
      "qps_1m; round-robin among ties and when nothing is known (no weights, no hints).";
  info.params = {};
  info.reasons = {"least", "tie", "fallback"};
  info.make = [](const ParamValues&) -> std::unique_ptr<Strategy> {
    return std::make_unique<LexicographicLeastLoad>();
  };
  return info;
}

}  // namespace lbsim
