// libFuzzer target: one input is one trace file, replayed exactly as
// `lbsim -s rr,ll,ll:...,rand,p2c:...,wrr,kv:... --decisions ...
// --format json|table|csv` would:
// the public ReadTrace path, every strategy World, the decision log writer
// and the three report renderers. Built twice, once per encoding
// (FUZZ_TRACE_ENCODING is kLines or kDocument).
//
// A finding is anything but success or InputError: a sanitizer report, a
// crash, any other exception (UsageError or an internal error from trace
// content is a bug), a timeout, or memory beyond libFuzzer's -rss_limit_mb.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "base/errors.h"
#include "memory_file.h"
#include "sim/replay/replay.h"
#include "sim/report/report.h"
#include "strategies/registry.h"
#include "traces/decision_log.h"
#include "traces/trace_reader.h"

#ifndef FUZZ_TRACE_ENCODING
#error "define FUZZ_TRACE_ENCODING as kLines or kDocument"
#endif

namespace {

using namespace lbsim;

struct Harness {
  fuzz::MemoryFile input;
  std::vector<StrategyRequest> requests;
  std::FILE* sink = std::fopen("/dev/null", "wb");
  DecisionLogWriter log{sink};
  std::vector<DecisionSink*> logs;

  Harness() {
    const StrategyRegistry& registry = StrategyRegistry::Builtin();
    for (const char* spec : {"rr", "ll", "ll:qps_1m=0:queue_depth=2:active_prepare=2:unknown=max",
                             "rand", "p2c:choices=3:replacement=with:unknown=zero", "wrr",
                             "kv:cache_blocks=8:abs_threshold=1"})
      requests.push_back(ParseStrategyRequest(registry, spec));
    logs.assign(requests.size(), &log);
    if (!sink) std::abort();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Harness harness;
  harness.input.Write(data, size);
  try {
    ReplayResult result = Replay(harness.input.path(), TraceEncoding::FUZZ_TRACE_ENCODING,
                                 harness.requests, harness.logs);
    Report report = BuildReport(result);
    RenderJson(report);
    RenderTable(report);
    RenderCsv(report);
  } catch (const InputError&) {
    // The expected outcome for bad input.
  }
  return 0;
}
