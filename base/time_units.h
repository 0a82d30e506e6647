#pragma once

#include <string_view>

namespace lbsim {

// Microseconds in one `unit`: "us", "ms" or "s"; 0 for any other text.
inline double MicrosecondsPer(std::string_view unit) {
  return unit == "us" ? 1.0 : unit == "ms" ? 1e3 : unit == "s" ? 1e6 : 0.0;
}

// A trace's time units in one microsecond: 1e-3 in a trace of "ms", else
// (seconds) 1e-6.
inline double TraceUnitsPerMicrosecond(std::string_view time_unit) {
  return time_unit == "ms" ? 1e-3 : 1e-6;
}

}  // namespace lbsim
