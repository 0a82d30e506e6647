#pragma once

// The integer what-if options, the range each takes and what it counts,
// declared once for the four places that parse them: the replay's flags
// and the sweep's (cli/what_if_options.cc, cli/queue_options.cc), the
// sweep's --vary and --set sim.KEY (SetSimOption, sim/sweep/sweep.cc) and a
// scenario's options.KEY (sim/check/scenario.cc). Each puts its own place
// (--slots, options.slots) and the value as given around the one
// expectation ExpectedInteger writes: "an integer from 1 to 2^30 (slots
// per Instance)".

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
  std::string_view what = {};  // what it counts, for errors; empty: nothing to add
};

// Slots per Instance of the service model.
inline constexpr WhatIfRange kSlotsRange{"slots", 1, std::uint64_t{1} << 30, "2^30",
                                         "slots per Instance"};
// A seed: what strategies take (exact as a double).
inline constexpr WhatIfRange kSeedRange{"seed", 0, std::uint64_t{1} << 53, "2^53"};
// Seeds one run takes at most (--seeds, options.seeds): each is a whole
// replay whose report is kept until the spread is taken.
inline constexpr std::size_t kMaxSeeds = 1000;
// The Proxy queue model's READY_CONCURRENCY: ready workers per Instance.
inline constexpr WhatIfRange kReadyConcurrencyRange{"ready_concurrency", 1, 4096, "4096",
                                                    "ready workers per Instance"};
// The Proxy queue model's PREPARE_CONCURRENCY: prepare tasks per Instance.
inline constexpr WhatIfRange kPrepareConcurrencyRange{"prepare_concurrency", 1, 0xffffffffu,
                                                      "2^32-1", "prepare tasks per Instance"};
// KV-cache blocks per simulated Instance.
inline constexpr WhatIfRange kCacheBlocksRange{"cache_blocks", 1, std::uint64_t{1} << 53, "2^53",
                                               "KV-cache blocks per Instance"};

// What a value of `range` must be, for an error: "an integer from 1 to 2^30",
// followed by " (WHAT)" when the range says what it counts.
std::string ExpectedInteger(const WhatIfRange& range);

}  // namespace lbsim
