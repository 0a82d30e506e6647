// Target 4 of issue 8: N strategies on one trace cost one parse. Replays the
// replay_bench trace with 1, 2, 4 and 8 least_load variants in one run and
// reports the marginal cost of each extra strategy, next to what N
// separate runs would cost.
//
// Usage: strategies_bench LBSIM [--runs 5] [--arrivals 1000000] [--dir /tmp]

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_args.h"
#include "bench_process.h"
#include "make_bench_trace.h"

using namespace lbsim::bench;

int main(int argc, char** argv) {
  BenchArgs args(argc, argv, {{"runs", "5"}, {"arrivals", "1000000"}, {"dir", "/tmp"}},
                 "strategies_bench LBSIM [--runs R] [--arrivals N] [--dir DIR]");
  BenchTraceShape shape;
  shape.arrivals = args.Number("arrivals");
  const std::string trace = args.Text("dir") + "/lbsim-strategies-bench.ndjson";
  std::uint64_t events = WriteBenchTrace(trace, shape);
  const int runs = static_cast<int>(args.Number("runs"));

  const std::vector<int> counts = {1, 2, 4, 8};
  std::vector<std::vector<std::string>> commands;
  for (int n : counts) {
    std::vector<std::string> argv = {args.lbsim(), "--format", "json"};
    for (int k = 1; k <= n; ++k) {  // distinct least_load variants
      argv.push_back("-s");
      argv.push_back(fmt::format("ll:inflight={}", k));
    }
    argv.push_back(trace);
    commands.push_back(argv);
  }
  fmt::print("trace: {} events ({} arrivals, 16 Instances); median of {} interleaved runs\n\n",
             events, shape.arrivals, runs);
  std::vector<Sample> cost = RunSideBySide(commands, runs);
  fmt::print("{:>10} {:>10} {:>18} {:>16}\n", "strategies", "wall", "N separate runs", "decisions/s");
  for (std::size_t i = 0; i < counts.size(); ++i)
    fmt::print("{:>10} {:>10} {:>18} {:>16.0f}\n", counts[i], Seconds(cost[i].seconds),
               Seconds(counts[i] * cost[0].seconds), counts[i] * shape.arrivals / cost[i].seconds);
  const double marginal = (cost.back().seconds - cost.front().seconds) / (counts.back() - 1);
  fmt::print("\ntarget 4: one parse for N strategies; each extra strategy adds {} ({:.0f}% of a "
             "one-strategy replay, {:.0f} ns per arrival)\n",
             Seconds(marginal), 100 * marginal / cost.front().seconds, marginal * 1e9 / shape.arrivals);
  std::remove(trace.c_str());
  return 0;
}
