#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/report/report.h"

namespace lbsim {

// One trace replayed with the same strategies and options under several
// seeds (--seeds): the seed of every randomized strategy that sets none,
// and of the stale-metrics jitter.
struct SeededReports {
  std::vector<std::uint64_t> seeds;
  std::vector<Report> reports;  // parallel to seeds
};

// The runs as one JSON report (ending in a newline): the keys of a single
// report, plus "seeds" after "lbsim_report", where
//   - every number is the median over the seeds (the middle value, or the
//     mean of the two middle ones), and each strategy's "spread" maps the
//     JSON pointer (RFC 6901, from the strategy object) of every number
//     that differed between seeds to {"min", "median", "max"};
//   - a boolean is true when it was under any seed (a detector that fired);
//   - "warnings" holds, for each name raised under any seed, the warnings
//     of that name from the first seed that raised it, each with "seeds":
//     how many seeds raised the name;
//   - any other value is the first seed's.
std::string RenderSeededJson(const SeededReports& runs);
// The runs as a table: each strategy's key figures as "median [min, max]"
// (one value when every seed gave it), then the warnings with how many
// seeds raised them.
std::string RenderSeededTable(const SeededReports& runs);
// The warnings that `names` select ("warning": all) under any seed, as
// "seed S: WHOSE: TEXT" lines (without "seed S: " for a single seed).
std::vector<std::string> SelectedWarnings(const SeededReports& runs,
                                          const std::vector<std::string>& names);

}  // namespace lbsim
