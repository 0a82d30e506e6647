// What an HTML report costs (issue 21): the benchmark trace of replay_bench
// (JSON Lines, 16 Instances, a load snapshot every 10 arrivals) replayed
// side by side with -f json and with -f html, for least_load alone, for
// round_robin + least_load + power_of_two, and for least_load under the
// service model, 64 slots per Instance (the run is already on the exact-order
// path there; 64 slots keep the queues of 10M arrivals short), where the
// charts add only their series. Prints each command's median wall and CPU
// time and peak RSS, the html runs' cost over json's, and the size of each
// report: it must not grow with --arrivals (try 1000000 and 10000000).
//
// Usage: html_bench LBSIM [--arrivals 1000000] [--runs 5] [--dir /tmp]

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_args.h"
#include "bench_process.h"
#include "make_bench_trace.h"

using namespace lbsim::bench;

namespace {

long FileSize(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<long>(st.st_size) : -1;
}

// The "chart window" line of an HTML report's header.
std::string ChartWindow(const std::string& path) {
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = "chart window</dt><dd>";
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return "?";
  return text.substr(at + key.size(), text.find('<', at + key.size()) - at - key.size());
}

}  // namespace

int main(int argc, char** argv) {
  BenchArgs args(argc, argv, {{"runs", "5"}, {"arrivals", "1000000"}, {"dir", "/tmp"}},
                 "html_bench LBSIM [--arrivals N] [--runs R] [--dir DIR]");
  BenchTraceShape shape;
  shape.arrivals = args.Number("arrivals");
  const std::string dir = args.Text("dir");
  const std::string trace = dir + "/lbsim-html-bench.ndjson";
  const std::uint64_t events = WriteBenchTrace(trace, shape);
  const int runs = static_cast<int>(args.Number("runs"));

  struct Case {
    std::string label;
    std::vector<std::string> options;
  };
  const std::vector<Case> cases{
      {"-s ll", {"-s", "ll"}},
      {"-s rr,ll,p2c", {"-s", "rr,ll,p2c"}},
      {"-s ll --slots 64", {"-s", "ll", "--slots", "64"}},
  };
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> labels, outputs;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    for (const char* format : {"json", "html"}) {
      const std::string out = fmt::format("{}/lbsim-html-bench-{}.{}", dir, c, format);
      std::vector<std::string> argv{args.lbsim()};
      argv.insert(argv.end(), cases[c].options.begin(), cases[c].options.end());
      argv.insert(argv.end(), {"-f", format, "-o", out, trace});
      commands.push_back(argv);
      labels.push_back(fmt::format("{} -f {}", cases[c].label, format));
      outputs.push_back(out);
    }
  }
  fmt::print("trace: {} events ({} arrivals, {} Instances), JSON Lines; {} interleaved rounds, "
             "medians\n\n",
             events, shape.arrivals, shape.instances, runs);
  const std::vector<Sample> cost = RunSideBySide(commands, runs);

  fmt::print("{:<30} {:>10} {:>10} {:>11} {:>12}\n", "command", "wall", "cpu", "peak RSS",
             "output");
  for (std::size_t i = 0; i < commands.size(); ++i)
    fmt::print("{:<30} {:>10} {:>10} {:>7.1f} MiB {:>8.1f} KiB\n", labels[i],
               Seconds(cost[i].seconds), Seconds(cost[i].cpu_seconds),
               cost[i].max_rss_kib / 1024.0, FileSize(outputs[i]) / 1024.0);
  fmt::print("\n");
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const Sample& json = cost[2 * c];
    const Sample& html = cost[2 * c + 1];
    fmt::print("{:<18} html / json: {:.2f}x wall, {:.2f}x cpu, {:+.1f} MiB peak RSS\n",
               cases[c].label, html.seconds / json.seconds, html.cpu_seconds / json.cpu_seconds,
               (html.max_rss_kib - json.max_rss_kib) / 1024.0);
  }
  fmt::print("chart window: {}\n", ChartWindow(outputs[1]));
  std::remove(trace.c_str());
  for (const std::string& out : outputs) std::remove(out.c_str());
  return 0;
}
