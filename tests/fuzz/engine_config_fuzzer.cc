// libFuzzer target: the engine model's two inputs. One input is one file,
// written to an in-memory file and read twice: as a measurement file of
// `lbsim engines fit` (its format told from its content), fitted when it
// is accepted and small; and as a configuration, as --engine reads it (the
// bounded JSON file reader, then EngineConfigFromJson). A
// configuration it accepts must write back to an equal one, and must serve
// a fixed three-request trace (least_load, the Proxy's queue in front of
// two of the runs) to its end: its numbers may be extreme, never unsafe.
//
// A finding is anything but success, InputError (the file, or a
// step the clock cannot take) or UsageError (the window or the polls
// refused), or an accepted configuration that does not read back equal.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "memory_file.h"
#include "sim/fit/engine_fit.h"
#include "sim/fit/measurement_files.h"
#include "sim/io/json_file.h"
#include "sim/replay/engine_config.h"
#include "sim/replay/replay.h"
#include "strategies/registry.h"

namespace {

using namespace lbsim;

// Three arrivals with small token counts, so that any accepted
// configuration serves them in few steps.
constexpr char kTrace[] =
    "{\"lbsim_trace\": 1, \"instances\": [{\"id\": \"a\"}, {\"id\": \"b\"}]}\n"
    "{\"t\": 0, \"type\": \"arrival\", \"input_tokens\": 40, \"output_tokens\": 3, "
    "\"duration\": 1, \"ttft\": 0.5, \"prefix_blocks\": [1, 2]}\n"
    "{\"t\": 0, \"type\": \"arrival\", \"input_tokens\": 0, \"output_tokens\": 0, "
    "\"duration\": 1, \"ttft\": 0.5}\n"
    "{\"t\": 0.001, \"type\": \"arrival\", \"input_tokens\": 300, \"output_tokens\": 12, "
    "\"duration\": 1, \"ttft\": 0.5, \"prefix_blocks\": [1, 2, 3]}\n";

// Reads `path` as measurements and fits the default engine's limits to
// them when every batch is small enough to schedule at once.
void FitMeasurements(const std::string& path) {
  try {
    const MeasurementFile file = ReadMeasurementFile(path, std::nullopt, 25);
    for (const Measurement& m : file.points)
      if (m.batch * m.input_tokens > (1u << 16) || m.batch * m.output_tokens > (1u << 12)) return;
    if (file.points.size() > 256) return;
    const EngineFit fit = FitEngine(file.points, {.base = BuiltinEngines()[0], .held_out = {}});
    if (!(fit.config.beta_us[0] >= kMinFittedStepUs) || !(fit.config.beta_us[1] >= 0.0) ||
        !(fit.config.beta_us[2] >= 0.0))
      __builtin_trap();  // a fit outside its bounds (or NaN) would be refused by --engine
  } catch (const InputError&) {
    // The expected outcome for a bad measurement file.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::MemoryFile input;
  static fuzz::MemoryFile trace;
  static const bool trace_written = [] {
    trace.Write(reinterpret_cast<const std::uint8_t*>(kTrace), sizeof kTrace - 1);
    return true;
  }();
  (void)trace_written;
  input.Write(data, size);
  FitMeasurements(input.path());
  EngineConfig config;
  try {
    config = EngineConfigFromJson(ReadJsonFile(input.path(), "engine configuration"),
                                  input.path());
  } catch (const InputError&) {
    return 0;  // the expected outcome for a bad configuration
  }
  const std::string text = EngineConfigJson(config);
  fuzz::MemoryFile written;
  written.Write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (!(EngineConfigFromJson(ReadJsonFile(written.path(), "engine configuration"),
                             input.path()) == config))
    __builtin_trap();

  const StrategyRegistry& registry = StrategyRegistry::Builtin();
  const std::vector<StrategyRequest> requests{ParseStrategyRequest(registry, "ll", {})};
  for (bool queue : {false, true}) {
    SimOptions options;
    options.engine.config = std::make_shared<const EngineConfig>(config);
    options.proxy_queue.on = queue;
    // Requests behind one with a first token 10^290 s away poll every 5 ms:
    // refused past the limit, which is lowered to keep an input fast.
    options.proxy_queue.max_dispatch_polls = 100'000;
    options.window = 0.5;
    try {
      Replay(trace.path(), TraceEncoding::kLines, requests, {}, options);
    } catch (const UsageError&) {
      // Expected too: steps so long that the windows pass 2^53, or that the
      // queue's polls pass their limit.
    } catch (const InputError&) {
      // Expected too: a step too short to move a clock grown that large.
    }
  }
  return 0;
}
