#include <doctest/doctest.h>

#include "traces/importers/field_text.h"

namespace lbsim {

TEST_CASE("ParseCount takes whole non-negative integers up to 2^53") {
  CHECK(ParseCount("0") == 0u);
  CHECK(ParseCount(" 42 ") == 42u);
  CHECK(ParseCount("9007199254740992") == 9007199254740992u);
  CHECK_FALSE(ParseCount("9007199254740993"));
  CHECK_FALSE(ParseCount("-1"));
  CHECK_FALSE(ParseCount("+1"));
  CHECK_FALSE(ParseCount("1.0"));
  CHECK_FALSE(ParseCount("12a"));
  CHECK_FALSE(ParseCount(""));
  CHECK_FALSE(ParseCount("  "));
}

TEST_CASE("ParseSecondsAsMs moves the decimal point instead of multiplying") {
  CHECK(ParseSecondsAsMs("5") == 5000.0);
  CHECK(ParseSecondsAsMs("130.25") == 130250.0);
  CHECK(ParseSecondsAsMs(".5") == 500.0);
  CHECK(ParseSecondsAsMs("7.") == 7000.0);
  // 1.2345 * 1000 in doubles is 1234.4999999999998; the text gives 1234.5.
  CHECK(ParseSecondsAsMs("1.2345") == 1234.5);
  CHECK(ParseSecondsAsMs("0.0000001") == 0.0001);
  CHECK_FALSE(ParseSecondsAsMs("."));
  CHECK_FALSE(ParseSecondsAsMs("-1"));
  CHECK_FALSE(ParseSecondsAsMs("1e3"));
  CHECK_FALSE(ParseSecondsAsMs("1.2.3"));
  CHECK_FALSE(ParseSecondsAsMs(""));
}

TEST_CASE("ParseDateTimeNs reads Azure timestamps to the nanosecond") {
  CHECK(ParseDateTimeNs("1970-01-01 00:00:00") == 0);
  CHECK(ParseDateTimeNs("1970-01-02 00:00:01.5") == 86401'500'000'000);
  // 2023-11-16 is day 19677 since 1970-01-01.
  CHECK(ParseDateTimeNs("2023-11-16 18:15:46.6805900") ==
        (19677LL * 86400 + 18 * 3600 + 15 * 60 + 46) * 1'000'000'000 + 680'590'000);
  CHECK(ParseDateTimeNs("2023-11-16T18:15:46.6805900") ==
        ParseDateTimeNs("2023-11-16 18:15:46.6805900"));
  CHECK(ParseDateTimeNs("2024-02-29 00:00:00.000000001") ==
        *ParseDateTimeNs("2024-02-29 00:00:00") + 1);
  CHECK(ParseDateTimeNs("1969-12-31 23:59:59") == -1'000'000'000);
  CHECK_FALSE(ParseDateTimeNs("2023-02-29 00:00:00"));  // not a leap year
  CHECK_FALSE(ParseDateTimeNs("2023-11-16 24:00:00"));
  CHECK_FALSE(ParseDateTimeNs("2023-11-16 18:15"));
  CHECK_FALSE(ParseDateTimeNs("2023-11-16 18:15:46."));
  CHECK_FALSE(ParseDateTimeNs("2023-11-16 18:15:46.1234567890"));
  CHECK_FALSE(ParseDateTimeNs("2023-11-16 18:15:46+00:00"));
  CHECK_FALSE(ParseDateTimeNs("2023/11/16 18:15:46"));
  CHECK_FALSE(ParseDateTimeNs("2300-01-01 00:00:00"));
}

TEST_CASE("TrimBlanks drops surrounding spaces and tabs only") {
  CHECK(TrimBlanks(" \ta b\t ") == "a b");
  CHECK(TrimBlanks("") == "");
}

}  // namespace lbsim
