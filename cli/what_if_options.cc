#include "cli/what_if_options.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/split_text.h"
#include "cli/option_checks.h"
#include "sim/replay/what_if_keys.h"
#include "sim/replay/what_if_ranges.h"

namespace lbsim {
namespace {

// The replay's help text or the sweep's.
const char* Pick(WhatIfOptions::Help help, const char* replay, const char* sweep) {
  return help == WhatIfOptions::Help::kReplay ? replay : sweep;
}

// A what-if time (in the trace's unit): its flag, the SimOptions field it
// sets, its key (what values it takes: WhatIfKeys), and its help for the
// replay and the sweep.
struct TimeFlag {
  const char* name;
  double SimOptions::*field;
  std::string_view key;
  const char* type_name;
  const char* replay_help;
  const char* sweep_help;
};

constexpr TimeFlag kStaleFlags[] = {
    {"--stale-interval", &SimOptions::stale_interval, "stale_interval", "S",
     "Stale metrics: strategies see a snapshot of each inflight counter taken every S",
     "Stale metrics: a snapshot of each inflight counter every S"},
    {"--stale-delay", &SimOptions::stale_delay, "stale_delay", "D",
     "Stale metrics: each snapshot becomes visible D after it is taken (default 0)",
     "Stale metrics: visible D later"},
    {"--stale-jitter", &SimOptions::stale_jitter, "stale_jitter", "J",
     "Stale metrics: plus a uniform delay in [0, J) per Instance and snapshot, from --seed",
     "Stale metrics: plus a uniform delay in [0, J)"},
};
constexpr TimeFlag kWindowFlag = {
    "--window", &SimOptions::window, "window", "W",
    "Per-window shares, mean inflight and fallback rate over windows of W",
    "Per-window figures over windows of W"};

void AddTime(CLI::App& app, double& field, const TimeFlag& flag, const std::string& group,
             WhatIfOptions::Help help) {
  app.add_option(flag.name, field, Pick(help, flag.replay_help, flag.sweep_help))
      ->check(TimeIn(*FindWhatIfKey(flag.key)))
      ->type_name(flag.type_name)
      ->group(group);
}

}  // namespace

void WhatIfOptions::AddModelTo(CLI::App& app, const std::string& group, Help help) {
  app.add_option("--slots", sim.slots,
                 Pick(help,
                      "Service model: each Instance runs at most K requests at once, the rest "
                      "wait FIFO",
                      "Service model: K slots per Instance"))
      ->check(IntegerIn(kSlotsRange))
      ->type_name("K")
      ->group(group);
  app.add_option("--speed", speeds,
                 Pick(help,
                      "Service speed of an Instance (overrides the trace's speed key); needs "
                      "--slots",
                      "Service speed of an Instance; needs --slots"))
      ->allow_extra_args(false)
      ->type_name("ID=SPEED")
      ->group(group);
  for (const TimeFlag& flag : kStaleFlags) AddTime(app, sim.*flag.field, flag, group, help);
}

void WhatIfOptions::AddWindowTo(CLI::App& app, const std::string& group, Help help) {
  AddTime(app, sim.window, kWindowFlag, group, help);
}

void WhatIfOptions::AddCacheBlocksTo(CLI::App& app, const std::string& group, Help help) {
  CLI::Option* option =
      app.add_option("--cache-blocks", sim.cache_blocks,
                     Pick(help,
                          "KV-cache capacity of each simulated Instance in blocks, for the prefix "
                          "hit rate; also kv_aware's cache_blocks unless set per strategy "
                          "(default 4096)",
                          "KV-cache capacity of each simulated Instance in blocks (default 4096)"))
          ->check(IntegerIn(kCacheBlocksRange))
          ->type_name("N");
  if (!group.empty()) option->group(group);
}

CLI::Option* WhatIfOptions::AddSeedTo(CLI::App& app) {
  return app
      .add_option("--seed", sim.seed,
                  "Seed of the randomized strategies (random, power_of_two) unless set per "
                  "strategy, and of the stale-metrics jitter; reports echo it (default 1)")
      ->check(IntegerIn(kSeedRange))
      ->type_name("N");
}

void WhatIfOptions::AddSeedsTo(CLI::App& app, Help help) {
  // Each occurrence whole (CLI11's own splitting drops empty parts), then
  // its seeds, checked one by one.
  const CLI::Validator seed = IntegerIn(kSeedRange);
  app.add_option("--seeds", seed_lists_,
                 fmt::format("{}; at most {} seeds",
                             Pick(help,
                                  "Replay once per seed (as --seed) and report every figure's "
                                  "median and spread [min, max] over them (table or JSON)",
                                  "Run each randomized strategy once per seed"),
                             kMaxSeeds))
      ->check(CLI::Validator(
          [seed](std::string& list) -> std::string {
            for (std::string_view part : SplitAt(list, ',')) {
              std::string one(part);
              if (one.empty())
                return fmt::format(
                    "expected seeds S1,S2,... (integers separated by commas), got \"{}\" with an "
                    "empty one",
                    list);
              if (std::string error = seed(one); !error.empty()) return error;
            }
            return {};
          },
          ""))
      ->each([this](const std::string& list) {
        for (std::string_view one : SplitAt(list, ','))
          seeds.push_back(std::stoull(std::string(one)));
        if (seeds.size() > kMaxSeeds)
          throw CLI::ValidationError(fmt::format("at most {} seeds (one replay each), got {}",
                                                 kMaxSeeds, seeds.size()));
      })
      ->allow_extra_args(false)
      ->type_name("S1,S2,...");
}

}  // namespace lbsim
