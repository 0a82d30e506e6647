// Target 3 of issue 8 and issue 23: least_load decisions per second, end
// to end (read, decide, report), with 10,000 Instances in the pool, next to
// the same trace shape with 16 Instances; each without request ids and
// with UUID ids and fractional seconds (the shape users have; no hints,
// which at 10,000 Instances would be lines of megabytes).
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
  fmt::print("{:>10} {:>9} {:>10} {:>10} {:>16} {:>10}\n", "Instances", "ids", "arrivals",
             "wall", "decisions/s", "peak RSS");
  double plain = 0, with_ids = 0;  // decisions/s at the largest pool
  for (std::uint32_t instances : {16u, static_cast<std::uint32_t>(args.Number("instances"))}) {
    for (bool ids : {false, true}) {
      BenchTraceShape shape;
      shape.arrivals = args.Number("arrivals");
      shape.instances = instances;
      if (ids) {
        shape.ids = IdStyle::kUuid;
        shape.times = TimeStyle::kFractionalSeconds;
      }
      std::string trace = fmt::format("{}/lbsim-scale-bench-{}{}.ndjson", args.Text("dir"),
                                      instances, ids ? "-ids" : "");
      WriteBenchTrace(trace, shape);
      Sample cost = Median({args.lbsim(), "-s", "ll", "--format", "json", trace}, runs);
      const double per_second = shape.arrivals / cost.seconds;
      (ids ? with_ids : plain) = per_second;
      fmt::print("{:>10} {:>9} {:>10} {:>10} {:>16.0f} {:>6.1f} MiB\n", instances,
                 ids ? "UUID" : "none", shape.arrivals, Seconds(cost.seconds), per_second,
                 cost.max_rss_kib / 1024.0);
      std::remove(trace.c_str());
    }
  }
  fmt::print("\ntarget 3: {:.2f}M least_load decisions/s at {} Instances; target >= 1M/s: {}\n",
             plain / 1e6, args.Number("instances"), plain >= 1e6 ? "met" : "NOT met");
  fmt::print("issue 23: {:.2f}M decisions/s at {} Instances with UUID ids; goal >= 2M/s: {}\n",
             with_ids / 1e6, args.Number("instances"), with_ids >= 2e6 ? "met" : "NOT met");
  return 0;
}
