// Decisions per second of the exec bridge against the built-in strategies,
// in process (the lbsim library's Replay, no report). One synthetic trace
// (make_bench_trace: 16 Instances, durations, load snapshots, a queue hint
// on every tenth arrival) goes through each strategy alone: round_robin and
// least_load built in; a minimal C++ exec program (the protocol and pipe
// cost alone); proxy_strategies.py's round_robin and least_load.
//
// Usage: bridge_bench [--arrivals N] [--exec-arrivals M]

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "make_bench_trace.h"
#include "sim/replay/replay.h"
#include "strategies/registry.h"

namespace {

void Run(const std::string& trace, const std::string& label, const std::string& spec) {
  using namespace lbsim;
  StrategyRequest request = ParseStrategyRequest(StrategyRegistry::Builtin(), spec);
  auto start = std::chrono::steady_clock::now();
  ReplayResult result = Replay(trace, TraceEncoding::kLines, {request});
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::uint64_t decisions = result.metrics.front().decisions();
  fmt::print("{:<28} {:>10} {:>9.3f} {:>13.0f} {:>12.2f}\n", label, decisions, seconds,
             decisions / seconds, seconds / decisions * 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  lbsim::bench::BenchTraceShape builtin_shape;
  builtin_shape.arrivals_per_hint = 10;
  std::uint64_t exec_arrivals = 50'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--arrivals") builtin_shape.arrivals = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--exec-arrivals") exec_arrivals = std::strtoull(argv[i + 1], nullptr, 10);
  }
  lbsim::bench::BenchTraceShape exec_shape = builtin_shape;
  exec_shape.arrivals = exec_arrivals;
  char dir[] = "/tmp/lbsim-bridge-bench-XXXXXX";
  if (!::mkdtemp(dir)) return 1;
  const std::string big = std::string(dir) + "/builtin.ndjson";
  const std::string small = std::string(dir) + "/exec.ndjson";
  lbsim::bench::WriteBenchTrace(big, builtin_shape);
  lbsim::bench::WriteBenchTrace(small, exec_shape);
  // Single-quoted for the shell: the checkout's path may hold spaces.
  auto quoted = [](std::string_view path) { return fmt::format("'{}'", path); };
  const std::string proxy = fmt::format("exec:{} {}", quoted(LBSIM_PYTHON),
                                        quoted(std::string(LBSIM_SOURCE_DIR) +
                                               "/strategies/external/proxy_strategies.py"));

  fmt::print("{:<28} {:>10} {:>9} {:>13} {:>12}\n", "strategy", "decisions", "seconds",
             "decisions/s", "us/decision");
  int status = 0;
  try {
    Run(big, "round_robin (built-in)", "rr");
    Run(big, "least_load (built-in)", "ll");
    Run(small, "round_robin (built-in)", "rr");
    Run(small, "least_load (built-in)", "ll");
    Run(small, "exec: C++ first candidate", "exec:" + quoted(LBSIM_ECHO_CHILD));
    Run(small, "exec: python round_robin", proxy + " round_robin");
    Run(small, "exec: python least_load", proxy + " least_load");
  } catch (const std::exception& e) {
    fmt::print(stderr, "bridge_bench: {}\n", e.what());
    status = 1;
  }
  std::remove(big.c_str());
  std::remove(small.c_str());
  ::rmdir(dir);
  return status;
}
