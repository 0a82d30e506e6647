#include "strategies/params.h"

#include "base/did_you_mean.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {
namespace {

std::string DeclaredNames(std::span<const ParamSpec> specs) {
  if (specs.empty()) return "it takes no parameters";
  std::string out = "expected one of:";
  for (const ParamSpec& s : specs) fmt::format_to(std::back_inserter(out), " {}", s.name);
  return out;
}

// Parses a finite decimal number, the whole of `text`.
bool ParseNumber(std::string_view text, double& out) {
  if (text.empty()) return false;
  const char* first = text.data();
  if (*first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() &&
         std::isfinite(out);
}

// The largest integer parameter: every integer up to it is exact in a double.
constexpr double kMaxInteger = 9007199254740992.0;  // 2^53

// Parses a whole decimal integer (optional sign, digits only) of magnitude
// at most kMaxInteger, exactly.
bool ParseInteger(std::string_view text, double& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || first == last) return false;
  const auto limit = static_cast<std::int64_t>(kMaxInteger);
  if (v > limit || v < -limit) return false;
  out = static_cast<double>(v);
  return true;
}

// Shortest text that reads back as `x`.
std::string NumberText(double x) { return fmt::format("{}", x); }

// An integer parameter in plain digits (no exponent).
std::string IntegerText(double x) { return fmt::format("{:.0f}", x); }

// "a finite number >= 0", "an integer >= 1 and <= 1024".
std::string Expected(const ParamSpec& spec) {
  const bool integer = spec.kind == ParamKind::kInteger;
  const double max = spec.max;  // the implicit 2^53 cap of integers is not shown
  std::string text = fmt::format("{} >= {}", integer ? "an integer" : "a finite number",
                                 integer ? IntegerText(spec.min) : NumberText(spec.min));
  if (std::isfinite(max))
    text += fmt::format(" and <= {}", integer ? IntegerText(max) : NumberText(max));
  return text;
}

void Assign(std::string_view strategy, const ParamSpec& spec,
            std::string_view text, ParamValues::Value& value) {
  switch (spec.kind) {
    case ParamKind::kNumber:
    case ParamKind::kInteger: {
      const bool integer = spec.kind == ParamKind::kInteger;
      double x = 0;
      bool ok = (integer ? ParseInteger(text, x) : ParseNumber(text, x)) &&
                x >= spec.min && x <= spec.max;
      if (!ok)
        throw UsageError(fmt::format("strategy {}: parameter {}: expected {}, got '{}'",
                                     strategy, spec.name, Expected(spec), text));
      value.number = x;
      value.text = integer ? IntegerText(x) : NumberText(x);
      return;
    }
    case ParamKind::kText:
      value.text = std::string(text);
      return;
    case ParamKind::kChoice: {
      for (std::string_view c : spec.choices) {
        if (c == text) {
          value.text = std::string(c);
          return;
        }
      }
      std::string allowed;
      for (std::string_view c : spec.choices)
        allowed += (allowed.empty() ? "" : ", ") + std::string(c);
      throw UsageError(fmt::format(
          "strategy {}: parameter {}: expected one of {}, got '{}'", strategy,
          spec.name, allowed, text));
    }
  }
}

}  // namespace

ParamValues ParamValues::Resolve(
    std::string_view strategy, std::span<const ParamSpec> specs,
    std::span<const std::pair<std::string, std::string>> overrides) {
  ParamValues pv;
  for (const ParamSpec& spec : specs) {
    Value v{spec.name, spec.kind, 0.0, {}, true, spec.echo};
    Assign(strategy, spec, spec.default_text, v);
    pv.values_.push_back(std::move(v));
  }
  for (const auto& [key, text] : overrides) {
    std::size_t i = 0;
    while (i < specs.size() && specs[i].name != key) ++i;
    if (i == specs.size()) {
      std::vector<std::string> names;
      for (const ParamSpec& s : specs) names.emplace_back(s.name);
      const std::optional<std::string> guess = DidYouMean(key, names);
      throw UsageError(fmt::format("strategy {}: unknown parameter '{}'{}; {}", strategy, key,
                                   guess ? fmt::format(" (did you mean '{}'?)", *guess) : "",
                                   DeclaredNames(specs)));
    }
    Assign(strategy, specs[i], text, pv.values_[i]);
    Value defaults = pv.values_[i];
    Assign(strategy, specs[i], specs[i].default_text, defaults);
    pv.values_[i].is_default = defaults.text == pv.values_[i].text;
  }
  return pv;
}

std::vector<ParamValues::Value> ParamValues::Echoed() const {
  std::vector<Value> out;
  for (const Value& v : values_)
    if (v.echo != ParamEcho::kWhenChanged || !v.is_default) out.push_back(v);
  return out;
}

const ParamValues::Value& ParamValues::Get(std::string_view name) const {
  for (const Value& v : values_)
    if (v.name == name) return v;
  throw std::logic_error(fmt::format("undeclared strategy parameter {}", name));
}

double ParamValues::Number(std::string_view name) const {
  return Get(name).number;
}

std::string_view ParamValues::Text(std::string_view name) const {
  return Get(name).text;
}

std::pair<std::string, std::string> SplitAssignment(std::string_view text,
                                                    std::string_view context) {
  std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw UsageError(fmt::format("{}: expected KEY=VALUE, got '{}'", context, text));
  return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

}  // namespace lbsim
