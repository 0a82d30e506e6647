#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/load_score.h"
#include "strategies/slot_set.h"
#include "strategies/timed_queue_loads.h"
#include "strategies/unknown_load.h"

namespace lbsim {

// least_load's lowest-score search as an index over a candidate list that
// changes a little between decisions. Candidates are grouped by their score
// without a hint (the exact double; under `zero` an unknown score counts as
// 0), each group an ordered set of slots, so a decision finds the lowest
// score, the number of candidates tied at it and the k-th of them in pool
// order without scoring every candidate. The few candidates a hint gives
// queue values for are rescored with LoadScore for that decision and merged
// in. A short list (at most kScanMax candidates) keeps no groups: its
// cached base scores are scanned instead, which costs less than keeping
// groups ordered. The answers equal LeastLoadRule's Score + FindLowestScore.
class LoadIndex {
 public:
  // The longest candidate list searched by a scan rather than through
  // score groups.
  static constexpr std::size_t kScanMax = 64;
  // Lists up to this long are scanned as one block of this many scores.
  static constexpr std::size_t kScanBlock = 16;

  LoadIndex(const LoadWeights& weights, UnknownLoad unknown);

  // The candidate list is new.
  void Reset(std::span<const Candidate> candidates);
  // The load fields of candidates[slot] changed.
  void Update(std::span<const Candidate> candidates, std::size_t slot) {
    const Candidate& c = candidates[slot];
    SetQpsPart(scores_[slot], c);
    const BaseScore fresh = ScoreOf(c);
    Apply(slot, fresh.kind, fresh.value);
  }
  // Update for a candidate whose inflight alone moved, from one known value
  // to another (`inflight` now): the same result, without reading the
  // candidate.
  void InflightMoved(std::size_t slot, std::int64_t inflight) {
    if (weights_.inflight == 0.0) return;  // the score does not see inflight
    // LoadScore's sum in its order: 0.0, the inflight part, the qps_1m part.
    // Two terms add up the same under every Summation (a compensated sum of
    // two terms rounds back to their plain sum).
    double score = 0.0 + static_cast<double>(inflight) * weights_.inflight;
    const SlotScore& s = scores_[slot];
    if (s.qps_known) score += s.qps_value;
    const BaseScore fresh = KnownScore(score);
    Apply(slot, fresh.kind, fresh.value);
  }

  // What the lowest-score rule finds in one decision.
  struct Lowest {
    // How many candidates tie at the lowest score; 0 when no score is known.
    std::size_t ties = 0;
    // A candidate of unknown score was passed over for a known one.
    bool passed_over_unknown = false;
    // The lowest score, when ties > 0.
    double score = 0.0;
  };

  // Finds the lowest score among `candidates` (the list as last reset and
  // updated) under `hint`. False when the index cannot answer exactly (a
  // score is not a number): the caller must score every candidate instead.
  bool FindLowest(std::span<const Candidate> candidates, const Hint& hint, Lowest& out) {
    // The common case first, without a call: a scanned list, no NaN score
    // and no queue hint to rescore.
    if (scan_ && not_a_number_count_ == 0 && hint.queues.empty()) {
      out = {};
      all_tie_ = false;
      ScanLowest(scan_value_, unknown_count_, out);
      return true;
    }
    return FindLowestRescored(candidates, hint, out);
  }

  // FindLowest under the hint `timed` stands for, reading LoadNow only for
  // the Instances whose score could be the lowest: an Instance's load there
  // is at least its standing one, so with no negative term its score is at
  // least its base score, and one above the lowest base score of an
  // Instance `timed` leaves alone cannot be the lowest or tie with it.
  // False when that bound does not hold or helps nothing (a negative
  // weight, unknown scores counted as the highest, a NaN score, no
  // Instance without a backlog low enough): the caller must then list the
  // loads in a hint and FindLowest.
  bool FindLowestTimed(std::span<const Candidate> candidates, const TimedQueueLoads& timed,
                       Lowest& out);

  // The highest score among the candidates of the last successful
  // FindLowest, the hint's rescores included, when it found ties > 0 (a
  // score is known); valid until the next Reset or Update.
  double HighestScore() const;

  // The slot of the k-th tie in pool order (k < ties) of the last
  // successful FindLowest; valid until the next Reset or Update.
  std::size_t TieAt(std::size_t k) const {
    if (scan_ && !all_tie_) {
      std::uint64_t ties = scan_ties_;
      for (; k > 0; --k) ties &= ties - 1;  // drops the lowest slot
      return static_cast<std::size_t>(std::countr_zero(ties));
    }
    return GroupTieAt(k);
  }

 private:
  static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};

  using Groups = std::map<double, SlotSet>;

  // A score without a hint.
  struct BaseScore {
    enum class Kind : std::uint8_t { kUnknown, kKnown, kNotANumber };
    Kind kind = Kind::kUnknown;
    double value = 0.0;
  };
  // What the index keeps for a slot: its base score, its group, and the
  // qps_1m part of its score (LoadScore's), together in 32 bytes so that an
  // update reads one cache line.
  struct SlotScore {
    BaseScore::Kind kind = BaseScore::Kind::kUnknown;
    bool qps_known = false;  // the candidate has a qps_1m part
    double value = 0.0;
    Groups::iterator group{};  // the slot's group, when known
    double qps_value = 0.0;
  };
  // A candidate a hint rescored in the current decision.
  struct Rescored {
    std::uint32_t slot;
    double score;
  };

  // Sets `s`'s qps_1m part to `c`'s.
  void SetQpsPart(SlotScore& s, const Candidate& c) const {
    s.qps_known = c.qps_1m && weights_.qps_1m != 0.0;
    s.qps_value = s.qps_known ? *c.qps_1m * weights_.qps_1m : 0.0;
  }
  // Sets scores_[slot] to a fresh score of `kind` and `value`.
  void Apply(std::size_t slot, BaseScore::Kind kind, double value) {
    SlotScore& base = scores_[slot];
    if (kind == base.kind && value == base.value) return;  // same group
    if (scan_ && kind == base.kind) {
      // A known score moved (other kinds carry no value): no counts change.
      base.value = value;
      scan_value_[slot] = value;
      return;
    }
    Regroup(static_cast<std::uint32_t>(slot), kind, value);
  }
  // The score of `c` without a hint, under the unknown-load policy.
  BaseScore ScoreOf(const Candidate& c) const {
    std::optional<double> score = LoadScore(c, nullptr, weights_);
    // Under `zero` an unknown score takes part as 0 in every comparison.
    if (!score && unknown_ == UnknownLoad::kZero) score = 0.0;
    if (!score) return {};
    return KnownScore(*score);
  }
  // The base score of a candidate whose score is `score`.
  static BaseScore KnownScore(double score) {
    if (std::isnan(score)) return {BaseScore::Kind::kNotANumber, 0.0};
    return {BaseScore::Kind::kKnown, score};
  }
  // Update's slow path: scores_[slot] takes a score of another kind or, with
  // score groups, moves to another group.
  void Regroup(std::uint32_t slot, BaseScore::Kind kind, double value);
  // Counts scores_[slot] in (into its group when known), or out.
  void Add(std::uint32_t slot);
  void Remove(std::uint32_t slot);
  // Collects the candidates `hint` rescores: into rescored_ (with their
  // known base scores, sorted, in hinted_bases_) when the list keeps score
  // groups, into scan_hinted_ when it is scanned; counts those of unknown
  // base score in rescored_unknown_. False when one of their scores is not
  // a number.
  bool Rescore(std::span<const Candidate> candidates, const Hint& hint);
  // LoadScore(c, &queue, weights_) when one of `queue`'s values
  // contributes (the score is then known); false, and `score` untouched,
  // when none does (the score is the base one).
  bool ScoreWithQueue(const Candidate& c, const QueueLoad& queue, double& score) const;
  // The group of the lowest score among the candidates the hint leaves
  // alone; end when all of them are unknown.
  Groups::const_iterator LowestUnhinted() const;
  // The lowest base score of a candidate not in `timed` (an upper bound of
  // the lowest score under the hint it stands for); false when none is
  // known (or, with score groups, the lowest few groups hold none).
  bool LowestUntimed(std::span<const InstanceIndex> timed, double& score) const;
  // FindLowest's other cases: score groups, hints, NaN scores.
  bool FindLowestRescored(std::span<const Candidate> candidates, const Hint& hint, Lowest& out);
  // FindLowest for a list searched by a scan, `scores` by slot (NaN when
  // unknown; none is NaN otherwise) padded like scan_value_, of which
  // `unknown` candidates are unknown.
  void ScanLowest(std::span<const double> scores, std::size_t unknown, Lowest& out);
  // TieAt when every candidate ties or the list keeps score groups.
  std::size_t GroupTieAt(std::size_t k) const;
  // The highest score among them; false when all of them are unknown.
  bool HighestUnhinted(double& score) const;
  // The k-th member, in slot order, of ties_group_ without hinted_members_.
  std::uint32_t NthUnhinted(std::size_t k) const;
  // How many members of ties_group_ without hinted_members_ are below `slot`.
  std::size_t CountUnhintedBelow(std::uint32_t slot) const;

  LoadWeights weights_;
  UnknownLoad unknown_;
  // The queue keys of non-zero weight, the only ones a hint's entry is read
  // for: byte k (from the lowest) is 1 when key k has a weight, so
  // QueueLoad::known read as a word (LoadWord) and one AND give the weighted
  // keys an entry holds.
  std::uint64_t weighted_keys_ = 0;
  // The inflight and queue weights are all >= 0 (FindLowestTimed's bound).
  bool nonnegative_weights_ = false;

  std::vector<SlotScore> scores_;                // by slot
  std::vector<InstanceIndex> instance_;          // by slot
  std::vector<std::uint32_t> slot_of_;           // by InstanceIndex
  bool scan_ = false;                            // the list is short: no groups kept
  Groups groups_;                                // known, numeric base scores
  std::size_t unknown_count_ = 0;
  std::size_t not_a_number_count_ = 0;

  // Per decision.
  std::vector<std::uint64_t> seen_;  // by slot: the decision that last saw it in a hint
  std::uint64_t decision_ = 0;
  std::vector<Rescored> rescored_;       // in hint order
  std::size_t rescored_unknown_ = 0;     // of them, of unknown base score
  std::vector<double> hinted_bases_;     // known base scores of rescored_, sorted (groups only)
  Hint timed_hint_;                      // FindLowestTimed's entries that could matter
  const SlotSet* ties_group_ = nullptr;  // unhinted ties come from here...
  std::vector<std::uint32_t> hinted_members_;  // ...less these, sorted
  std::vector<std::uint32_t> hinted_ties_;     // rescored ties, sorted
  bool all_tie_ = false;                       // every candidate ties
  // Scan only: base scores by slot (NaN when unknown; padded with NaN to a
  // multiple of four slots, and to kScanBlock at least), the same with the
  // hint's rescores, and the slots tied at the lowest score the last scan
  // found (bit k: slot k).
  std::vector<double> scan_value_;
  std::vector<double> scan_hinted_;
  std::span<const double> scanned_;  // what the last scan read: one of the two
  std::uint64_t scan_ties_ = 0;
};

}  // namespace lbsim
