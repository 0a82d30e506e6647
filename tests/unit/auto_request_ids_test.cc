// Arrivals without a request id are named r1, r2, ... by arrival number.

#include <cstdint>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "sim/replay/auto_request_ids.h"

namespace lbsim {
namespace {

TEST_CASE("auto request ids: r<N> for the N-th arrival, across every carry") {
  AutoRequestIds ids;
  std::uint64_t mismatches = 0;
  for (std::uint64_t n = 1; n <= 1'200'000; ++n)
    if (ids.Next() != fmt::format("r{}", n)) ++mismatches;
  CHECK(mismatches == 0);
  CHECK(ids.Next() == "r1200001");
}

}  // namespace
}  // namespace lbsim
