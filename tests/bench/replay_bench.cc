// Replay benchmark: generates a synthetic JSON Lines trace (1M arrivals, 16
// Instances, a load snapshot every 10 arrivals, durations), then runs the
// lbsim binary on it for round_robin, least_load and both together, and
// prints events/s, decisions/s and peak RSS (median of --runs runs).
//
// Usage: replay_bench LBSIM [--arrivals N] [--instances K] [--runs R] [--trace PATH]

#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "bench_process.h"
#include "make_bench_trace.h"

using lbsim::bench::Median;
using lbsim::bench::Sample;

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: replay_bench LBSIM [--arrivals N] [--instances K] [--runs R] [--trace PATH]\n");
    return 2;
  }
  std::string lbsim = argv[1];
  lbsim::bench::BenchTraceShape shape;
  int runs = 5;
  std::string trace = "/tmp/lbsim-bench.ndjson";
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--arrivals") shape.arrivals = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--instances") shape.instances = std::strtoul(argv[i + 1], nullptr, 10);
    else if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    else if (flag == "--trace") trace = argv[i + 1];
  }
  std::uint64_t events = lbsim::bench::WriteBenchTrace(trace, shape);
  fmt::print("trace: {} events ({} arrivals), {} Instances, {}; median of {} runs\n\n",
             events, shape.arrivals, shape.instances, trace, runs);
  fmt::print("{:<12} {:>9} {:>14} {:>16} {:>12}\n", "strategies", "seconds", "events/s",
             "decisions/s", "peak RSS");
  for (const auto& [label, spec, count] :
       std::vector<std::tuple<std::string, std::string, int>>{
           {"rr", "rr", 1}, {"ll", "ll", 1}, {"rr+ll", "rr,ll", 2}}) {
    Sample s = Median({lbsim, "-s", spec, "--format", "json", trace}, runs);
    fmt::print("{:<12} {:>9.3f} {:>14.0f} {:>16.0f} {:>9.1f} MiB\n", label, s.seconds,
               events / s.seconds, shape.arrivals * count / s.seconds,
               s.max_rss_kib / 1024.0);
  }
  std::remove(trace.c_str());
  return 0;
}
