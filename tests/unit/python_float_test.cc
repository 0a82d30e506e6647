// Python's float() of a string, as the pinned Proxy versions read hint
// values (proxy-versions.md "Hint values"). Every expected value below is
// what CPython 3.11 and 3.12 answer for the same text.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "strategies/python_float.h"

namespace lbsim {
namespace {

std::optional<double> F(std::string_view text, PythonVersion python = PythonVersion::k312) {
  return PythonFloatOfText(text, python);
}

TEST_CASE("python float(): decimal literals, signs and spaces around them") {
  CHECK(F("3") == 3.0);
  CHECK(F(" 2.5 ") == 2.5);
  CHECK(F("\t\n\v\f\r-7\r\n") == -7.0);
  CHECK(F("+.5e-3") == 0.0005);
  CHECK(F(".5") == 0.5);
  CHECK(F("5.") == 5.0);
  CHECK(F("1e3") == 1000.0);
  CHECK(F("1E+3") == 1000.0);
  CHECK(F("007") == 7.0);
  CHECK(F("0.1") == 0.1);
  // Correctly rounded, as Python's dtoa reads them.
  CHECK(F("9007199254740993") == 9007199254740992.0);
  CHECK(F("2.2250738585072011e-308") == 2.2250738585072011e-308);
}

TEST_CASE("python float(): past the double range is infinity, below it zero") {
  CHECK(F("1e400") == std::numeric_limits<double>::infinity());
  CHECK(F("-1e400") == -std::numeric_limits<double>::infinity());
  CHECK(F(std::string(400, '9')) == std::numeric_limits<double>::infinity());
  const std::optional<double> tiny = F("-1e-400");
  REQUIRE(tiny);
  CHECK(*tiny == 0.0);
  CHECK(std::signbit(*tiny));
}

TEST_CASE("python float(): inf, infinity and nan in any case, with a sign") {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  CHECK(F("inf") == kInf);
  CHECK(F("+inF") == kInf);
  CHECK(F("-Infinity") == -kInf);
  CHECK(F(" INFINITY ") == kInf);
  for (std::string_view text : {"nan", "NaN", "-nan", "+NAN"}) {
    CAPTURE(text);
    std::optional<double> x = F(text);
    REQUIRE(x);
    CHECK(std::isnan(*x));
  }
  for (std::string_view text : {"infinit", "infinityy", "in_f", "nan(1)", "na", "--inf", "+-1"}) {
    CAPTURE(text);
    CHECK_FALSE(F(text));
  }
}

TEST_CASE("python float(): an underscore only between two digits") {
  CHECK(F("1_000") == 1000.0);
  CHECK(F("1_0.2_5") == 10.25);
  CHECK(F("1e1_0") == 1e10);
  for (std::string_view text : {"1__0", "_1", "1_", "1_.5", "1._5", "1e+_5", "1_e5", "_"}) {
    CAPTURE(text);
    CHECK_FALSE(F(text));
  }
}

TEST_CASE("python float(): texts that are no number") {
  for (std::string_view text : {"", " ", "abc", ".", "e5", "1e", "1e+", "0x10", "1,5", "1 2",
                                "3 apples", "\x1c" "3", "3\x7f"}) {
    CAPTURE(text);
    CHECK_FALSE(F(text));
  }
  CHECK_FALSE(F(std::string_view("1\0", 2)));  // a NUL inside the text
}

TEST_CASE("python float(): Unicode digits and spaces read as ASCII ones") {
  CHECK(F("\u0663") == 3.0);                  // ARABIC-INDIC DIGIT THREE
  CHECK(F("\u0661\u0662") == 12.0);
  CHECK(F("\uff13.\uff15") == 3.5);           // fullwidth digits
  CHECK(F("\u00a03\u2000") == 3.0);           // no-break space, en quad
  CHECK(F("\u20034 ") == 4.0);                // em space
  CHECK(F("\u3000-1\u205f") == -1.0);         // ideographic, medium mathematical
  CHECK(F("\U0001D7D9") == 1.0);              // MATHEMATICAL DOUBLE-STRUCK DIGIT ONE
  CHECK(F("\u0663_\u0663") == 33.0);
  CHECK_FALSE(F("\u00b2"));                   // SUPERSCRIPT TWO: a digit, not decimal
  CHECK_FALSE(F("\u2155"));                   // VULGAR FRACTION ONE FIFTH
  CHECK_FALSE(F("3\u200b"));                  // ZERO WIDTH SPACE is no space to Python
  CHECK_FALSE(F("\xff"));                     // not UTF-8
}

TEST_CASE("python float(): the digits Unicode 15 added are digits to 3.12 only") {
  for (std::string_view kawi_or_nag_mundari : {"\U00011F55", "\U0001E4F5"}) {
    CHECK(F(kawi_or_nag_mundari, PythonVersion::k312) == 5.0);
    CHECK_FALSE(F(kawi_or_nag_mundari, PythonVersion::k311));
  }
  CHECK(F("\u0665", PythonVersion::k311) == 5.0);
}

}  // namespace
}  // namespace lbsim
