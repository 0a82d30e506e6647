#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/engine_options.h"
#include "sim/replay/sim_options.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace lbsim {

// The what-if options as typed (docs/what-if.md, docs/engine.md), declared
// here once for the commands that replay: lbsim TRACE and lbsim sweep. A
// flag has one name and one validator wherever it is given (but for the
// sweep's --slots and --cache-blocks, which keep their old error texts:
// see what_if_options.cc); the replay's help describes each at length, the
// sweep's (whose options hold for every cell) in a few words. The sweep's
// --vary and --set take the same options as sim.KEY (SetSimOption in
// sim/sweep/sweep.cc), scenarios as options.KEY (sim/check/scenario.cc);
// those parse text and JSON with their own error texts.
struct WhatIfOptions {
  // Whose help: the replay's or the sweep's.
  enum class Help { kReplay, kSweep };

  SimOptions sim;                    // --slots, --stale-*, --window, --cache-blocks, --seed
  std::vector<std::string> speeds;   // --speed ID=SPEED
  std::vector<std::uint64_t> seeds;  // --seeds S1,S2,..., at most kMaxSeeds
  EngineOptions engine;              // --engine, --signal-*

  // --slots, --speed, --stale-interval, --stale-delay and --stale-jitter,
  // in option group `group`.
  void AddModelTo(CLI::App& app, const std::string& group, Help help);
  // --window, in option group `group`.
  void AddWindowTo(CLI::App& app, const std::string& group, Help help);
  // --cache-blocks, in option group `group` (empty: the command's options).
  void AddCacheBlocksTo(CLI::App& app, const std::string& group, Help help);
  // --seed (a sweep varies sim.seed instead); returns it, to tell whether
  // it was given.
  CLI::Option* AddSeedTo(CLI::App& app);
  // --seeds.
  void AddSeedsTo(CLI::App& app, Help help);
  // --engine and --signal-interval, --signal-delay, --signal-jitter, in
  // option group `group`.
  void AddEngineTo(CLI::App& app, const std::string& group) { engine.AddTo(app, group); }

 private:
  std::vector<std::string> seed_lists_;  // --seeds as given, each occurrence
};

}  // namespace lbsim
