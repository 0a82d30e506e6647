#pragma once

// The integer what-if options and the range each takes, declared once for
// the four places that parse them: the replay's flags and the sweep's
// (cli/what_if_options.cc), the sweep's --vary and --set sim.KEY
// (SetSimOption, sim/sweep/sweep.cc) and a scenario's options.KEY
// (sim/check/scenario.cc). Each words its error its own way around
// "an integer from MIN to MAX_TEXT" (ExpectedInteger).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lbsim {

struct WhatIfRange {
  std::string_view key;  // sim.KEY, options.KEY; the flag is --KEY with '-' for '_'
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::string_view max_text;  // `max` as errors write it
};

// Slots per Instance of the service model.
inline constexpr WhatIfRange kSlotsRange{"slots", 1, std::uint64_t{1} << 30, "2^30"};
// A seed: what strategies take (exact as a double).
inline constexpr WhatIfRange kSeedRange{"seed", 0, std::uint64_t{1} << 53, "2^53"};
// Seeds one run takes at most (--seeds, options.seeds): each is a whole
// replay whose report is kept until the spread is taken.
inline constexpr std::size_t kMaxSeeds = 1000;
// The Proxy queue model's READY_CONCURRENCY: ready workers per Instance.
inline constexpr WhatIfRange kReadyConcurrencyRange{"ready_concurrency", 1, 4096, "4096"};
// The Proxy queue model's PREPARE_CONCURRENCY: prepare tasks per Instance.
inline constexpr WhatIfRange kPrepareConcurrencyRange{"prepare_concurrency", 1, 0xffffffffu,
                                                      "2^32-1"};
// KV-cache blocks per simulated Instance.
inline constexpr WhatIfRange kCacheBlocksRange{"cache_blocks", 1, std::uint64_t{1} << 53, "2^53"};

// What a value of `range` must be, for an error: "an integer from 1 to 2^30",
// followed by " (WHAT)" when `what` is given.
std::string ExpectedInteger(const WhatIfRange& range, std::string_view what = "");

}  // namespace lbsim
