// libFuzzer target: the scenario reader. One input is one scenario file,
// written to an in-memory file and read with LoadScenario (so also the
// bounded JSON file reader). A scenario whose trace is written inline is
// then checked as `lbsim check` would: replayed, every expectation
// evaluated, and the results rendered as text, JSON and JUnit. A trace
// named by path is not read (the path is relative to /proc/self/fd, and a
// fuzzed path could name a device that never ends), nor is a scenario that
// runs exec:COMMAND (the fuzzed COMMAND would run through the shell).
//
// A finding is anything but success, InputError or UsageError.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/errors.h"
#include "memory_file.h"
#include "sim/check/scenario.h"
#include "sim/check/scenario_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lbsim;
  static fuzz::MemoryFile input;
  input.Write(data, size);
  try {
    Scenario scenario = LoadScenario(input.path());
    bool runs_exec = std::any_of(scenario.strategies.begin(), scenario.strategies.end(),
                                 [](const StrategyRequest& r) { return r.info->name == "exec"; });
    if (!scenario.inline_trace || runs_exec) return 0;
    std::vector<ScenarioResult> results{CheckScenario(scenario)};
    RenderCheckText(results);
    RenderCheckJson(results);
    RenderCheckJUnit(results);
  } catch (const InputError&) {
    // The expected outcome for a bad scenario.
  } catch (const UsageError&) {
    // Also expected: a bad strategy name or parameter in the scenario.
  }
  return 0;
}
