#pragma once

#include <cstdint>
#include <vector>

namespace lbsim {

// What share of a strategy's picks each Instance's capacity justifies:
// proportional to its weight, or, under the service model, to its speed,
// whichever is larger (a strategy may follow either). Detectors judge
// concentration and herding against these shares, so that a preference a
// pool's weights or speeds explain is not flagged.
class ExpectedShares {
 public:
  // Parallel vectors by Instance: the decisions each was a candidate in,
  // its weight and its speed (`speeds` empty: the service model is off,
  // speeds justify nothing).
  ExpectedShares(std::vector<std::uint64_t> candidate_decisions, std::vector<double> weights,
                 std::vector<double> speeds);

  // Instance i's share of the whole run: its weight (speed) times the
  // decisions it was a candidate in, over the same summed over every
  // Instance. 0 for an Instance that was never a candidate.
  double OfRun(std::size_t i) const;
  // The share that `members` (one or two Instances, each ever a candidate)
  // would expect among `candidates` candidates: their weight (speed) over
  // theirs plus that of candidates - |members| others of the mean weight
  // (speed) of the other Instances that were ever candidates. 1 when there
  // is no other candidate.
  double AmongCandidates(const std::vector<std::size_t>& members, std::size_t candidates) const;

 private:
  // The same with one capacity measure `x`.
  double RunShare(const std::vector<double>& x, std::size_t i) const;
  double Among(const std::vector<double>& x, const std::vector<std::size_t>& members,
               std::size_t candidates) const;

  // Sums over the Instances that were ever candidates.
  struct Totals {
    double run = 0.0;   // of candidate decisions x capacity
    double plain = 0.0; // of capacity
  };
  Totals Sum(const std::vector<double>& x) const;

  std::vector<std::uint64_t> candidate_decisions_;
  std::vector<double> weights_;
  std::vector<double> speeds_;
  std::size_t ever_candidates_ = 0;
  Totals weight_totals_, speed_totals_;
};

}  // namespace lbsim
