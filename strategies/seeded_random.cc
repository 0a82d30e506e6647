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
  std::uint64_t x = engine_();
  if (x < range) {
    // Only a draw below n can fall below 2^64 mod n (which is below n):
    // draws there would make the low residues more likely. A division
    // costs tens of cycles, so it is made only then.
    const std::uint64_t uneven = (0 - range) % range;
    while (x < uneven) x = engine_();
  }
  return static_cast<std::size_t>(x % range);
}

}  // namespace lbsim
