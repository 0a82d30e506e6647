#pragma once

// Test helpers shared by the unit tests: trace texts written to temporary
// files, and replays of them through the library API.

#include <string>
#include <string_view>
#include <vector>

#include "sim/replay/replay.h"
#include "strategies/registry.h"

namespace lbsim::testing {

// A file holding `text`, named `name` inside a fresh private temporary
// directory; the directory and everything in it go away with the object.
class TempFile {
 public:
  explicit TempFile(std::string_view text, std::string_view name = "trace.ndjson");
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::string path_;
};

// The request for `spec` ("ll", "ll:qps_1m=0") from the built-in registry.
StrategyRequest Request(std::string_view spec);

// A replay of a trace text, with every strategy's decision log.
struct ReplayRun {
  ReplayResult result;
  // Decision log lines (no newline), strategies in the order given.
  std::vector<std::string> log;

  // The metrics of strategy number `k` (in the order given).
  const RunMetrics& metrics(std::size_t k = 0) const { return result.metrics.at(k); }
};

// The spec profile: the typed contract most unit tests were written for.
inline ProxyChoice SpecProxy() { return ProxyChoice{&SpecProxyProfile(), std::nullopt}; }
// A pinned Proxy profile by name ("cacheroute@df8382d", "latest") on `python`.
ProxyChoice PinnedProxy(std::string_view name, PythonVersion python = PythonVersion::k312);

// Replays `text` (written to a file called `name`, whose suffix picks the
// encoding) through `specs`, as `proxy` runs them (by default the spec
// profile, whatever the trace header says). Throws what Replay throws.
ReplayRun ReplayText(std::string_view text, const std::vector<std::string>& specs = {"ll"},
                     std::string_view name = "trace.ndjson",
                     const ProxyChoice& proxy = SpecProxy());

// "INSTANCE/REASON" for each decision of `strategy` in `run`, "-" for no
// Instance: the compact form most tests compare.
std::vector<std::string> Picks(const ReplayRun& run, std::string_view strategy = "least_load");

// Replays `text` under `name` with round_robin and returns the InputError
// message, with the file's path replaced by "FILE"; "" when it replays.
std::string ReadError(std::string_view text, std::string_view name = "trace.ndjson");

}  // namespace lbsim::testing
