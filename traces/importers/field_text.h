#pragma once

// Parsers for the text fields of CSV traces. Each takes the whole field
// (surrounding spaces allowed) and returns std::nullopt when it is not
// exactly what is expected.

#include <cstdint>
#include <optional>
#include <string_view>

namespace lbsim {

// `text` without leading and trailing spaces and tabs.
std::string_view TrimBlanks(std::string_view text);

// A non-negative decimal integer ("42"), at most 2^53.
std::optional<std::uint64_t> ParseCount(std::string_view text);

// A non-negative decimal number of seconds ("12", "12.5", ".5") converted
// to milliseconds by moving the decimal point, so "1.001" gives exactly the
// double nearest 1001 ms.
std::optional<double> ParseSecondsAsMs(std::string_view text);

// A date-time "YYYY-MM-DD HH:MM:SS[.FRACTION]" (or with 'T' between date
// and time; FRACTION of 1 to 9 digits; no time zone; years 1900 to 2200)
// as nanoseconds since 1970-01-01 00:00:00 of the same clock.
std::optional<std::int64_t> ParseDateTimeNs(std::string_view text);

}  // namespace lbsim
