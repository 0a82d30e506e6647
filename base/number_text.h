#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// Parses a finite decimal number that is the whole of `text` (an optional
// leading '+' allowed); false otherwise.
bool ParseFiniteNumber(std::string_view text, double& out);

// The shortest text that reads back as `x` ("2", "0.25", "1e-06").
std::string NumberText(double x);

}  // namespace lbsim
