#include "strategies/seeded_random.h"

namespace lbsim {

ParamSpec SeedParam() {
  return {.name = "seed",
          .kind = ParamKind::kInteger,
          .default_text = "1",
          .description = "seed of the random generator (std::mt19937_64); --seed sets it for the run",
          .max = 9007199254740992.0,  // 2^53: every seed up to it is exact in a double
          .echo = ParamEcho::kAlways};
}

std::size_t SeededRandom::Index(std::size_t n) {
  const std::uint64_t range = n;
  // 2^64 mod n: draws below it would make the low residues more likely.
  const std::uint64_t uneven = (0 - range) % range;
  std::uint64_t x = engine_();
  while (x < uneven) x = engine_();
  return static_cast<std::size_t>(x % range);
}

}  // namespace lbsim
