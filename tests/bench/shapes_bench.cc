// Issue 23: lbsim on traces shaped as users have them, side by side in one
// run: request ids (none, short, UUID), times (integer ms, fractional
// seconds), Proxy-style hints on 0/10/100% of arrivals (and on 10%, maps
// that change from hint to hint), float loads with nulls, a decision log,
// several strategies, the realistic shape with a Proxy log's Unix times
// and keys the replay passes over, with the Proxy's own hints (and as an
// exporter re-encodes them), as a Python script writes it (float
// times, keys left out, the request in the hint), with prefix blocks as
// lbsim import writes them (and kv_aware on it), as a JSON document, and
// with requests that last as long as an LLM's (thousands in flight); and
// the realistic trace compressed (gzip, zstd) and through a pipe; and
// (issue 59) the Proxy's own shape, a full hint on every arrival for 16 and
// 64 Instances and as an exporter re-encodes it, with each shape's file
// size and its time against `wc -l` of that same file.
// Every command runs in every round, interleaved, and each figure is a
// median.
// The headline shape is the realistic one (UUID ids, fractional seconds,
// 10% hints, float loads).
//
// Usage: shapes_bench LBSIM [--runs 5] [--arrivals 1000000] [--dir /tmp]
//                           [--python PYTHON] [--peer python_replay.py] [--no-python 1]

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench_args.h"
#include "bench_process.h"
#include "compressed_copy.h"
#include "make_bench_trace.h"

using namespace lbsim::bench;

int main(int argc, char** argv) {
  BenchArgs args(argc, argv,
                 {{"runs", "5"}, {"arrivals", "1000000"}, {"dir", "/tmp"},
                  {"python", LBSIM_BENCH_PYTHON}, {"peer", LBSIM_BENCH_PEER}, {"no-python", "0"}},
                 "shapes_bench LBSIM [--runs R] [--arrivals N] [--dir DIR] [--python PYTHON] "
                 "[--peer SCRIPT] [--no-python 1]");
  const std::string dir = args.Text("dir");
  const std::uint64_t arrivals = args.Number("arrivals");

  struct Shape {
    std::string name;
    BenchTraceShape shape;
  };
  auto with = [&](IdStyle ids, TimeStyle times, std::uint32_t hints, bool floats) {
    BenchTraceShape s;
    s.arrivals = arrivals;
    s.ids = ids;
    s.times = times;
    s.hint_percent = hints;
    s.float_loads = floats;
    return s;
  };
  auto varying = [](BenchTraceShape s) {
    s.varying_hints = true;
    return s;
  };
  auto proxy_log = [](BenchTraceShape s) {
    s.times = TimeStyle::kUnixSeconds;
    s.log_keys = true;
    return s;
  };
  auto chat_bodies = [](BenchTraceShape s) {
    s.chat_bodies = true;
    return s;
  };
  auto sparse_keys = [](BenchTraceShape s) {
    s.sparse_keys = true;
    return s;
  };
  auto prefix_blocks = [](BenchTraceShape s) {
    s.prefix_blocks = true;
    return s;
  };
  auto proxy_hints = [](BenchTraceShape s) {
    s.proxy_hints = true;
    return s;
  };
  auto exported_hints = [](BenchTraceShape s) {
    s.proxy_hints = true;
    s.exported_hints = true;
    return s;
  };
  auto script = [](BenchTraceShape s) {
    s.script = true;
    return s;
  };
  auto document = [](BenchTraceShape s) {
    s.document = true;
    return s;
  };
  // The Proxy's own shape (issue 59): a hint as select_instance builds it
  // on every decision, for 16 or 64 Instances: 4.4 and 17 KB an arrival, so
  // a fifth and a twentieth of the arrivals (each row is judged against
  // reading its own file).
  auto proxy_shape = [&](std::uint32_t instances, bool exported) {
    BenchTraceShape s = with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 100, true);
    s.arrivals = std::max<std::uint64_t>(1, arrivals * 16 / instances / 5);
    s.instances = instances;
    s.proxy_hints = true;
    s.exported_hints = exported;
    return s;
  };
  auto long_requests = [](BenchTraceShape s) {
    s.long_requests = true;
    return s;
  };
  const std::vector<Shape> shapes = {
      {"old", with(IdStyle::kNone, TimeStyle::kIntegerMs, 0, false)},
      {"realistic-no-ids", with(IdStyle::kNone, TimeStyle::kFractionalSeconds, 10, true)},
      {"realistic-short-ids", with(IdStyle::kShort, TimeStyle::kFractionalSeconds, 10, true)},
      {"realistic", with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true)},
      {"uuid-no-hints", with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 0, true)},
      {"uuid-all-hints", with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 100, true)},
      {"realistic-varying-hints", varying(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-proxy-log", proxy_log(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-chat-bodies",
       chat_bodies(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-sparse-keys",
       sparse_keys(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-prefix-blocks",
       prefix_blocks(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-document",
       document(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-proxy-hints",
       proxy_hints(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-exported-hints",
       exported_hints(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-script", script(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"realistic-long-requests",
       long_requests(with(IdStyle::kUuid, TimeStyle::kFractionalSeconds, 10, true))},
      {"proxy-16", proxy_shape(16, false)},
      {"proxy-64", proxy_shape(64, false)},
      {"proxy-16-exported", proxy_shape(16, true)},
  };
  std::vector<std::string> paths;
  std::vector<std::uint64_t> events;
  for (const Shape& s : shapes) {
    paths.push_back(fmt::format("{}/lbsim-shapes-{}.{}", dir, s.name,
                                s.shape.document ? "json" : "ndjson"));
    events.push_back(WriteBenchTrace(paths.back(), s.shape));
  }
  const std::string& realistic = paths[3];
  const auto shape_index = [&](std::string_view name) {
    for (std::size_t i = 0; i < shapes.size(); ++i)
      if (shapes[i].name == name) return i;
    throw std::logic_error("no shape " + std::string(name));
  };
  const auto shape_path_of = [&](std::string_view name) { return paths[shape_index(name)]; };
  const std::string decisions = dir + "/lbsim-shapes.decisions.jsonl";
  // The realistic trace as users keep a large one: compressed as gzip and
  // zstd write by default, and streamed through a pipe.
  const std::string gzip = realistic + ".gz", zstd = realistic + ".zst";
  WriteGzipCopy(realistic, gzip);
  WriteZstdCopy(realistic, zstd);
  const auto quoted = [](const std::string& word) {
    std::string q = "'";
    for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string piped = "cat " + quoted(realistic) + " | " + quoted(args.lbsim()) +
                            " -s ll --format json -";

  struct Row {
    std::string label;
    std::vector<std::string> argv;
    int repeat;
  };
  std::vector<Row> rows;
  rows.push_back({"wc -l realistic", {"/usr/bin/wc", "-l", realistic}, 3});
  for (std::size_t i = 0; i < shapes.size(); ++i)
    rows.push_back({"ll " + shapes[i].name + " (" + Describe(shapes[i].shape) + ")",
                    {args.lbsim(), "-s", "ll", "--format", "json", paths[i]}, 3});
  rows.push_back({"ll realistic.gz (gzip -6)",
                  {args.lbsim(), "-s", "ll", "--format", "json", gzip}, 3});
  rows.push_back({"ll realistic.zst (zstd -3)",
                  {args.lbsim(), "-s", "ll", "--format", "json", zstd}, 3});
  rows.push_back({"ll realistic through a pipe (cat realistic | lbsim -s ll -)",
                  {"/bin/sh", "-c", piped}, 3});
  // Three runs a round, as the plain row it is compared with: one run's
  // ratio moved between 1.3x and 1.9x from one bench to the next.
  rows.push_back({"ll realistic --decisions",
                  {args.lbsim(), "-s", "ll", "--format", "json", "--decisions", decisions, realistic}, 3});
  rows.push_back({"ll,ll,ll,ll realistic",
                  {args.lbsim(), "-s", "ll,ll,ll,ll", "--format", "json", realistic}, 1});
  rows.push_back({"rr,ll,p2c,kv realistic",
                  {args.lbsim(), "-s", "rr,ll,p2c,kv", "--format", "json", realistic}, 1});
  const std::string long_requests_path = shape_path_of("realistic-long-requests");
  rows.push_back({"ll,ll,ll,ll realistic-long-requests",
                  {args.lbsim(), "-s", "ll,ll,ll,ll", "--format", "json", long_requests_path}, 1});
  rows.push_back({"kv realistic-prefix-blocks",
                  {args.lbsim(), "-s", "kv", "--format", "json",
                   shape_path_of("realistic-prefix-blocks")}, 1});
  // Every shape judged against reading its own file (issue 59).
  const std::size_t first_wc = rows.size();
  for (std::size_t i = 0; i < shapes.size(); ++i)
    rows.push_back({"wc -l " + shapes[i].name, {"/usr/bin/wc", "-l", paths[i]}, 3});
  const bool python = args.Text("no-python") != "1";
  if (python)
    rows.push_back({"python_replay.py -s ll realistic",
                    {args.Text("python"), args.Text("peer"), "-s", "ll", realistic}, 1});

  std::vector<std::vector<std::string>> commands;
  std::vector<int> repeats;
  for (const Row& r : rows) {
    commands.push_back(r.argv);
    repeats.push_back(r.repeat);
  }
  const int runs = static_cast<int>(args.Number("runs"));
  fmt::print("{} arrivals per trace, 16 Instances, a load snapshot per 10 arrivals, JSON Lines "
             "(one a JSON document);\n"
             "{} interleaved rounds, medians\n\n", arrivals, runs);
  std::vector<Sample> cost = RunSideBySide(commands, runs, repeats);
  fmt::print("{:<96} {:>10} {:>10} {:>10} {:>9}\n", "command", "wall", "cpu", "of it sys",
             "peak RSS");
  for (std::size_t i = 0; i < rows.size(); ++i)
    fmt::print("{:<96} {:>10} {:>10} {:>10} {:>5.1f} MiB\n", rows[i].label,
               Seconds(cost[i].seconds), Seconds(cost[i].cpu_seconds),
               Seconds(cost[i].system_seconds), cost[i].max_rss_kib / 1024.0);

  // A shape's row: the one after wc -l's, in the shapes' order.
  const auto shape_seconds = [&](std::string_view name) {
    return cost[1 + shape_index(name)].seconds;
  };
  const double wc = cost[0].seconds;
  const double no_ids = shape_seconds("realistic-no-ids"), real = shape_seconds("realistic");
  const std::size_t after_shapes = 1 + shapes.size();
  const double gzipped = cost[after_shapes].seconds, zstded = cost[after_shapes + 1].seconds;
  const double through_pipe = cost[after_shapes + 2].seconds;
  const double logged = cost[after_shapes + 3].seconds;
  const double four = cost[after_shapes + 4].seconds;
  const double mixed = cost[after_shapes + 5].seconds;
  const double four_long = cost[after_shapes + 6].seconds;
  const double kv_prefix = cost[after_shapes + 7].seconds;
  auto verdict = [](bool ok) { return ok ? "met" : "NOT met"; };
  fmt::print("\n{:<28} {:>9} {:>10} {:>9} {:>9} {:>9}\n", "shape", "arrivals", "MiB", "ll",
             "wc -l", "ll/wc -l");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const double ll = cost[1 + i].seconds, read = cost[first_wc + i].seconds;
    fmt::print("{:<28} {:>9} {:>10.1f} {:>9} {:>9} {:>8.1f}x\n", shapes[i].name,
               shapes[i].shape.arrivals,
               static_cast<double>(std::filesystem::file_size(paths[i])) / (1 << 20), Seconds(ll),
               Seconds(read), ll / read);
  }
  const double proxy16 =
      shape_seconds("proxy-16") / cost[first_wc + shape_index("proxy-16")].seconds;
  fmt::print("the Proxy's shape (16 Instances) / wc -l of its file = {:.1f}x; goal <= 4x: {}\n",
             proxy16, verdict(proxy16 <= 4));
  fmt::print("\nrealistic / realistic without ids = {:.2f}x; goal <= 1.25x: {}\n", real / no_ids,
             verdict(real / no_ids <= 1.25));
  fmt::print("realistic / wc -l                 = {:.1f}x; goal <= 8x: {}\n", real / wc,
             verdict(real / wc <= 8));
  fmt::print("--decisions / without             = {:.2f}x; goal <= 1.5x: {}\n", logged / real,
             verdict(logged / real <= 1.5));
  const double per_extra_ns = (four - real) / 3 / static_cast<double>(arrivals) * 1e9;
  fmt::print("each extra ll strategy            = {:.0f} ns per arrival; goal <= 60 ns: {}\n",
             per_extra_ns, verdict(per_extra_ns <= 60));
  const double per_mixed_ns = (mixed - real) / 3 / static_cast<double>(arrivals) * 1e9;
  fmt::print("each extra of rr,ll,p2c,kv        = {:.0f} ns per arrival; goal <= 60 ns: {}\n",
             per_mixed_ns, verdict(per_mixed_ns <= 60));
  fmt::print("realistic with a Proxy log's times and keys / without = {:.2f}x\n",
             shape_seconds("realistic-proxy-log") / real);
  fmt::print("realistic with chat bodies / without = {:.2f}x\n",
             shape_seconds("realistic-chat-bodies") / real);
  fmt::print("realistic with keys that come and go / without = {:.2f}x\n",
             shape_seconds("realistic-sparse-keys") / real);
  const double prefix = shape_seconds("realistic-prefix-blocks") / real;
  fmt::print("realistic with prefix blocks / without = {:.2f}x; goal <= 2x: {}; "
             "kv_aware on it / ll = {:.2f}x\n",
             prefix, verdict(prefix <= 2), kv_prefix / shape_seconds("realistic-prefix-blocks"));
  fmt::print("realistic as a JSON document / as JSON Lines = {:.2f}x\n",
             shape_seconds("realistic-document") / real);
  fmt::print("realistic with Proxy-built hints / with the four-key ones = {:.2f}x\n",
             shape_seconds("realistic-proxy-hints") / real);
  fmt::print("realistic with exported Proxy hints / with the Proxy's = {:.2f}x\n",
             shape_seconds("realistic-exported-hints") / shape_seconds("realistic-proxy-hints"));
  fmt::print("realistic as a script writes it / as the bench writes it = {:.2f}x\n",
             shape_seconds("realistic-script") / real);
  const double long_real = shape_seconds("realistic-long-requests");
  fmt::print("realistic with 1-20 s requests / with 20-420 ms ones = {:.2f}x\n", long_real / real);
  fmt::print("each extra ll strategy, 1-20 s requests = {:.0f} ns per arrival\n",
             (four_long - long_real) / 3 / static_cast<double>(arrivals) * 1e9);
  fmt::print("realistic.gz / realistic = {:.2f}x; realistic.zst / realistic = {:.2f}x\n",
             gzipped / real, zstded / real);
  fmt::print("realistic through a pipe / from the file = {:.2f}x\n", through_pipe / real);
  if (python) {
    const double py = cost.back().seconds;
    fmt::print("python_replay.py / realistic      = {:.0f}x; goal >= 300x: {}\n", py / real,
               verdict(py / real >= 300));
  }
  for (const std::string& p : paths) std::remove(p.c_str());
  std::remove(gzip.c_str());
  std::remove(zstd.c_str());
  std::remove(decisions.c_str());
  return 0;
}
