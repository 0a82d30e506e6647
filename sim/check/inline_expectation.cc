#include "sim/check/inline_expectation.h"

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"

namespace lbsim {
namespace {

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

Expectation ParseInlineExpectation(std::string_view text) {
  auto fail = [&](std::string_view what) -> Expectation {
    throw UsageError(fmt::format(
        "--expect '{}': {}; expected 'PATH OP VALUE', e.g. 'least_load.fairness.jain >= 0.9' "
        "(OP one of <, <=, >, >=, ==; PATH as in a check scenario)",
        text, what));
  };
  const std::size_t at = text.find_first_of("<>=!");
  if (at == std::string_view::npos) return fail("no comparison");
  std::string_view op = text.substr(at, 1);
  if (at + 1 < text.size() && text[at + 1] == '=') op = text.substr(at, 2);
  if (op == "=" || op == "!" || op == "!=")
    return fail(fmt::format("no operator '{}'", op));
  const std::string_view path = Trimmed(text.substr(0, at));
  const std::string_view value = Trimmed(text.substr(at + op.size()));
  if (path.empty()) return fail("no report path before the comparison");
  if (path.find_first_of(" \t") != std::string_view::npos)
    return fail(fmt::format("the path '{}' holds a space", path));
  if (value.empty()) return fail("no value after the comparison");

  Expectation x;
  x.key = fmt::format("--expect '{}'", text);
  x.kind = ExpectationKind::kValue;
  x.path = std::string(path);
  double number = 0.0;
  const bool is_number = ParseFiniteNumber(value, number);
  const ScenarioNumber bound{number, std::string(value)};
  if (op == "==") {
    if (is_number) {
      x.eq = ScenarioScalar{number, std::string(value)};
      return x;
    }
    const nlohmann::json scalar = nlohmann::json::parse(value, nullptr, false);
    if (scalar.is_string()) x.eq = ScenarioScalar{scalar.get<std::string>(), std::string(value)};
    else if (scalar.is_boolean()) x.eq = ScenarioScalar{scalar.get<bool>(), std::string(value)};
    else if (scalar.is_null()) x.eq = ScenarioScalar{nullptr, std::string(value)};
    else
      return fail(fmt::format("'{}' is not a number, a JSON string (in double quotes), true, "
                              "false or null",
                              value));
    return x;
  }
  if (!is_number) return fail(fmt::format("'{}' is not a finite number", value));
  if (op == "<") x.below = bound;
  else if (op == "<=") x.max = bound;
  else if (op == ">") x.above = bound;
  else x.min = bound;
  return x;
}

}  // namespace lbsim
