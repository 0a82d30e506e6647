// libFuzzer target: one input is one recording of the Proxy, imported as
// `lbsim import --from cacheroute-record IN -o OUT` would (both passes), and
// the trace written is then replayed through rr and ll as `lbsim -s rr,ll`
// would, with the report rendered: an import must never write a trace the
// replay refuses.
//
// A finding is anything but success or InputError from the import: a
// sanitizer report, a crash, any other exception, a trace the replay does
// not take, a timeout, or memory beyond libFuzzer's -rss_limit_mb.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "base/errors.h"
#include "base/input/input_file.h"
#include "memory_file.h"
#include "sim/replay/replay.h"
#include "sim/report/report.h"
#include "strategies/registry.h"
#include "traces/importers/cacheroute_record.h"

namespace {

using namespace lbsim;

struct Harness {
  fuzz::MemoryFile input;
  fuzz::MemoryFile trace;
  std::vector<StrategyRequest> requests;

  Harness() {
    const StrategyRegistry& registry = StrategyRegistry::Builtin();
    for (const char* spec : {"rr", "ll"}) requests.push_back(ParseStrategyRequest(registry, spec));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Harness harness;
  harness.input.Write(data, size);
  std::vector<char> written;
  {
    char* buffer = nullptr;
    std::size_t length = 0;
    std::FILE* out = open_memstream(&buffer, &length);
    if (!out) std::abort();
    bool imported = false;
    try {
      InputFile in = InputFile::Open(harness.input.path(), "input");
      ImportCacheRouteRecord(in, "fuzz.rec", "fuzz", out, TraceEncoding::kLines);
      imported = true;
    } catch (const InputError&) {
    }
    std::fclose(out);
    if (imported) written.assign(buffer, buffer + length);
    std::free(buffer);
    if (!imported) return 0;
  }
  harness.trace.Write(reinterpret_cast<const std::uint8_t*>(written.data()), written.size());
  try {
    ReplayResult result = Replay(harness.trace.path(), TraceEncoding::kLines, harness.requests);
    RenderJson(BuildReport(result));
  } catch (const InputError& e) {
    // Limits a replay keeps (requests in flight, Instances) may refuse an
    // imported trace; a refusal of its syntax or fields is a finding.
    const std::string what = e.what();
    if (what.find("limit") == std::string::npos) {
      std::fprintf(stderr, "the replay refused an imported trace: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
