// Target 1 of issue 8: an end-to-end replay of 1M arrivals + 100k load
// snapshots (16 Instances, JSON Lines, --strategy ll) against the plain
// Python replay of the spec (tests/bench/python_replay.py, the peer a team
// would write) and against `wc -l`, the cost of just reading the file.
// All commands run side by side, interleaved, in --runs rounds, and each
// figure is a median: of one Python run a round, and of --repeat runs a
// round of wc -l and lbsim, whose ~0.1 s a burst of background load on a
// shared machine can double, where Python's ~20 s average such bursts out.
// The run with the decision log (~0.5 s, writing ~100 MB) runs once a
// round, so that its writes do not crowd the others.
//
// Usage: replay_bench LBSIM [--runs 5] [--repeat 5] [--arrivals 1000000] [--dir /tmp]
//                           [--python PYTHON] [--peer python_replay.py]

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_args.h"
#include "bench_process.h"
#include "make_bench_trace.h"

using namespace lbsim::bench;

int main(int argc, char** argv) {
  BenchArgs args(argc, argv,
                 {{"runs", "5"}, {"repeat", "5"}, {"arrivals", "1000000"}, {"dir", "/tmp"},
                  {"python", LBSIM_BENCH_PYTHON}, {"peer", LBSIM_BENCH_PEER}},
                 "replay_bench LBSIM [--runs R] [--repeat K] [--arrivals N] [--dir DIR] "
                 "[--python PYTHON] [--peer SCRIPT]");
  BenchTraceShape shape;
  shape.arrivals = args.Number("arrivals");
  const std::string trace = args.Text("dir") + "/lbsim-replay-bench.ndjson";
  const std::string decisions = args.Text("dir") + "/lbsim-replay-bench.decisions.jsonl";
  std::uint64_t events = WriteBenchTrace(trace, shape);
  const int runs = static_cast<int>(args.Number("runs"));

  std::vector<std::vector<std::string>> commands = {
      {"/usr/bin/wc", "-l", trace},
      {args.lbsim(), "--strategy", "ll", "--format", "json", trace},
      {args.lbsim(), "--strategy", "ll", "--format", "json", "--decisions", decisions, trace},
      {args.Text("python"), args.Text("peer"), "-s", "ll", trace},
  };
  const char* labels[] = {"wc -l", "lbsim -s ll", "lbsim -s ll --decisions", "python_replay.py -s ll"};
  fmt::print("trace: {} events ({} arrivals, {} Instances), JSON Lines, {}\n", events,
             shape.arrivals, shape.instances, trace);
  const int repeat = static_cast<int>(args.Number("repeat"));
  fmt::print("{} interleaved rounds: wc -l and lbsim -s ll run {} times a round (medians of "
             "{} runs), the others once (medians of {})\n\n",
             runs, repeat, runs * repeat, runs);
  std::vector<Sample> cost = RunSideBySide(commands, runs, {repeat, repeat, 1, 1});

  fmt::print("{:<26} {:>10} {:>10} {:>12} {:>10}\n", "command", "wall", "cpu", "events/s",
             "peak RSS");
  for (std::size_t i = 0; i < commands.size(); ++i)
    fmt::print("{:<26} {:>10} {:>10} {:>12.3g} {:>6.1f} MiB\n", labels[i], Seconds(cost[i].seconds),
               Seconds(cost[i].cpu_seconds), events / cost[i].seconds, cost[i].max_rss_kib / 1024.0);

  const Sample& wc = cost[0];
  const Sample& lbsim = cost[1];
  const Sample& logged = cost[2];
  const Sample& python = cost[3];
  fmt::print("\ntarget 1a: python_replay.py / lbsim  = {:.0f}x wall ({:.0f}x cpu); target >= 200x: {}\n",
             python.seconds / lbsim.seconds, python.cpu_seconds / lbsim.cpu_seconds,
             python.seconds / lbsim.seconds >= 200 ? "met" : "NOT met");
  fmt::print("           with the decision log     = {:.0f}x wall ({:.0f}x cpu)\n",
             python.seconds / logged.seconds, python.cpu_seconds / logged.cpu_seconds);
  fmt::print("target 1b: lbsim / wc -l             = {:.1f}x wall; target <= 10x: {}\n",
             lbsim.seconds / wc.seconds, lbsim.seconds / wc.seconds <= 10 ? "met" : "NOT met");
  std::remove(trace.c_str());
  std::remove(decisions.c_str());
  return 0;
}
