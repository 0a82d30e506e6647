#pragma once

#include <optional>
#include <span>

#include "strategies/params.h"

namespace lbsim {

// How a candidate whose load score is unknown takes part in a least-score
// comparison.
enum class UnknownLoad {
  kExclude,  // never picked while another candidate has a known score (the spec)
  kZero,     // counts as a score of 0
  kMax,      // counts as the highest known score among the candidates
};

// The `unknown` parameter (exclude | zero | max, default exclude). Reports
// echo it only when it is not the default, so default runs report as before.
ParamSpec UnknownLoadParam();

// The policy the resolved `unknown` parameter names.
UnknownLoad UnknownLoadFromParams(const ParamValues& params);

// The highest known score in `scores`; std::nullopt when none is known.
std::optional<double> HighestKnown(std::span<const std::optional<double>> scores);

// The score a candidate counts with under `policy`: a known `score` as it
// is; an unknown one stays unknown (kExclude), becomes 0 (kZero) or becomes
// `highest_known` (kMax; still unknown when nothing is known).
std::optional<double> ScoreUnder(UnknownLoad policy, std::optional<double> score,
                                 std::optional<double> highest_known);

}  // namespace lbsim
