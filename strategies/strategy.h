#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "strategies/candidate.h"
#include "strategies/hint.h"

namespace lbsim {

// A strategy's pick: an index into the candidates it was given, and the
// reason word the decision log and reports show for it.
struct Choice {
  std::size_t index = 0;
  std::string_view reason;
  // True when a candidate with an unknown load was passed over because
  // another one had a known load (least_load's `unknown_excluded`).
  bool passed_over_unknown = false;
  // True when the strategy failed the decision the way the Proxy's select()
  // raises (reason `refused`; `index` means nothing): the Proxy answers 503,
  // nothing is routed and no counter moves.
  bool refused = false;

  static Choice Refused() { return {0, "refused", false, true}; }
};

// The arrival a decision is made for, beyond its hint.
struct ArrivalInfo {
  std::uint64_t seq = 0;     // 1-based arrival number
  double t = 0.0;            // arrival time, in the trace's unit
  std::string_view request;  // request id
};

class IndexedSelect;
class LoadIndex;
class TimedQueueLoads;

// An Instance-selection strategy. Implementations keep their own state
// (counters) and know nothing of the CLI, JSON or the simulator.
class Strategy {
 public:
  virtual ~Strategy() = default;

  // The canonical registry name, e.g. "least_load".
  virtual std::string_view Name() const = 0;

  // Picks one of `candidates`, which is never empty and is in pool order.
  // The simulator never calls Select when nothing is alive, so a strategy's
  // state is unchanged by `no_instances` decisions.
  virtual Choice Select(std::span<const Candidate> candidates,
                        const Hint& hint) = 0;

  // Called right before each Select with the arrival being decided, for
  // strategies that look beyond candidates and hint (exec forwards it to
  // its program), when WantsArrivalInfo says so.
  virtual void BeforeSelect(const ArrivalInfo&) {}
  // Whether BeforeSelect does anything; asked once, when the run starts.
  virtual bool WantsArrivalInfo() const { return false; }

  // Whether Select reads Hint::raw_json. Serializing every hint costs
  // time, so the trace reader fills it only when a strategy of the run
  // asks.
  virtual bool WantsRawHint() const { return false; }

  // Whether Select reads queue loads (Hint::queues, Candidate::queue). The
  // Proxy queue model builds them at each decision only for a strategy
  // that does.
  virtual bool ReadsQueueLoads() const { return true; }

  // Whether Select reads any of the queue keys the engine model's signals
  // publish (docs/engine.md), with a weight: said in the report when no
  // strategy of a run with --signal-interval does.
  virtual bool ReadsEngineSignals() const { return ReadsQueueLoads(); }

  // The strategy's fast path, if it has one (see IndexedSelect). The
  // simulator asks once, when the run starts.
  virtual IndexedSelect* Indexed() { return nullptr; }
};

// An optional capability for strategies whose Select must look at every
// candidate (least_load's lowest score): the simulator keeps the candidate
// list from one decision to the next and reports each change to it, so the
// strategy can keep an index and decide without a pool-sized scan.
// SelectIndexed must return exactly what Select would return for the list.
class IndexedSelect {
 public:
  virtual ~IndexedSelect() = default;

  // The candidate list is new (the alive set changed).
  virtual void Reset(std::span<const Candidate> candidates) = 0;
  // The load fields of candidates[slot] changed.
  virtual void Update(std::span<const Candidate> candidates, std::size_t slot) = 0;
  // The LoadIndex that Update only forwards to, if any: the simulator then
  // calls its Update directly (inline, without a virtual call per change).
  // Asked once, when the run starts.
  virtual LoadIndex* Loads() { return nullptr; }
  // Decides like Select(candidates, hint), `candidates` being the list as
  // last reset and updated.
  virtual Choice SelectIndexed(std::span<const Candidate> candidates, const Hint& hint) = 0;
  // SelectIndexed with the hint's queues given by `timed` (`hint` lists
  // none); nullopt when it cannot decide that way, and nothing changed:
  // the caller then lists them in the hint and calls SelectIndexed.
  virtual std::optional<Choice> SelectTimed(std::span<const Candidate> candidates,
                                            const Hint& hint, const TimedQueueLoads& timed) {
    (void)candidates, (void)hint, (void)timed;
    return std::nullopt;
  }
};

}  // namespace lbsim
