#include "strategies/unknown_load.h"

namespace lbsim {

ParamSpec UnknownLoadParam() {
  return {.name = "unknown",
          .kind = ParamKind::kChoice,
          .default_text = "exclude",
          .description = "an unknown load score: exclude (never picked while one is "
                         "known), zero (counts as 0), max (counts as the highest known score)",
          .choices = {"exclude", "zero", "max"},
          .echo = ParamEcho::kWhenChanged};
}

UnknownLoad UnknownLoadFromParams(const ParamValues& params) {
  std::string_view word = params.Text("unknown");
  if (word == "zero") return UnknownLoad::kZero;
  if (word == "max") return UnknownLoad::kMax;
  return UnknownLoad::kExclude;
}

std::optional<double> HighestKnown(std::span<const std::optional<double>> scores) {
  std::optional<double> highest;
  for (const std::optional<double>& s : scores)
    if (s && (!highest || *s > *highest)) highest = s;
  return highest;
}

std::optional<double> ScoreUnder(UnknownLoad policy, std::optional<double> score,
                                 std::optional<double> highest_known) {
  if (score) return score;
  switch (policy) {
    case UnknownLoad::kExclude: return std::nullopt;
    case UnknownLoad::kZero: return 0.0;
    case UnknownLoad::kMax: return highest_known;
  }
  return std::nullopt;
}

}  // namespace lbsim
