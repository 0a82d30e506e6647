// least_load: the lowest known load score wins; ties and the all-unknown
// fallback both pick by one shared round-robin counter that advances on
// every decision. An unknown score is never treated as 0 unless the
// `unknown` parameter says so (zero or max); the default is the spec's rule.
// In a replay it decides through a LoadIndex kept over the World's
// candidates (IndexedSelect), with the same choices as Select.
//
// The same rule is the weighted least_load of the later Proxy versions (L2:
// cacheroute@8b116b6, L3: d4bd47f and 28e857c), with their weights (no
// queue_depth term, qps_1m weight 0), Python's sum() of the terms, and one
// more way to refuse: the Proxy's float() raises on a JSON integer past the
// double range in a hint key it reads. The first versions' lexicographic
// least_load (L1) is least_load_lexicographic.cc.

#include <array>
#include <memory>

#include "strategies/least_load_lexicographic.h"
#include "strategies/least_load_rule.h"
#include "strategies/load_indexed_select.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

using QueueKeys = std::array<bool, kQueueFields.size()>;

class LeastLoad final : public Strategy, public LoadIndexedSelect {
 public:
  // `summation` adds the score's terms; `read` marks the hint keys the Proxy
  // converts with float() whatever their weight (none for spec).
  LeastLoad(const ParamValues& params, Summation summation, const QueueKeys& read)
      : LeastLoad(WeightsOf(params, summation), UnknownLoadFromParams(params), read) {}

  std::string_view Name() const override { return "least_load"; }

  Choice Select(std::span<const Candidate> candidates,
                const Hint& hint) override {
    if (hint.any_overflow && ReadsOverflow(candidates, hint)) return Choice::Refused();
    rule_.Score(candidates, hint);
    return rule_.Pick();
  }

  IndexedSelect* Indexed() override { return this; }
  bool ReadsEngineSignals() const override { return reads_signals_; }

  Choice SelectIndexed(std::span<const Candidate> candidates, const Hint& hint) override {
    LoadIndex::Lowest lowest;
    // The index declines the rare decisions with a NaN score or an
    // overflowing hint value; Select decides them.
    if (hint.any_overflow || !index().FindLowest(candidates, hint, lowest))
      return Select(candidates, hint);
    return rule_.PickIndexed(candidates.size(), index(), lowest);
  }

  std::optional<Choice> SelectTimed(std::span<const Candidate> candidates, const Hint& hint,
                                    const TimedQueueLoads& timed) override {
    LoadIndex::Lowest lowest;
    if (hint.any_overflow || !index().FindLowestTimed(candidates, timed, lowest))
      return std::nullopt;
    return rule_.PickIndexed(candidates.size(), index(), lowest);
  }

 private:
  LeastLoad(const LoadWeights& weights, UnknownLoad unknown, const QueueKeys& read)
      : LoadIndexedSelect(weights, unknown), rule_(weights, unknown) {
    // A key with a weight is read too (a parameter may add a term).
    for (std::size_t i = 0; i < read_.size(); ++i) read_[i] = read[i] || weights.queue[i] != 0.0;
    // The signal keys are the queue keys after queue_depth.
    for (std::size_t i = 1; i < read_.size(); ++i)
      reads_signals_ = reads_signals_ || weights.queue[i] != 0.0;
  }

  static LoadWeights WeightsOf(const ParamValues& params, Summation summation) {
    LoadWeights w = LoadWeights::FromParams(params);
    w.summation = summation;
    return w;
  }

  // Whether the Proxy's float() raises on a value it reads for one of the
  // candidates: it scores every candidate before comparing any.
  bool ReadsOverflow(std::span<const Candidate> candidates, const Hint& hint) const {
    for (const Hint::Entry& e : hint.queues) {
      bool raises = false;
      for (std::size_t i = 0; i < read_.size(); ++i) raises = raises || (read_[i] && e.load.overflow[i]);
      if (!raises) continue;
      for (const Candidate& c : candidates)
        if (c.instance == e.instance) return true;
    }
    return false;
  }

  QueueKeys read_{};
  bool reads_signals_ = false;  // a signal key has a weight
  LeastLoadRule rule_;
};

// The hint keys a weighted Proxy version reads: L2's four, L3's seven.
QueueKeys ProxyQueueKeys(LeastLoadForm form) {
  QueueKeys read{};
  const std::size_t last = form == LeastLoadForm::kSevenQueueKeys ? 7 : 4;
  for (std::size_t i = 1; i <= last; ++i) read[i] = true;  // kQueueFields[0] is queue_depth
  return read;
}

StrategyInfo LeastLoadUnderProxy(const StrategyInfo& spec, const ProxyRun& run) {
  const LeastLoadForm form = run.profile->least_load;
  if (form == LeastLoadForm::kSpec) return spec;
  if (form == LeastLoadForm::kLexicographic) return LexicographicLeastLoadInfo(spec);
  const QueueKeys read = ProxyQueueKeys(form);
  StrategyInfo info = spec;
  info.description = form == LeastLoadForm::kSevenQueueKeys
                         ? "Chooses the alive Instance with the lowest known weighted score of "
                           "inflight and seven hint queue keys; round-robin among ties and when "
                           "nothing is known."
                         : "Chooses the alive Instance with the lowest known weighted score of "
                           "inflight and four hint queue keys; round-robin among ties and when "
                           "nothing is known.";
  for (ParamSpec& p : info.params) {
    if (p.name == "qps_1m") p.default_text = "0";
    const std::size_t i = QueueFieldIndex(p.name);
    if (i == kQueueFields.size() || read[i]) continue;
    // A term this version does not have: off, and echoed only when a run adds it.
    p.default_text = "0";
    p.echo = ParamEcho::kWhenChanged;
    p.description = "weight of a hint key this Proxy version does not read (0: no such term)";
  }
  info.reasons = {"least", "tie", "fallback", "refused"};
  const Summation summation = run.summation();
  info.make = [summation, read](const ParamValues& p) -> std::unique_ptr<Strategy> {
    return std::make_unique<LeastLoad>(p, summation, read);
  };
  return info;
}

}  // namespace

StrategyInfo LeastLoadInfo() {
  std::span<const ParamSpec> weights = LoadWeightParams();
  std::vector<ParamSpec> params(weights.begin(), weights.end());
  params.push_back(UnknownLoadParam());
  return {
      .name = "least_load",
      .aliases = {"ll", "least-load"},
      .status = StrategyStatus::kExperimental,
      .description =
          "Chooses the alive Instance with the lowest known load score; "
          "round-robin among ties and when every load is unknown.",
      .params = std::move(params),
      .reasons = {"least", "tie", "fallback"},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        return std::make_unique<LeastLoad>(p, Summation::kLeftToRight, QueueKeys{});
      },
      .from_proxy = true,
      .under_proxy = &LeastLoadUnderProxy,
  };
}

}  // namespace lbsim
