// Target 3 of issue 8: least_load decisions per second, end to end (read,
// decide, report), with 10,000 Instances in the pool, next to the same
// trace shape with 16 Instances.
//
// Usage: scale_bench LBSIM [--runs 5] [--arrivals 1000000] [--instances 10000] [--dir /tmp]

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "bench_args.h"
#include "bench_process.h"
#include "make_bench_trace.h"

using namespace lbsim::bench;

int main(int argc, char** argv) {
  BenchArgs args(argc, argv,
                 {{"runs", "5"}, {"arrivals", "1000000"}, {"instances", "10000"}, {"dir", "/tmp"}},
                 "scale_bench LBSIM [--runs R] [--arrivals N] [--instances K] [--dir DIR]");
  const int runs = static_cast<int>(args.Number("runs"));
  fmt::print("lbsim -s ll, JSON Lines, one load snapshot per 10 arrivals; median of {} runs\n\n",
             runs);
  fmt::print("{:>10} {:>10} {:>10} {:>16} {:>10}\n", "Instances", "arrivals", "wall",
             "decisions/s", "peak RSS");
  double decisions_per_second = 0;
  for (std::uint32_t instances : {16u, static_cast<std::uint32_t>(args.Number("instances"))}) {
    BenchTraceShape shape;
    shape.arrivals = args.Number("arrivals");
    shape.instances = instances;
    std::string trace = fmt::format("{}/lbsim-scale-bench-{}.ndjson", args.Text("dir"), instances);
    WriteBenchTrace(trace, shape);
    Sample cost = Median({args.lbsim(), "-s", "ll", "--format", "json", trace}, runs);
    decisions_per_second = shape.arrivals / cost.seconds;
    fmt::print("{:>10} {:>10} {:>10} {:>16.0f} {:>6.1f} MiB\n", instances, shape.arrivals,
               Seconds(cost.seconds), decisions_per_second, cost.max_rss_kib / 1024.0);
    std::remove(trace.c_str());
  }
  fmt::print("\ntarget 3: {:.2f}M least_load decisions/s at {} Instances; target >= 1M/s: {}\n",
             decisions_per_second / 1e6, args.Number("instances"),
             decisions_per_second >= 1e6 ? "met" : "NOT met");
  return 0;
}
