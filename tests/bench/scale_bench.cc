// Target 3 of issue 8 and issue 23: least_load decisions per second, end
// to end (read, decide, report), with 10,000 Instances in the pool, next to
// the same trace shape with 16 Instances; each without request ids, with
// UUID ids and fractional seconds (the shape users have; no hints, which
// at 10,000 Instances would be lines of megabytes), and with those and
// requests as long as an LLM's, 1 to 20 s, arriving 20,000 a second: a
// busy fleet, some 200,000 requests in flight. The trace without ids is also
// replayed under every other pinned Proxy version: df8382d, 2f1019a and
// 55b32e9 run the first, lexicographic least_load (L1: issue 59's cliff on
// the older profiles), the last two on inflight counted per request.
//
// Usage: scale_bench LBSIM [--runs 5] [--arrivals 1000000] [--instances 10000] [--dir /tmp]

#include <cstdio>
#include <string>
#include <utility>

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
  fmt::print("{:>10} {:>14} {:>10} {:>10} {:>16} {:>10}\n", "Instances", "ids, Proxy", "arrivals",
             "wall", "decisions/s", "peak RSS");
  enum class Style { kNoIds, kIds, kBusy };
  double per_style[3] = {};  // decisions/s at the largest pool
  double slowest_profile = 0;  // there, the fewest without ids over every Proxy
  for (std::uint32_t instances : {16u, static_cast<std::uint32_t>(args.Number("instances"))}) {
    for (Style style : {Style::kNoIds, Style::kIds, Style::kBusy}) {
      BenchTraceShape shape;
      shape.arrivals = args.Number("arrivals");
      shape.instances = instances;
      if (style != Style::kNoIds) {
        shape.ids = IdStyle::kUuid;
        shape.times = TimeStyle::kFractionalSeconds;
      }
      if (style == Style::kBusy) {
        shape.long_requests = true;
        shape.max_gap_us = 100;
      }
      const char* name = style == Style::kNoIds ? "none"
                         : style == Style::kIds   ? "UUID"
                                                  : "UUID, busy";
      std::string trace = fmt::format("{}/lbsim-scale-bench-{}-{}.ndjson", args.Text("dir"),
                                      instances, static_cast<int>(style));
      WriteBenchTrace(trace, shape);
      Sample cost = Median({args.lbsim(), "-s", "ll", "--format", "json", trace}, runs);
      const double per_second = shape.arrivals / cost.seconds;
      per_style[static_cast<int>(style)] = per_second;
      fmt::print("{:>10} {:>14} {:>10} {:>10} {:>16.0f} {:>6.1f} MiB\n", instances, name,
                 shape.arrivals, Seconds(cost.seconds), per_second, cost.max_rss_kib / 1024.0);
      if (style == Style::kNoIds) {
        // Every other pinned Proxy (latest is the row above): "L1" is
        // df8382d's lexicographic least_load on heartbeat loads; 2f1019a
        // and 55b32e9 run it on counted inflight, which moves on every
        // decision and completion.
        slowest_profile = per_second;
        for (const auto& [commit, label] : {std::pair{"df8382d", "none, L1"},
                                            {"2f1019a", "none, 2f1019a"},
                                            {"55b32e9", "none, 55b32e9"},
                                            {"8b116b6", "none, 8b116b6"},
                                            {"d4bd47f", "none, d4bd47f"}}) {
          const std::string proxy = fmt::format("cacheroute@{}", commit);
          Sample pinned = Median(
              {args.lbsim(), "-s", "ll", "--proxy", proxy, "--format", "json", trace}, runs);
          const double pinned_per_second = shape.arrivals / pinned.seconds;
          if (pinned_per_second < slowest_profile) slowest_profile = pinned_per_second;
          fmt::print("{:>10} {:>14} {:>10} {:>10} {:>16.0f} {:>6.1f} MiB\n", instances, label,
                     shape.arrivals, Seconds(pinned.seconds), pinned_per_second,
                     pinned.max_rss_kib / 1024.0);
        }
      }
      std::remove(trace.c_str());
    }
  }
  const double plain = per_style[0], with_ids = per_style[1], busy = per_style[2];
  fmt::print("\ntarget 3: {:.2f}M least_load decisions/s at {} Instances; target >= 1M/s: {}\n",
             plain / 1e6, args.Number("instances"), plain >= 1e6 ? "met" : "NOT met");
  fmt::print("issue 23: {:.2f}M decisions/s at {} Instances with UUID ids; goal >= 2M/s: {}\n",
             with_ids / 1e6, args.Number("instances"), with_ids >= 2e6 ? "met" : "NOT met");
  fmt::print("issue 23, busy: {:.2f}M decisions/s at {} Instances with UUID ids and 1-20 s "
             "requests, 20,000 a second; goal >= 2M/s: {}\n",
             busy / 1e6, args.Number("instances"), busy >= 2e6 ? "met" : "NOT met");
  fmt::print("issue 59: {:.2f}M decisions/s at {} Instances without ids under the slowest "
             "Proxy version; goal >= 2M/s under every one: {}\n",
             slowest_profile / 1e6, args.Number("instances"),
             slowest_profile >= 2e6 ? "met" : "NOT met");
  return 0;
}
