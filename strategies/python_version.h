#pragma once

#include <optional>
#include <string_view>

namespace lbsim {

// The Python interpreter a Proxy runs on, where its arithmetic differs:
// sum() of floats (plain before 3.12, compensated from 3.12 on) and the
// Unicode digits float() accepts in a string (Unicode 14.0 in 3.11, 15.0
// in 3.12).
enum class PythonVersion : unsigned char { k311, k312 };

// "3.11" or "3.12".
constexpr std::string_view PythonVersionName(PythonVersion v) {
  return v == PythonVersion::k311 ? "3.11" : "3.12";
}

// The version "3.11" or "3.12" names; nullopt for any other text.
constexpr std::optional<PythonVersion> ParsePythonVersion(std::string_view text) {
  if (text == "3.11") return PythonVersion::k311;
  if (text == "3.12") return PythonVersion::k312;
  return std::nullopt;
}

}  // namespace lbsim
