#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lbsim {

// kText: any text, e.g. the command of an external strategy.
enum class ParamKind { kNumber, kInteger, kChoice, kText };

// One tunable parameter of a strategy, with its default as text.
struct ParamSpec {
  std::string_view name;
  ParamKind kind = ParamKind::kNumber;
  std::string_view default_text;
  std::string_view description;
  std::vector<std::string_view> choices;  // allowed words for kChoice
  double min = 0.0;                       // inclusive lower bound for numbers
  // A kText parameter that takes the whole text after "NAME:" in a strategy
  // spec (colons and commas included) instead of KEY=VALUE pairs, e.g.
  // exec:COMMAND. It is then required (not empty).
  bool tail = false;
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
    bool is_default = true;
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

 private:
  const Value& Get(std::string_view name) const;
  std::vector<Value> values_;
};

// Splits "key=value" at the first '='; throws UsageError when there is none.
std::pair<std::string, std::string> SplitAssignment(std::string_view text,
                                                    std::string_view context);

}  // namespace lbsim
