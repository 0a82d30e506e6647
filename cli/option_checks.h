#pragma once

// The validators the commands' options share, each with its one error text.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class Validator;
}  // namespace CLI

namespace lbsim {

struct WhatIfRange;  // sim/replay/what_if_ranges.h
struct WhatIfKey;    // sim/replay/what_if_keys.h

// Accepts a finite number > 0 (or, with `zero_ok`, >= 0); otherwise says
// "expected a number > 0, got TEXT" (">= 0").
CLI::Validator NonNegative(bool zero_ok);

// Accepts an integer written in decimal digits, from `min` to `max`;
// otherwise says "expected an integer from MIN to MAX_TEXT, got TEXT"
// (`max_text` empty: `max` in digits). CLI11 would take "-1" for 2^64-1,
// and print its own bounds in full.
CLI::Validator IntegerFrom(std::uint64_t min, std::uint64_t max, std::string max_text = "");

// Accepts an integer of a what-if option's `range`; otherwise says
// "expected " + ExpectedInteger(range) + ", got TEXT", the expectation a
// sweep's sim.KEY and a scenario's options.KEY give too.
CLI::Validator IntegerIn(const WhatIfRange& range);

// Accepts any value, which the command checks and words its own error for,
// and describes the values it takes as CLI::IsMember does ("{a,b,c}"), so
// that --help lists them and `lbsim completions` offers them.
CLI::Validator Offers(const std::vector<std::string>& values);

// Accepts a value of the what-if time option `key` (its flag's: > 0, or
// >= 0 where the key takes 0); otherwise says "expected " +
// ExpectedValue(key) + ", got TEXT", as its sim.KEY and options.KEY do.
CLI::Validator TimeIn(const WhatIfKey& key);

}  // namespace lbsim
