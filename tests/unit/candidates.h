#pragma once

// Test helpers: candidate lists and hints built in code, for driving
// strategies and the load score directly.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "strategies/candidate.h"
#include "strategies/hint.h"

namespace lbsim::testing {

// One candidate per entry of `inflight`, in order: candidate k is Instance
// index k with id "c<k>" and no qps_1m (up to 16 candidates).
std::vector<Candidate> Candidates(std::initializer_list<std::optional<std::int64_t>> inflight);

// Queue values by key name (names from kQueueFields); the rest unknown.
QueueLoad Queue(std::initializer_list<std::pair<std::string_view, double>> values);

}  // namespace lbsim::testing
