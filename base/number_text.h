#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// Parses a finite decimal number that is the whole of `text` (an optional
// leading '+' allowed); false otherwise.
bool ParseFiniteNumber(std::string_view text, double& out);

// The shortest text that reads back as `x` ("2", "0.25", "1e-06").
std::string NumberText(double x);

// A computed figure (a share, a latency, a mean) for a CSV cell: `x`
// rounded to 12 significant digits, then its shortest text, so that the
// last digits' rounding noise of sums and divisions (7.011955600000009)
// reads as the figure it is (7.0119556). Exact values, such as trace times
// and counts, are written with NumberText or as integers instead.
std::string FigureText(double x);

}  // namespace lbsim
