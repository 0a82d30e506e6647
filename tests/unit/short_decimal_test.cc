// WriteShortDecimal writes what nlohmann::json writes for every double it
// takes, and takes most short decimals (trace times such as 12.345).

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/short_decimal.h"

namespace lbsim {
namespace {

// nlohmann::json's text for a finite double.
std::string Nlohmann(double x) {
  char text[64];
  return std::string(text, nlohmann::detail::to_chars(text, text + sizeof text, x));
}

// What WriteShortDecimal writes for `x`, or "-" when it declines.
std::string Short(double x) {
  char text[kShortDecimalBound + 8];
  const char* end = WriteShortDecimal(text, x);
  if (!end) return "-";
  REQUIRE(end - text <= kShortDecimalBound);
  return std::string(static_cast<const char*>(text), end);
}

// Checks `x`: nlohmann's text when it is taken. Returns whether it was.
bool Agrees(double x) {
  const std::string got = Short(x);
  if (got == "-") return false;
  const std::string want = Nlohmann(x);
  if (got != want) FAIL_CHECK(fmt::format("{:a}: wrote {}, nlohmann writes {}", x, got, want));
  return true;
}

// The double strtod reads for `integer`.`fraction` with `digits` fraction digits.
double Decimal(std::uint64_t integer, std::uint64_t fraction, int digits) {
  const std::string text =
      digits == 0 ? fmt::format("{}", integer) : fmt::format("{}.{:0{}}", integer, fraction, digits);
  return std::strtod(text.c_str(), nullptr);
}

TEST_CASE("short decimal: the layouts nlohmann uses, from 0.0001 to 2^20") {
  CHECK(Short(12.5) == "12.5");
  CHECK(Short(3.0) == "3.0");
  CHECK(Short(1000000.0) == "1000000.0");
  CHECK(Short(0.1) == "0.1");
  CHECK(Short(0.001) == "0.001");
  CHECK(Short(0.0001) == "0.0001");
  CHECK(Short(0.000123) == "0.000123");
  CHECK(Short(1234.567891) == "1234.567891");
  CHECK(Short(0.123456789) == "0.123456789");
  CHECK(Short(1048575.999999999) == "1048575.999999999");
  for (double x : {12.5, 3.0, 1000000.0, 0.1, 0.001, 0.0001, 0.000123, 1234.567891,
                   0.123456789, 1048575.999999999})
    CHECK(Agrees(x));
}

TEST_CASE("short decimal: declines what it cannot be sure of") {
  CHECK(Short(0.0) == "-");
  CHECK(Short(-1.5) == "-");
  CHECK(Short(0.00009) == "-");                 // nlohmann writes 9e-05
  CHECK(Short(1048576.5) == "-");               // from 2^20 on
  CHECK(Short(0.5) == "-");                     // a power of two
  CHECK(Short(1.0) == "-");
  CHECK(Short(0.1234567891) == "-");            // ten fraction digits
  CHECK(Short(std::nextafter(0.1, 1.0)) == "-");  // no short decimal at all
  CHECK(Short(NAN) == "-");
  CHECK(Short(INFINITY) == "-");
}

TEST_CASE("short decimal: every time of millisecond precision below 2000 s") {
  std::size_t taken = 0, count = 0;
  for (std::uint64_t ms = 1; ms < 2'000'000; ++ms, ++count)
    taken += Agrees(Decimal(ms / 1000, ms % 1000, 3));
  CHECK(taken >= count - count / 40);  // powers of two and 1 in 64 near a midpoint decline
}

TEST_CASE("short decimal: random decimals of up to 9 fraction digits, and their neighbours") {
  std::mt19937_64 random(20261202);
  std::size_t taken = 0, short_ones = 0;
  for (int i = 0; i < 400'000; ++i) {
    const int digits = static_cast<int>(random() % 10);
    std::uint64_t power = 1;
    for (int d = 0; d < digits; ++d) power *= 10;
    const std::uint64_t integer = random() % (random() % 2 ? 1048576 : 1000);
    const double x = Decimal(integer, random() % power, digits);
    const bool took = Agrees(x);
    if (x >= 1e-4) {
      ++short_ones;
      taken += took;
    }
    // Neighbours a few ulps away have no short decimal: declined, or agreeing.
    double above = x, below = x;
    for (int step = 0; step < 3; ++step) {
      above = std::nextafter(above, INFINITY);
      below = std::nextafter(below, 0.0);
      Agrees(above);
      Agrees(below);
    }
  }
  CHECK(taken >= short_ones - short_ones / 20);
}

TEST_CASE("short decimal: random doubles, and decimals near the midpoint between two") {
  std::mt19937_64 random(7);
  const auto lo = std::bit_cast<std::uint64_t>(1e-4);
  const auto hi = std::bit_cast<std::uint64_t>(1048576.0);
  for (int i = 0; i < 400'000; ++i) Agrees(std::bit_cast<double>(lo + random() % (hi - lo)));
  // Decimals whose nearest double is almost half an ulp away: Grisu2's
  // rounding error decides about these, so each is declined or agrees.
  std::size_t near_midpoint = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const std::uint64_t integer = random() % 1048576;
    const double x = Decimal(integer, random() % 1'000'000'000, 9);
    const double ulp = std::nextafter(x, INFINITY) - x;
    const double off = std::fabs(std::fma(x, 1e9, -std::nearbyint(x * 1e9))) / (ulp * 1e9);
    if (off < 0.49) continue;
    ++near_midpoint;
    Agrees(x);
  }
  CHECK(near_midpoint > 10'000);
}

}  // namespace
}  // namespace lbsim
