#pragma once

// The limits of lbsim's bounded JSON parsing, which keep a hostile input
// from taking the machine down: memory stays bounded and every step is
// cheap. Going past one is an input error naming the limit, also where
// JSON would otherwise accept the input. The trace limits that are not
// about JSON (line bytes, Instances, ids, requests in flight) are in
// traces/trace_reader.h.

#include <cstddef>

namespace lbsim {

// Levels of nesting inside one event or header (the object itself is 1),
// and inside any JSON value lbsim parses.
inline constexpr std::size_t kMaxNestingDepth = 512;
// JSON values (scalars, arrays, objects) in one event or header, and in one
// line of JSON (an exec strategy's reply).
inline constexpr std::size_t kMaxEventValues = 1'000'000;
// Bytes of a JSON file lbsim reads whole into memory (a scenario, a report
// for lbsim diff, a gen spec), and JSON values in it: a value costs 16 to
// 100 bytes of memory however short its text.
inline constexpr std::size_t kMaxJsonFileBytes = 64u << 20;
inline constexpr std::size_t kMaxJsonFileValues = 4'000'000;

}  // namespace lbsim
