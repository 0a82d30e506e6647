// SeededRandom: the standard engine, lbsim's own uniform mapping, and the
// `seed` parameter.

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "strategies/seeded_random.h"

namespace lbsim {
namespace {

TEST_CASE("SeededRandom draws std::mt19937_64, whose output the C++ standard fixes") {
  // [rand.predef]: the 10000th consecutive invocation of a default-
  // constructed mt19937_64 (seed 5489) produces 9981545732273789042.
  SeededRandom random(5489);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = random.Next();
  CHECK(x == 9981545732273789042ull);
}

TEST_CASE("Index(n) is the draw mod n, redrawing below 2^64 mod n") {
  // n = 2^63 + 1 makes the uneven remainder 2^63 - 1, so about half the
  // draws are rejected: the mapping is exercised, not just the modulo.
  const std::uint64_t n = (std::uint64_t{1} << 63) + 1;
  const std::uint64_t uneven = (std::uint64_t{1} << 63) - 1;
  SeededRandom random(42);
  std::mt19937_64 reference(42);
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t x = reference();
    while (x < uneven) {
      x = reference();
      ++rejected;
    }
    REQUIRE(random.Index(n) == x % n);
  }
  CHECK(rejected > 300);  // the redraw path ran
}

TEST_CASE("Index(1) is always 0 and Index(n) stays below n") {
  SeededRandom random(7);
  for (int i = 0; i < 100; ++i) CHECK(random.Index(1) == 0);
  for (std::size_t n = 1; n < 50; ++n)
    for (int i = 0; i < 20; ++i) CHECK(random.Index(n) < n);
}

TEST_CASE("the same seed gives the same indices, another seed other ones") {
  SeededRandom a(3), b(3), c(4);
  std::vector<std::size_t> xa, xb, xc;
  for (int i = 0; i < 50; ++i) {
    xa.push_back(a.Index(10));
    xb.push_back(b.Index(10));
    xc.push_back(c.Index(10));
  }
  CHECK(xa == xb);
  CHECK(xa != xc);
}

TEST_CASE("Index(n) is uniform: chi-square of 70000 draws over 7 below 22.46") {
  // 22.46 is the 0.999 quantile of chi-square with 6 degrees of freedom.
  // The draws are seeded, so this is an exact check of one fixed sample.
  SeededRandom random(1);
  std::vector<double> counts(7, 0.0);
  for (int i = 0; i < 70000; ++i) counts[random.Index(7)] += 1.0;
  double chi2 = 0.0;
  for (double c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  CHECK(chi2 < 22.46);
}

TEST_CASE("the seed parameter: integer, default 1, echoed in reports") {
  ParamSpec spec = SeedParam();
  CHECK(spec.name == "seed");
  CHECK(spec.kind == ParamKind::kInteger);
  CHECK(spec.default_text == "1");
  CHECK(spec.echo == ParamEcho::kAlways);
}

}  // namespace
}  // namespace lbsim
