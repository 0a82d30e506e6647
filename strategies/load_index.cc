#include "strategies/load_index.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/bit_count.h"
#include "base/load_word.h"

namespace lbsim {
namespace {

// Two doubles, compared and selected lane by lane (SSE2 on x86-64; the
// compiler lowers it to scalar code elsewhere).
using DoublePair = double __attribute__((vector_size(16)));

DoublePair LoadPair(const double* at) {
  DoublePair pair;
  std::memcpy(&pair, at, sizeof pair);
  return pair;
}

// The least number in `scores`, whose size is a multiple of four (NaNs
// are skipped; +inf when there is none). Two running minimums, so
// consecutive pairs do not wait on each other.
double LeastOf(std::span<const double> scores) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  DoublePair low = {kInf, kInf};
  DoublePair high = low;
  for (std::size_t i = 0; i < scores.size(); i += 4) {
    const DoublePair a = LoadPair(&scores[i]);
    const DoublePair b = LoadPair(&scores[i + 2]);
    low = a < low ? a : low;
    high = b < high ? b : high;
  }
  low = high < low ? high : low;  // neither holds a NaN
  return low[0] < low[1] ? low[0] : low[1];
}

// Bit k set when scores[k] == value; scores has at most 64 entries, a
// multiple of four.
std::uint64_t SlotsEqualTo(std::span<const double> scores, double value) {
  std::uint64_t slots = 0;
#if defined(__SSE2__)
  // Four compares' lane masks packed into one register, whose four sign
  // bits one movmskps collects.
  const __m128d wanted = _mm_set1_pd(value);
  for (std::size_t i = 0; i < scores.size(); i += 4) {
    const __m128i a = _mm_castpd_si128(_mm_cmpeq_pd(_mm_loadu_pd(&scores[i]), wanted));
    const __m128i b = _mm_castpd_si128(_mm_cmpeq_pd(_mm_loadu_pd(&scores[i + 2]), wanted));
    const auto four = static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_packs_epi32(a, b))));
    slots |= std::uint64_t{four} << i;
  }
#else
  for (std::size_t i = 0; i < scores.size(); ++i) slots |= std::uint64_t{scores[i] == value} << i;
#endif
  return slots;
}

// LeastOf(scores) and SlotsEqualTo(scores, that) for exactly kScanBlock
// scores, the common pool size: unrolled, each pair loaded once, where the
// loops cost twice the instructions.
[[gnu::always_inline]] inline void LowestOfBlock(const double* scores, double& lowest,
                                                  std::uint64_t& ties) {
  static_assert(LoadIndex::kScanBlock == 16);
#if defined(__SSE2__)
  __m128d pair[8];
  for (int i = 0; i < 8; ++i) pair[i] = _mm_loadu_pd(scores + 2 * i);
  // min(x, inf) is inf for a NaN x (minpd returns its second operand when
  // either is NaN), so the tree below sees no NaN and skips unknowns.
  const __m128d inf = _mm_set1_pd(std::numeric_limits<double>::infinity());
  __m128d low[8];
  for (int i = 0; i < 8; ++i) low[i] = _mm_min_pd(pair[i], inf);
  for (int i = 0; i < 4; ++i) low[i] = _mm_min_pd(low[i], low[i + 4]);
  low[0] = _mm_min_pd(low[0], low[2]);
  low[1] = _mm_min_pd(low[1], low[3]);
  low[0] = _mm_min_pd(low[0], low[1]);
  low[0] = _mm_min_sd(low[0], _mm_unpackhi_pd(low[0], low[0]));
  lowest = _mm_cvtsd_f64(low[0]);
  const __m128d wanted = _mm_set1_pd(lowest);
  std::uint64_t slots = 0;
  for (int i = 0; i < 4; ++i) {
    const __m128i a = _mm_castpd_si128(_mm_cmpeq_pd(pair[2 * i], wanted));
    const __m128i b = _mm_castpd_si128(_mm_cmpeq_pd(pair[2 * i + 1], wanted));
    slots |= std::uint64_t{static_cast<unsigned>(
                 _mm_movemask_ps(_mm_castsi128_ps(_mm_packs_epi32(a, b))))}
             << (4 * i);
  }
  ties = slots;
#else
  const std::span<const double> all(scores, LoadIndex::kScanBlock);
  lowest = LeastOf(all);
  ties = SlotsEqualTo(all, lowest);
#endif
}

}  // namespace

LoadIndex::LoadIndex(const LoadWeights& weights, UnknownLoad unknown)
    : weights_(weights), unknown_(unknown) {
  for (std::size_t i = 0; i < kQueueFields.size(); ++i)
    if (weights.queue[i] != 0.0) weighted_keys_ |= std::uint64_t{1} << (8 * i);
  nonnegative_weights_ = weights.inflight >= 0.0;
  for (double w : weights.queue) nonnegative_weights_ = nonnegative_weights_ && w >= 0.0;
}

bool LoadIndex::ScoreWithQueue(const Candidate& c, const QueueLoad& queue, double& score) const {
  // LoadScore's terms in its order; only the queue terms decide whether
  // the hint changes anything (a hint entry without one leaves the score
  // bit-equal).
  static_assert(sizeof(queue.known) == sizeof(std::uint64_t));
  // Byte k: key k is weighted and known here (a known bool is the byte 1).
  std::uint64_t terms = LoadWord(queue.known.data()) & weighted_keys_;
  if (terms == 0) return false;
  TermSum total(weights_.summation);
  if (c.inflight && weights_.inflight != 0.0)
    total.Add(static_cast<double>(*c.inflight) * weights_.inflight);
  for (; terms != 0; terms &= terms - 1) {  // in key order
    const auto k = static_cast<std::size_t>(std::countr_zero(terms)) / 8;
    total.Add(queue.value[k] * weights_.queue[k]);
  }
  if (c.qps_1m && weights_.qps_1m != 0.0) total.Add(*c.qps_1m * weights_.qps_1m);
  score = total.Total();
  return true;
}

void LoadIndex::Add(std::uint32_t slot) {
  SlotScore& b = scores_[slot];
  if (scan_)
    scan_value_[slot] = b.kind == BaseScore::Kind::kKnown ? b.value
                                                          : std::numeric_limits<double>::quiet_NaN();
  switch (b.kind) {
    case BaseScore::Kind::kUnknown: ++unknown_count_; break;
    case BaseScore::Kind::kNotANumber: ++not_a_number_count_; break;
    case BaseScore::Kind::kKnown:
      if (scan_) break;
      b.group = groups_.try_emplace(b.value).first;
      b.group->second.Insert(slot);
      break;
  }
}

void LoadIndex::Remove(std::uint32_t slot) {
  const SlotScore& b = scores_[slot];
  switch (b.kind) {
    case BaseScore::Kind::kUnknown: --unknown_count_; break;
    case BaseScore::Kind::kNotANumber: --not_a_number_count_; break;
    case BaseScore::Kind::kKnown:
      if (scan_) break;
      b.group->second.Erase(slot);
      if (b.group->second.empty()) groups_.erase(b.group);
      break;
  }
}

void LoadIndex::Reset(std::span<const Candidate> candidates) {
  for (InstanceIndex i : instance_) slot_of_[i] = kNoSlot;
  groups_.clear();
  unknown_count_ = not_a_number_count_ = 0;
  scan_ = candidates.size() <= kScanMax;
  // Padded with NaN (no score) to whole groups of four for the scan, and
  // to one block at least.
  scan_value_.assign(scan_ ? std::max(kScanBlock, (candidates.size() + 3) / 4 * 4) : 0,
                     std::numeric_limits<double>::quiet_NaN());
  scores_.resize(candidates.size());
  instance_.resize(candidates.size());
  seen_.assign(candidates.size(), 0);
  for (std::uint32_t slot = 0; slot < candidates.size(); ++slot) {
    const Candidate& c = candidates[slot];
    instance_[slot] = c.instance;
    if (slot_of_.size() <= c.instance) slot_of_.resize(c.instance + 1, kNoSlot);
    slot_of_[c.instance] = slot;
    const BaseScore base = ScoreOf(c);
    scores_[slot].kind = base.kind;
    scores_[slot].value = base.value;
    SetQpsPart(scores_[slot], c);
    Add(slot);
  }
}

void LoadIndex::Regroup(std::uint32_t slot, BaseScore::Kind kind, double value) {
  Remove(slot);
  // Field by field: a whole-struct copy was read back from the stack as one
  // 16-byte load over narrower stores, which stalls (store forwarding
  // fails) on every update. Add sets the group.
  SlotScore& base = scores_[slot];
  base.kind = kind;
  base.value = value;
  Add(slot);
}

bool LoadIndex::Rescore(std::span<const Candidate> candidates, const Hint& hint) {
  rescored_.clear();
  hinted_bases_.clear();
  rescored_unknown_ = 0;
  ++decision_;
  for (const Hint::Entry& e : hint.queues) {
    if (e.instance >= slot_of_.size() || slot_of_[e.instance] == kNoSlot) continue;
    const std::uint32_t slot = slot_of_[e.instance];
    // Like Hint::QueueFor, the first entry naming an Instance counts.
    if (seen_[slot] == decision_) continue;
    seen_[slot] = decision_;
    double score;
    if (!ScoreWithQueue(candidates[slot], e.load, score)) continue;
    if (std::isnan(score)) return false;
    const bool known = scores_[slot].kind == BaseScore::Kind::kKnown;
    rescored_unknown_ += !known;
    if (scan_) {
      // The scan reads the base scores with these in their places.
      if (rescored_.empty()) scan_hinted_.assign(scan_value_.begin(), scan_value_.end());
      scan_hinted_[slot] = score;
    } else if (known) {
      hinted_bases_.push_back(scores_[slot].value);
    }
    rescored_.push_back({slot, score});
  }
  if (!scan_) std::sort(hinted_bases_.begin(), hinted_bases_.end());
  return true;
}

LoadIndex::Groups::const_iterator LoadIndex::LowestUnhinted() const {
  std::size_t next = 0;  // into hinted_bases_, ascending
  auto it = groups_.begin();
  for (; it != groups_.end(); ++it) {
    std::size_t hinted = 0;
    for (; next < hinted_bases_.size() && hinted_bases_[next] == it->first; ++next) ++hinted;
    if (it->second.size() > hinted) break;
  }
  return it;
}

bool LoadIndex::HighestUnhinted(double& score) const {
  std::size_t left = hinted_bases_.size();  // hinted_bases_[0, left) not yet matched
  for (auto it = groups_.rbegin(); it != groups_.rend(); ++it) {
    std::size_t hinted = 0;
    for (; left > 0 && hinted_bases_[left - 1] == it->first; --left) ++hinted;
    if (it->second.size() > hinted) {
      score = it->first;
      return true;
    }
  }
  return false;
}

bool LoadIndex::FindLowestRescored(std::span<const Candidate> candidates, const Hint& hint,
                                   Lowest& out) {
  out = {};
  all_tie_ = false;
  // FindLowestScore's outcome with a NaN depends on where it sits in pool
  // order; the index does not track that.
  if (not_a_number_count_ > 0) return false;
  ties_group_ = nullptr;
  hinted_members_.clear();
  hinted_ties_.clear();
  if (!Rescore(candidates, hint)) return false;

  const std::size_t unknown = unknown_count_ - rescored_unknown_;
  if (scan_) {
    ScanLowest(rescored_.empty() ? std::span<const double>(scan_value_) : scan_hinted_, unknown,
               out);
    return true;
  }

  if (unknown == candidates.size()) return true;  // nothing known: fallback

  const Groups::const_iterator first = LowestUnhinted();
  bool found = first != groups_.end();
  double lowest = found ? first->first : 0.0;
  for (const Rescored& r : rescored_)
    if (!found || r.score < lowest) lowest = r.score, found = true;

  if (unknown > 0 && unknown_ == UnknownLoad::kMax) {
    // Unknown scores count as the highest known one (one is known here: a
    // group or a rescore holds it): when that is also the lowest, every
    // candidate ties.
    if (HighestScore() == lowest) {
      all_tie_ = true;
      out.ties = candidates.size();
      out.score = lowest;
      return true;
    }
  }
  out.passed_over_unknown = unknown > 0 && unknown_ == UnknownLoad::kExclude;
  out.score = lowest;

  std::size_t ties = 0;
  auto it = first != groups_.end() && first->first == lowest ? first : groups_.find(lowest);
  if (it != groups_.end()) {
    ties_group_ = &it->second;
    ties = it->second.size();
    for (const Rescored& r : rescored_) {
      const SlotScore& b = scores_[r.slot];
      if (b.kind == BaseScore::Kind::kKnown && b.value == lowest) hinted_members_.push_back(r.slot);
    }
  }
  for (const Rescored& r : rescored_)
    if (r.score == lowest) hinted_ties_.push_back(r.slot);
  std::sort(hinted_members_.begin(), hinted_members_.end());
  std::sort(hinted_ties_.begin(), hinted_ties_.end());
  out.ties = ties - hinted_members_.size() + hinted_ties_.size();
  return true;
}

bool LoadIndex::LowestUntimed(std::span<const InstanceIndex> timed, double& score) const {
  if (scan_) {
    // Slot k of at most kScanMax: bit k.
    std::uint64_t timed_slots = 0;
    for (InstanceIndex i : timed)
      if (i < slot_of_.size() && slot_of_[i] != kNoSlot) timed_slots |= std::uint64_t{1} << slot_of_[i];
    bool found = false;
    double lowest = std::numeric_limits<double>::infinity();
    for (std::size_t slot = 0; slot < scores_.size(); ++slot) {
      const double v = scan_value_[slot];  // NaN (unknown) compares false
      if (!((timed_slots >> slot) & 1) && v < lowest) lowest = v, found = true;
    }
    score = lowest;
    return found;
  }
  // Usually the lowest group has an Instance with no backlog (an idle one);
  // past a few groups the bound would save little.
  constexpr int kGroupsLooked = 4;
  int looked = 0;
  for (auto it = groups_.begin(); it != groups_.end() && looked < kGroupsLooked; ++it, ++looked) {
    // More members than timed Instances: one at least is untimed.
    if (it->second.size() > timed.size()) {
      score = it->first;
      return true;
    }
    std::size_t timed_here = 0;
    for (InstanceIndex i : timed) {
      if (i >= slot_of_.size() || slot_of_[i] == kNoSlot) continue;
      const SlotScore& s = scores_[slot_of_[i]];
      timed_here += s.kind == BaseScore::Kind::kKnown && s.value == it->first;
    }
    if (it->second.size() > timed_here) {
      score = it->first;
      return true;
    }
  }
  return false;
}

bool LoadIndex::FindLowestTimed(std::span<const Candidate> candidates,
                                const TimedQueueLoads& timed, Lowest& out) {
  if (not_a_number_count_ > 0 || !nonnegative_weights_) return false;
  // HighestScore would need every rescore.
  if (unknown_count_ > 0 && unknown_ == UnknownLoad::kMax) return false;
  const std::span<const InstanceIndex> instances = timed.Instances();
  double bound;
  if (!LowestUntimed(instances, bound)) return false;
  // With terms >= 0 a sum is within n ulps of the exact one (n < 16), and
  // the exact rescore is at least the exact base score: a base score this
  // far above the bound rescores above it under either Summation.
  constexpr double kMargin = 1e-9;
  timed_hint_.queues.clear();
  for (InstanceIndex i : instances) {
    if (i >= slot_of_.size() || slot_of_[i] == kNoSlot) continue;
    const SlotScore& s = scores_[slot_of_[i]];
    const bool above = s.kind == BaseScore::Kind::kKnown && !(s.qps_known && s.qps_value < 0.0) &&
                       s.value * (1.0 - kMargin) > bound;
    if (above) continue;
    Hint::Entry& entry = timed_hint_.queues.emplace_back();
    entry.instance = i;
    timed.LoadNow(i, entry.load);
  }
  return FindLowestRescored(candidates, timed_hint_, out);
}

void LoadIndex::ScanLowest(std::span<const double> scores, std::size_t unknown, Lowest& out) {
  // Unknown scores are NaN here, which no comparison picks (no known score
  // is NaN: FindLowest declined those). Selects rather than branches: the
  // lowest changes unpredictably from one decision to the next. The ties
  // are kept as a bit set (at most kScanMax = 64 slots), which also
  // answers TieAt.
  double lowest;
  std::uint64_t ties;
  if (scores.size() == kScanBlock) {
    LowestOfBlock(scores.data(), lowest, ties);
  } else {
    lowest = LeastOf(scores);
    ties = SlotsEqualTo(scores, lowest);
  }
  scan_ties_ = ties;
  scanned_ = scores;
  out.score = lowest;
  if (ties == 0) return;  // nothing known: fallback
  if (unknown > 0 && unknown_ == UnknownLoad::kMax) {
    // Unknown scores count as the highest known one: when that is also the
    // lowest, every candidate ties.
    if (HighestScore() == lowest) {  // reads scanned_, set above
      all_tie_ = true;
      out.ties = scores_.size();  // the candidates, not the padding
      return;
    }
  }
  out.passed_over_unknown = unknown > 0 && unknown_ == UnknownLoad::kExclude;
  out.ties = CountBits(ties);
}

double LoadIndex::HighestScore() const {
  double highest = -std::numeric_limits<double>::infinity();
  if (scan_) {
    // NaN (unknown) compares false: passed over.
    for (const double score : scanned_) highest = score > highest ? score : highest;
    return highest;
  }
  HighestUnhinted(highest);
  for (const Rescored& r : rescored_) highest = r.score > highest ? r.score : highest;
  return highest;
}

std::size_t LoadIndex::CountUnhintedBelow(std::uint32_t slot) const {
  if (!ties_group_) return 0;
  const auto hinted_below = static_cast<std::size_t>(
      std::lower_bound(hinted_members_.begin(), hinted_members_.end(), slot) -
      hinted_members_.begin());
  return ties_group_->CountBelow(slot) - hinted_below;
}

std::uint32_t LoadIndex::NthUnhinted(std::size_t k) const {
  // Each hinted member at or before the sought one shifts it one further.
  for (std::uint32_t member : hinted_members_) {
    if (ties_group_->CountBelow(member) > k) break;
    ++k;
  }
  return ties_group_->Nth(k);
}

std::size_t LoadIndex::GroupTieAt(std::size_t k) const {
  if (all_tie_) return k;
  // Merge the unhinted ties with the rescored ones, both in slot order.
  for (std::size_t j = 0; j < hinted_ties_.size(); ++j) {
    const std::size_t before = CountUnhintedBelow(hinted_ties_[j]) + j;
    if (before > k) return NthUnhinted(k - j);
    if (before == k) return hinted_ties_[j];
  }
  return NthUnhinted(k - hinted_ties_.size());
}

}  // namespace lbsim
