#include "cli/option_checks.h"

#include <charconv>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/number_text.h"
#include "sim/replay/what_if_keys.h"
#include "sim/replay/what_if_ranges.h"

namespace lbsim {

CLI::Validator NonNegative(bool zero_ok) {
  return CLI::Validator(
      [zero_ok](std::string& text) -> std::string {
        double x = 0;
        if (ParseFiniteNumber(text, x) && (x > 0 || (zero_ok && x == 0))) return {};
        return fmt::format("expected a number {} 0, got {}", zero_ok ? ">=" : ">", text);
      },
      "");
}

namespace {

// Accepts an integer written in decimal digits from `min` to `max`;
// otherwise says "expected EXPECTED, got TEXT".
CLI::Validator DecimalIn(std::uint64_t min, std::uint64_t max, std::string expected) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::uint64_t x = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && x >= min &&
            x <= max)
          return {};
        return fmt::format("expected {}, got {}", expected, text);
      },
      "");
}

}  // namespace

CLI::Validator IntegerFrom(std::uint64_t min, std::uint64_t max, std::string max_text) {
  if (max_text.empty()) max_text = fmt::format("{}", max);
  return DecimalIn(min, max, fmt::format("an integer from {} to {}", min, max_text));
}

CLI::Validator IntegerIn(const WhatIfRange& range) {
  return DecimalIn(range.min, range.max, ExpectedInteger(range));
}

CLI::Validator Offers(const std::vector<std::string>& values) {
  std::string set;
  for (const std::string& v : values) set += (set.empty() ? "" : ",") + v;
  return CLI::Validator([](std::string&) { return std::string(); }, "{" + set + "}");
}

CLI::Validator TimeIn(const WhatIfKey& key) {
  return CLI::Validator(
      [&key](std::string& text) -> std::string {
        double x = 0;
        if (ParseFiniteNumber(text, x) && Accepts(key, x)) return {};
        return fmt::format("expected {}, got {}", ExpectedValue(key), text);
      },
      "");
}

}  // namespace lbsim
