#pragma once

#include <array>
#include <optional>
#include <span>

#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/params.h"
#include "strategies/summation.h"

namespace lbsim {

// Weights of the load score's components. A weight of 0 switches its
// component off entirely (it neither adds nor makes the score known).
struct LoadWeights {
  double inflight = 1.0;
  std::array<double, kQueueFields.size()> queue = {0.25, 1.0, 1.0, 0.25,
                                                   0.25, 1.0, 0.5, 0.001};
  double qps_1m = 0.01;
  // How the weighted terms are added up (the spec: left to right).
  Summation summation = Summation::kLeftToRight;

  // Reads the weights from resolved least_load-style parameters (one
  // parameter per component, named as the component); the spec's summation.
  static LoadWeights FromParams(const ParamValues& params);
};

// Parameter declarations for every score component with its default weight,
// in score order: inflight, the queue keys, qps_1m.
std::span<const ParamSpec> LoadWeightParams();

// The load score of `c`: value * weight for each component in the fixed
// order (inflight, queue keys from `queue`, else from c.queue, qps_1m), in
// IEEE double arithmetic, added up by w.summation. std::nullopt when no
// component contributed: unknown is never 0.
inline std::optional<double> LoadScore(const Candidate& c, const QueueLoad* queue,
                                       const LoadWeights& w) {
  if (!queue) queue = c.queue;
  TermSum total(w.summation);
  bool known = false;
  if (c.inflight && w.inflight != 0.0) {
    total.Add(static_cast<double>(*c.inflight) * w.inflight);
    known = true;
  }
  if (queue) {
    for (std::size_t i = 0; i < kQueueFields.size(); ++i) {
      if (queue->known[i] && w.queue[i] != 0.0) {
        total.Add(queue->value[i] * w.queue[i]);
        known = true;
      }
    }
  }
  if (c.qps_1m && w.qps_1m != 0.0) {
    total.Add(*c.qps_1m * w.qps_1m);
    known = true;
  }
  if (!known) return std::nullopt;
  return total.Total();
}

}  // namespace lbsim
