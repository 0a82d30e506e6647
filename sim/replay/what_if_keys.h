#pragma once

// The what-if options a sweep (--vary and --set sim.KEY) and a scenario
// (options.KEY) set by key, as the replay's flags (--KEY, '-' for '_') set
// them, each declared once: the SimOptions field it sets and the values it
// takes. SetSimOption (sim/sweep/sweep.cc), the scenario parser
// (sim/check/scenario.cc) and the flags' validators (cli/option_checks.h)
// read them, so the three accept the same values and word a refusal with
// the same expectation, each at its own place.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sim/replay/sim_options.h"
#include "sim/replay/what_if_ranges.h"

namespace lbsim {

struct WhatIfKey {
  enum class Kind : std::uint8_t {
    kInteger,  // an integer of `range`
    kTime,     // a number in the trace's unit: > 0, or >= 0 with zero_ok
    kSwitch,   // true or false
  };
  std::string_view key;  // sim.KEY, options.KEY
  Kind kind = Kind::kInteger;
  const WhatIfRange* range = nullptr;  // kInteger's
  bool zero_ok = false;                // kTime's
  // Sets the option of `o` to `value`, one the key accepts (a switch: 1 for
  // true, 0 for false).
  void (*set)(SimOptions& o, double value) = nullptr;
};

// Every keyed what-if option, in the order errors list them.
std::span<const WhatIfKey> WhatIfKeys();
// The option named `key`, or nullptr.
const WhatIfKey* FindWhatIfKey(std::string_view key);

// A sweep's cell takes a time of 0 for every time option: an interval of 0
// turns its option off there (so that a sweep compares with and without).
enum class ZeroTime : std::uint8_t { kAsDeclared, kOff };

// Whether the number `value` is one `key` takes (not for a switch).
bool Accepts(const WhatIfKey& key, double value, ZeroTime zero = ZeroTime::kAsDeclared);
// What a value of `key` must be, for an error: "an integer from 1 to 2^30
// (slots per Instance)", "a number > 0 (in the trace's time unit)", "true
// or false".
std::string ExpectedValue(const WhatIfKey& key, ZeroTime zero = ZeroTime::kAsDeclared);

}  // namespace lbsim
