#include "traces/importers/field_text.h"

#include <charconv>
#include <chrono>
#include <string>

namespace lbsim {
namespace {

constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;

bool AllDigits(std::string_view s) {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Reads exactly `n` digits at `pos` as an integer.
std::optional<int> Digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size() || !AllDigits(s.substr(pos, n))) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < n; ++i) value = value * 10 + (s[pos + i] - '0');
  return value;
}

}  // namespace

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::uint64_t> ParseCount(std::string_view text) {
  text = TrimBlanks(text);
  if (text.empty() || !AllDigits(text)) return std::nullopt;
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value > kMaxCount)
    return std::nullopt;
  return value;
}

std::optional<double> ParseSecondsAsMs(std::string_view text) {
  text = TrimBlanks(text);
  std::size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if ((whole.empty() && fraction.empty()) || !AllDigits(whole) || !AllDigits(fraction))
    return std::nullopt;
  // Seconds "W.F" are milliseconds "W" + F[0..3) (zero-padded) "." F[3..).
  std::string ms(whole.empty() ? "0" : whole);
  for (std::size_t i = 0; i < 3; ++i) ms += i < fraction.size() ? fraction[i] : '0';
  if (fraction.size() > 3) {
    ms += '.';
    ms += fraction.substr(3);
  }
  double value = 0.0;
  auto [ptr, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), value);
  if (ec != std::errc() || ptr != ms.data() + ms.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> ParseDateTimeNs(std::string_view text) {
  text = TrimBlanks(text);
  // YYYY-MM-DD?HH:MM:SS is 19 characters.
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' ||
      (text[10] != ' ' && text[10] != 'T') || text[13] != ':' || text[16] != ':')
    return std::nullopt;
  auto year = Digits(text, 0, 4), month = Digits(text, 5, 2), day = Digits(text, 8, 2);
  auto hour = Digits(text, 11, 2), minute = Digits(text, 14, 2), second = Digits(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  // Years outside 1900..2200 would overflow 64-bit nanoseconds.
  if (*year < 1900 || *year > 2200 || *hour > 23 || *minute > 59 || *second > 59) return std::nullopt;
  std::int64_t nanos = 0;
  if (text.size() > 19) {
    std::string_view fraction = text.substr(20);
    if (text[19] != '.' || fraction.empty() || fraction.size() > 9 || !AllDigits(fraction))
      return std::nullopt;
    for (std::size_t i = 0; i < 9; ++i)
      nanos = nanos * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
  }
  using namespace std::chrono;
  year_month_day date{std::chrono::year{*year}, std::chrono::month{static_cast<unsigned>(*month)},
                      std::chrono::day{static_cast<unsigned>(*day)}};
  if (!date.ok()) return std::nullopt;
  std::int64_t days = sys_days{date}.time_since_epoch().count();
  std::int64_t seconds = days * 86400 + *hour * 3600 + *minute * 60 + *second;
  return seconds * 1'000'000'000 + nanos;
}

}  // namespace lbsim
