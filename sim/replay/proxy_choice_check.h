#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strategies/candidate.h"
#include "strategies/hint.h"

namespace lbsim {

// One candidate of a decision that differs from the recorded Proxy's, as
// the strategy saw it.
struct SeenCandidate {
  std::string id;
  std::optional<std::int64_t> inflight;
  std::optional<double> qps_1m;
  // The hint's known queue values for it, in kQueueFields order.
  std::vector<std::pair<std::string_view, double>> queue;
};

// The first decision of a run that differs from the recorded Proxy's.
struct ChoiceDifference {
  std::uint64_t seq = 0;  // 1-based arrival number
  double t = 0.0;
  std::string request;
  std::optional<std::string> proxy;   // what the Proxy chose; null: none
  std::optional<std::string> chosen;  // what the run chose; null: none
  std::string reason;                 // the run's reason word
  std::vector<SeenCandidate> candidates;
};

// Compares a strategy run's decisions with the choices a recorded Proxy
// made (the arrivals' `proxy_choice`, docs/record-proxy.md): how many were
// compared, how many are equal, and the first that differs with what the
// strategy saw then.
class ProxyChoiceCheck {
 public:
  using SeenCandidate = lbsim::SeenCandidate;
  using Difference = ChoiceDifference;

  // Records one decision of an arrival that carries a recorded choice:
  // `recorded` the Proxy's (null: none), `chosen` the run's (null: none).
  void Record(std::optional<std::string_view> recorded, std::optional<std::string_view> chosen,
              std::uint64_t seq, double t, std::string_view request, std::string_view reason,
              std::span<const Candidate> candidates, const Hint& hint);

  std::uint64_t compared() const { return compared_; }
  std::uint64_t equal() const { return equal_; }
  const std::optional<Difference>& first_difference() const { return first_difference_; }

 private:
  std::uint64_t compared_ = 0;
  std::uint64_t equal_ = 0;
  std::optional<Difference> first_difference_;
};

}  // namespace lbsim
