#pragma once

#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lbsim {

// kText: any text, e.g. the command of an external strategy.
enum class ParamKind { kNumber, kInteger, kChoice, kText };

// Where reports show a parameter's value.
enum class ParamEcho {
  kStandard,     // the JSON report always; the table when it is not the default
  kAlways,       // both, always (a seed: a run cannot be reproduced without it)
  kWhenChanged,  // both, only when it is not the default: a parameter added
                 // after reports existed, so default runs report as before
};

// One tunable parameter of a strategy, with its default as text.
struct ParamSpec {
  std::string_view name{};
  ParamKind kind = ParamKind::kNumber;
  std::string_view default_text{};
  std::string_view description{};
  std::vector<std::string_view> choices{};  // allowed words for kChoice
  double min = 0.0;                       // inclusive lower bound for numbers
  // A kText parameter that takes the whole text after "NAME:" in a strategy
  // spec (colons and commas included) instead of KEY=VALUE pairs, e.g.
  // exec:COMMAND. It is then required (not empty).
  bool tail = false;
  // Inclusive upper bound for numbers; integers are also capped at 2^53 so
  // that they stay exact (error messages state only an explicit bound).
  double max = std::numeric_limits<double>::infinity();
  ParamEcho echo = ParamEcho::kStandard;
};

// The values in force for one strategy run: every declared parameter, in
// declaration order, defaults filled in.
class ParamValues {
 public:
  struct Value {
    std::string_view name;
    ParamKind kind;
    double number = 0.0;  // kNumber and kInteger
    std::string text;     // canonical text, also for numbers
    bool is_default = true;  // holds the declared default
    ParamEcho echo = ParamEcho::kStandard;
  };

  // Defaults for `specs`, then each "key=value" of `overrides` in order.
  // Throws UsageError naming `strategy`, the key and what was expected.
  static ParamValues Resolve(
      std::string_view strategy, std::span<const ParamSpec> specs,
      std::span<const std::pair<std::string, std::string>> overrides);

  // The number for a declared kNumber/kInteger parameter.
  double Number(std::string_view name) const;
  // The word for a declared kChoice parameter, the text of a kText one.
  std::string_view Text(std::string_view name) const;

  const std::vector<Value>& All() const { return values_; }
  // The values reports show: All() minus kWhenChanged ones at their default.
  std::vector<Value> Echoed() const;

 private:
  const Value& Get(std::string_view name) const;
  std::vector<Value> values_;
};

// Splits "key=value" at the first '='; throws UsageError when there is none.
std::pair<std::string, std::string> SplitAssignment(std::string_view text,
                                                    std::string_view context);

}  // namespace lbsim
