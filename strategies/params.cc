#include "strategies/params.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/errors.h"

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

// Shortest text that reads back as `x`.
std::string NumberText(double x) { return fmt::format("{}", x); }

void Assign(std::string_view strategy, const ParamSpec& spec,
            std::string_view text, ParamValues::Value& value) {
  switch (spec.kind) {
    case ParamKind::kNumber:
    case ParamKind::kInteger: {
      double x = 0;
      bool ok = ParseNumber(text, x) && x >= spec.min;
      if (ok && spec.kind == ParamKind::kInteger) ok = std::floor(x) == x;
      if (!ok)
        throw UsageError(fmt::format(
            "strategy {}: parameter {}: expected {} >= {}, got '{}'", strategy,
            spec.name,
            spec.kind == ParamKind::kInteger ? "an integer" : "a finite number",
            NumberText(spec.min), text));
      value.number = x;
      value.text = NumberText(x);
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
    Value v{spec.name, spec.kind, 0.0, {}};
    Assign(strategy, spec, spec.default_text, v);
    pv.values_.push_back(std::move(v));
  }
  for (const auto& [key, text] : overrides) {
    std::size_t i = 0;
    while (i < specs.size() && specs[i].name != key) ++i;
    if (i == specs.size())
      throw UsageError(fmt::format("strategy {}: unknown parameter '{}'; {}",
                                   strategy, key, DeclaredNames(specs)));
    Assign(strategy, specs[i], text, pv.values_[i]);
    Value defaults = pv.values_[i];
    Assign(strategy, specs[i], specs[i].default_text, defaults);
    pv.values_[i].is_default = defaults.text == pv.values_[i].text;
  }
  return pv;
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
