#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <string>
#include <string_view>
#include <vector>

#include "sim/replay/proxy_choice_check.h"
#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/strategy.h"

namespace lbsim {

// What one strategy did over a run, counted decision by decision. The
// per-candidate counts (decisions each Instance was a candidate in, and
// those in which its load was unknown while another's was known) are kept
// as intervals between changes of the candidate set, so that recording a
// decision costs no pool-sized work.
class RunMetrics {
 public:
  struct InstanceTally {
    std::uint64_t selections = 0;
    std::uint64_t candidate_decisions = 0;  // decisions it was a candidate in
    // Decisions in which it was a candidate with no load signal at all (no
    // inflight, no qps_1m, no numeric queue hint) while another candidate
    // had one, and how many of those chose it. Zero chosen out of many is
    // unknown starvation.
    std::uint64_t unknown_while_others_known = 0;
    std::uint64_t chosen_while_unknown = 0;
    std::vector<std::uint64_t> by_reason;  // parallel to reasons(); set by Finish
  };

  // The longest run of consecutive picks of one Instance.
  struct Run {
    InstanceIndex instance = 0;
    std::uint64_t length = 0;
    std::uint64_t first_seq = 0;
    std::size_t max_candidates = 0;  // most candidates seen during the run
  };

  // Runs of one Instance longer than their candidates (with at least two),
  // counted by (instance, most candidates, length): the report judges each
  // against the Instance's expected share. `first_seq` is the first
  // decision of the first such run.
  struct Stretches {
    std::uint64_t count = 0;
    std::uint64_t first_seq = 0;
  };
  using LongRunKey = std::tuple<InstanceIndex, std::size_t, std::uint64_t>;
  // Stretches of consecutive picks that went only to two Instances and
  // switched between them at least once every four picks on average,
  // longer than twice their candidates (with at least four; those of the
  // decision that ended the stretch), counted by (lower instance, higher
  // instance, candidates, length).
  using AlternationKey = std::tuple<InstanceIndex, InstanceIndex, std::size_t, std::uint64_t>;

  // `reasons`: the strategy's declared reason words, which must stay alive
  // while decisions are recorded; "no_instances" is added at the end. Words a strategy gives that it did not declare are
  // added as they come (copied: they need not outlive the strategy).
  explicit RunMetrics(std::span<const std::string_view> reasons);

  // The candidate set between decisions: Instance `i` became a candidate,
  // with (`load_signal`) or without a load signal of its own (a known
  // inflight or qps_1m); it stopped being one; its own signal appeared or
  // vanished.
  void CandidateJoined(InstanceIndex i, bool load_signal);
  void CandidateLeft(InstanceIndex i);
  void LoadSignalChanged(InstanceIndex i, bool load_signal);

  void RecordNoInstances(std::uint64_t seq);
  // A decision the strategy refused (Choice::refused): counted under the
  // reason `refused`, with no pick.
  void RecordRefused(std::uint64_t seq);
  // A routed arrival without a duration under a Proxy that counts its
  // requests: it stays counted in its Instance's inflight forever.
  void RecordNeverCompleted() { ++never_completed_; }
  // The decisions compared with a recorded Proxy's choices.
  ProxyChoiceCheck& proxy_choices() { return proxy_choices_; }
  const ProxyChoiceCheck& proxy_choices() const { return proxy_choices_; }
  // Whether RecordDecision reads a hint's queues for a list of
  // `candidates` candidates: only when one of them has no signal of its own.
  bool ReadsHintQueues(std::size_t candidates) const { return signalled_candidates_ < candidates; }
  // A decision among `candidates`, which must be the candidate set as
  // reported through CandidateJoined and friends, load signals included.
  // Inline: it runs once per decision, and its common case is a few counts.
  void RecordDecision(std::uint64_t seq, std::span<const Candidate> candidates,
                      const Hint& hint, const Choice& choice) {
    // A queue hint can give a load only to a candidate without a signal of
    // its own.
    if (!hint.queues.empty() && signalled_candidates_ < candidates.size()) {
      RecordHintedDecision(seq, candidates, hint, choice);
      return;
    }
    // Otherwise only the candidates' own signals count.
    const std::size_t reason = CountDecision(choice);
    const bool any_known = signalled_candidates_ > 0;
    if (any_known) ++contested_decisions_;
    const Candidate& chosen = candidates[choice.index];
    CountPick(seq, chosen.instance, reason, any_known && !HasLoadSignal(chosen),
              candidates.size());
  }
  // Closes the current run of picks and the candidate intervals; call once
  // after the last decision.
  void Finish();

  // Counts one routed arrival with `requested` prefix blocks, of which the
  // chosen Instance's cache already held the leading `matched`.
  void RecordPrefix(std::size_t requested, std::size_t matched) {
    requested_blocks_ += requested;
    matched_blocks_ += matched;
  }
  // Sets the blocks each Instance's cache holds at the end of the run,
  // indexed by InstanceIndex (may be shorter than the instance table).
  void SetCachedBlocks(std::vector<std::uint64_t> cached) { cached_blocks_ = std::move(cached); }

  std::uint64_t requested_blocks() const { return requested_blocks_; }
  std::uint64_t matched_blocks() const { return matched_blocks_; }
  const std::vector<std::uint64_t>& cached_blocks() const { return cached_blocks_; }

  std::uint64_t decisions() const { return decisions_; }
  std::uint64_t no_instances() const { return reason_counts_.back(); }
  std::uint64_t unknown_excluded() const { return unknown_excluded_; }
  std::uint64_t refused() const { return ReasonCount("refused"); }
  std::uint64_t never_completed() const { return never_completed_; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::vector<std::uint64_t>& reason_counts() const { return reason_counts_; }
  // The count for `reason`, 0 when the strategy never gives it.
  std::uint64_t ReasonCount(std::string_view reason) const;
  std::size_t ReasonIndex(std::string_view reason) const;  // npos if absent
  // Indexed by InstanceIndex; may be shorter than the instance table.
  // Complete (selections and by_reason included) after Finish.
  const std::vector<InstanceTally>& instances() const { return instances_; }
  const Run& longest_run() const { return longest_; }
  // Decisions inside runs longer than the number of candidates (with at
  // least two candidates): picks that herd onto one Instance.
  std::uint64_t herded_decisions() const { return herded_; }
  // Those runs, and the alternating stretches; see Stretches.
  const std::map<LongRunKey, Stretches>& long_runs() const { return long_runs_; }
  const std::map<AlternationKey, Stretches>& alternations() const { return alternations_; }
  // Whether `run`'s picks herded: more of them in a row than there were
  // candidates (at least two). No branch, for ExtendRun.
  static bool Herds(const Run& run) {
    return (run.max_candidates >= 2) & (run.length > run.max_candidates);
  }

 private:
  // Where Instance `i` stands in the candidate set, and since when.
  struct CandidateState {
    bool candidate = false;
    bool load_signal = false;
    std::uint64_t since = 0;          // candidate_decisions_ when it joined
    std::uint64_t unknown_since = 0;  // contested_decisions_ when it lost its signal
    // Contested decisions in its unknown interval in which a hint gave it a
    // load after all: not unknown there.
    std::uint64_t hinted = 0;
  };

  // Whether `c` has a load signal of its own: what CandidateJoined and
  // LoadSignalChanged were told for it, read from the candidate (which a
  // decision has at hand) rather than from states_.
  static bool HasLoadSignal(const Candidate& c) { return c.inflight || c.qps_1m; }
  // The slot of `reason`, added (before "no_instances") when new.
  std::size_t ReasonSlot(std::string_view reason) {
    // Strategies mostly return their declared words themselves: the same
    // address (of a live declared word) is the same word, without comparing
    // text. Declared words keep their slots: undeclared ones go after them.
    for (std::size_t i = 0; i < declared_.size(); ++i)
      if (declared_[i].data() == reason.data() && declared_[i].size() == reason.size()) return i;
    return TextReasonSlot(reason);
  }
  std::size_t TextReasonSlot(std::string_view reason);  // ReasonSlot's slow path
  // The tally of `i`, made if needed.
  InstanceTally& Tally(InstanceIndex i) {
    if (i < instances_.size()) return instances_[i];  // the common case, without a call
    return GrowTally(i);
  }
  InstanceTally& GrowTally(InstanceIndex i);  // Tally's slow path
  // The pick count of Instance `i` for reason slot `reason`, made if needed.
  std::uint64_t& Picks(InstanceIndex i, std::size_t reason) {
    const std::size_t at = std::size_t{i} * reasons_.size() + reason;
    if (at < picks_.size()) return picks_[at];  // the common case, without a call
    return GrowPicks(i, reason);
  }
  std::uint64_t& GrowPicks(InstanceIndex i, std::size_t reason);  // Picks' slow path
  // The state of `i`, made if needed.
  CandidateState& State(InstanceIndex i) {
    if (i < states_.size()) return states_[i];  // the common case, without a call
    return GrowState(i);
  }
  CandidateState& GrowState(InstanceIndex i);  // State's slow path
  // Adds the open intervals of candidate `i` to its tally and restarts them.
  void CloseIntervals(InstanceIndex i);
  void CloseRun(std::uint64_t seq) {
    ClosePair(seq);
    if (current_.length == 0) return;
    if (current_.length > longest_.length) longest_ = current_;
    if (Herds(current_)) CountLongRun(current_);
    current_ = Run{};
  }
  // Counts `run`, which Herds: out of line, as it is rare.
  void CountLongRun(const Run& run);
  // A decision with candidates, for `choice`'s reason: returns its slot.
  std::size_t CountDecision(const Choice& choice) {
    ++decisions_;
    ++candidate_decisions_;
    const std::size_t reason = ReasonSlot(choice.reason);
    ++reason_counts_[reason];
    if (choice.passed_over_unknown) ++unknown_excluded_;
    return reason;
  }
  // The pick of `chosen` among `candidates` candidates for reason slot
  // `reason`: its tallies (`unknown_while_others_known`: it had no load
  // while another candidate had one) and the current run of picks.
  void CountPick(std::uint64_t seq, InstanceIndex chosen, std::size_t reason,
                 bool unknown_while_others_known, std::size_t candidates) {
    ++Picks(chosen, reason);
    if (unknown_while_others_known) ++Tally(chosen).chosen_while_unknown;
    ExtendRun(seq, chosen, candidates);
  }
  // Adds the pick of `chosen` (decision `seq`, among `candidates`) to the
  // current run, first closing it (as CloseRun) when it is of another
  // Instance. Whether the pick repeats the last one is a coin toss for
  // most strategies, so this selects rather than branches on it.
  void ExtendRun(std::uint64_t seq, InstanceIndex chosen, std::size_t candidates) {
    const std::uint64_t length = current_.length;
    const std::size_t most = current_.max_candidates;
    const InstanceIndex previous = current_.instance;
    const bool restart = (length == 0) | (previous != chosen);
    if (restart & (length > longest_.length)) longest_ = current_;  // rarely taken
    if (restart & Herds(current_)) CountLongRun(current_);            // rarely taken
    const std::uint64_t keep = std::uint64_t{restart} - 1;  // all ones unless restarting
    current_.instance = chosen;
    current_.first_seq = (current_.first_seq & keep) | (seq & ~keep);
    current_.length = (length & keep) + 1;
    const std::size_t kept_most = most & keep;
    current_.max_candidates = candidates > kept_most ? candidates : kept_most;
    ExtendPair(seq, chosen, previous, length > 0, restart, candidates);
    last_candidates_ = candidates;
  }
  // Adds the pick of `chosen` to the current stretch of picks confined to
  // two Instances (pair_a_, pair_b_), which always holds the previous pick
  // `previous` (when `had_previous`); a third Instance closes it and starts
  // the next with the previous and this pick. Most picks of a balancing
  // strategy close a stretch of two, so that path is the short one.
  void ExtendPair(std::uint64_t seq, InstanceIndex chosen, InstanceIndex previous,
                  bool had_previous, bool switched, std::size_t candidates) {
    if ((chosen == pair_a_) | (chosen == pair_b_)) {
      ++pair_length_;
      pair_switches_ += switched;
      return;
    }
    if (pair_length_ > 2 * candidates) [[unlikely]] CountAlternation(seq, candidates);
    pair_a_ = had_previous ? previous : kNoInstance;
    pair_b_ = chosen;
    pair_length_ = 1 + had_previous;
    pair_switches_ = had_previous;
  }
  // Counts the current pair stretch, which ended before decision `seq`
  // among `candidates` candidates, when it is one to count: longer than
  // twice the candidates (at least four: two Instances are at most half of
  // them), switching at least once every four picks on average. Out of
  // line: it is rare.
  void CountAlternation(std::uint64_t seq, std::size_t candidates);
  // Ends the current pair stretch before decision `seq` (no Instance was
  // chosen, or the run is over).
  void ClosePair(std::uint64_t seq) {
    if (pair_length_ > 2 * last_candidates_) CountAlternation(seq, last_candidates_);
    pair_a_ = pair_b_ = kNoInstance;
    pair_length_ = pair_switches_ = 0;
  }
  // RecordDecision when `hint` has queue values, which may give candidates
  // without a signal of their own a load. Out of line: most decisions have
  // no queue hints.
  void RecordHintedDecision(std::uint64_t seq, std::span<const Candidate> candidates,
                            const Hint& hint, const Choice& choice);
  // Adds to hinted_ the candidates without a signal of their own that a
  // numeric queue hint of `hint` gives a load for this decision.
  void CollectHinted(const Hint& hint);

  std::vector<std::string_view> declared_;  // the words given to the constructor
  std::vector<std::string> reasons_;
  std::vector<std::uint64_t> reason_counts_;
  std::vector<InstanceTally> instances_;
  // Picks by Instance, then reason slot: picks_[i * reasons_.size() + r].
  // One flat row per Instance, so a pick touches one place (the tallies'
  // selections and by_reason are filled from it at Finish).
  std::vector<std::uint64_t> picks_;
  std::uint64_t decisions_ = 0;
  std::uint64_t unknown_excluded_ = 0;
  std::uint64_t never_completed_ = 0;
  ProxyChoiceCheck proxy_choices_;
  Run current_, longest_;
  std::uint64_t herded_ = 0;
  std::map<LongRunKey, Stretches> long_runs_;
  // The stretch of picks confined to two Instances; kNoInstance: none yet.
  static constexpr InstanceIndex kNoInstance = ~InstanceIndex{0};
  InstanceIndex pair_a_ = kNoInstance, pair_b_ = kNoInstance;
  std::uint64_t pair_length_ = 0;
  std::uint64_t pair_switches_ = 0;  // picks in it unlike the pick before
  std::size_t last_candidates_ = 0;  // of the last decision that chose
  std::map<AlternationKey, Stretches> alternations_;
  std::uint64_t requested_blocks_ = 0;
  std::uint64_t matched_blocks_ = 0;
  std::vector<std::uint64_t> cached_blocks_;
  std::vector<CandidateState> states_;  // by InstanceIndex
  std::uint64_t candidate_decisions_ = 0;  // decisions with candidates
  std::uint64_t contested_decisions_ = 0;  // ... in which a candidate had a load signal
  std::size_t signalled_candidates_ = 0;   // candidates with a signal of their own
  std::vector<InstanceIndex> hinted_;      // reused per decision
};

}  // namespace lbsim
