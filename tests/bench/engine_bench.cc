// The LLM engine model's speed (issues 20 and 56): engine steps and
// request-steps per second of `lbsim --engine` through 16 Instances of the
// default engine, side by side on three shapes:
//   - Mooncake-shaped (prompts of about 7.6k tokens with 512-token prefix
//     blocks, Zipf-shared prefixes, answers of about 180 tokens) at --rate;
//   - the same trace without its prefix blocks (what the ids cost: reading
//     them and the cache's units);
//   - chatbot-shaped (`lbsim gen --tokens chatbot`) at --chat-rate, without
//     and with `lbsim gen --prefixes 50:8:0.8`'s prefix ids (16-token
//     blocks, the generator's default: one-block units);
// and the first shape's peak memory on a trace ten times longer (it must
// stay flat).
//
// Usage: engine_bench LBSIM [--requests 100000] [--rate 55] [--chat-rate 400]
//                           [--runs 3] [--strategies rr] [--dir /tmp] [--long 1]
//
// Steps are the engines' (the report's what_if.engine.steps, summed over
// the strategy runs); the time is the whole process's (reading, deciding,
// the engines and the report), so the figures are what a user gets.

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_args.h"
#include "bench_process.h"
#include "traces/gen/gen_spec.h"
#include "traces/gen/trace_generator.h"

using namespace lbsim::bench;

namespace {

// What every shape shares: 16 Instances, Poisson arrivals, one seed.
lbsim::GenSpec Workload(const char* name, std::uint64_t requests, double rate) {
  lbsim::GenSpec spec;
  spec.name = name;
  spec.instances = 16;
  spec.arrivals = requests;
  spec.rate = rate;
  spec.seed = 20;
  return spec;
}

// A Mooncake-shaped workload: the published trace's means (input 7590,
// output 182 tokens), hash blocks of 512 tokens, a fifth of the prompts
// without a shared prefix.
lbsim::GenSpec MooncakeShaped(std::uint64_t requests, double rate, bool prefixes) {
  lbsim::GenSpec spec =
      Workload(prefixes ? "mooncake-shaped" : "mooncake-shaped-no-prefix", requests, rate);
  spec.tokens = lbsim::TokenSpec{
      {{lbsim::DurationKind::kLognormal, 7590, 0.9}, 16, 32768},
      {{lbsim::DurationKind::kLognormal, 182, 0.7}, 1, 2048}};
  if (prefixes)
    spec.prefixes = {.groups = 400, .blocks = 8, .block_tokens = 512, .share = 0.8, .zipf = 1.0};
  return spec;
}

// A chatbot-shaped workload: `lbsim gen --tokens chatbot`'s token counts,
// with `--prefixes 50:8:0.8` when `prefixes`.
lbsim::GenSpec ChatbotShaped(std::uint64_t requests, double rate, bool prefixes) {
  lbsim::GenSpec spec =
      Workload(prefixes ? "chatbot-shaped-16-token-ids" : "chatbot-shaped", requests, rate);
  spec.tokens = *lbsim::FindTokenPreset("chatbot");
  if (prefixes)
    spec.prefixes = {.groups = 50, .blocks = 8, .block_tokens = 16, .share = 0.8, .zipf = 1.0};
  return spec;
}

std::string Write(const std::string& dir, const lbsim::GenSpec& spec) {
  const std::string path =
      fmt::format("{}/lbsim-engine-bench-{}-{}.ndjson", dir, spec.name, spec.arrivals);
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) {
    fmt::print(stderr, "cannot write {}\n", path);
    std::exit(2);
  }
  lbsim::GenerateTrace(spec, out);
  std::fclose(out);
  return path;
}

struct Figures {
  double steps = 0;
  double served = 0;
  double ttft_p50 = 0;
  double batch_mean = 0;
};

// Request-steps: every request's place in every step (the sum of the
// steps' batch sizes), from the engine log of one untimed run.
double RequestSteps(const std::string& log) {
  std::ifstream in(log);
  double sum = 0;
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j["type"] == "step") sum += static_cast<double>(j["batch"].size());
  }
  return sum;
}

Figures Read(const std::string& report) {
  std::ifstream in(report);
  const nlohmann::json j = nlohmann::json::parse(in);
  Figures f;
  for (const auto& s : j["strategies"]) {
    const auto& e = s["what_if"]["engine"];
    f.steps += e["steps"].get<double>();
    f.served += e["served"].get<double>();
    f.ttft_p50 = e["ttft"]["p50"].get<double>();
    f.batch_mean = e["batch"]["mean"].get<double>();
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  BenchArgs args(argc, argv,
                 {{"requests", "100000"}, {"rate", "55"}, {"chat-rate", "400"}, {"runs", "3"},
                  {"strategies", "rr"}, {"dir", "/tmp"}, {"long", "1"}},
                 "engine_bench LBSIM [--requests N] [--rate R] [--chat-rate R] [--runs R] "
                 "[--strategies S] [--dir DIR] [--long 0|1]");
  const std::uint64_t requests = args.Number("requests");
  const double rate = std::stod(args.Text("rate"));
  const double chat_rate = std::stod(args.Text("chat-rate"));
  const int runs = static_cast<int>(args.Number("runs"));
  const std::string report = args.Text("dir") + "/lbsim-engine-bench-report.json";

  // Peak RSS, and that of the same replay without the engine for scale:
  // reading a trace of long prefix_blocks arrays takes memory that grows
  // towards a bound of its own (the read-ahead ring's events keep their
  // arrays' capacity), so compare long runs (1M against 10M requests).
  auto measure = [&](const lbsim::GenSpec& spec) {
    const std::uint64_t n = spec.arrivals;
    const std::string trace = Write(args.Text("dir"), spec);
    const Sample cost = Median({args.lbsim(), "-q", "-s", args.Text("strategies"), "--engine",
                                "llama-3.1-8b-h100", "--format", "json", "-o", report, trace},
                               runs);
    const Figures f = Read(report);
    const std::string log = args.Text("dir") + "/lbsim-engine-bench-log.jsonl";
    Median({args.lbsim(), "-q", "-s", args.Text("strategies"), "--engine", "llama-3.1-8b-h100",
            "--engine-log", log, "-o", "/dev/null", trace},
           1);
    const double request_steps = RequestSteps(log);
    std::remove(log.c_str());
    const Sample plain = Median({args.lbsim(), "-q", "-s", args.Text("strategies"), "--format",
                                 "json", "-o", report, trace},
                                runs);
    std::remove(trace.c_str());
    std::remove(report.c_str());
    fmt::print("{:<27} {:>9} requests {:>10} wall {:>10} cpu {:>10.0f} steps {:>5.2f} M steps/s "
               "({:.2f} M per cpu s), {:>5.1f} M request-steps/s ({:.1f} ns each) {:>7.0f} "
               "requests/s; peak RSS {:.1f} MiB (without the engine {:.1f} MiB); ttft p50 "
               "{:.3f} s, mean batch {:.1f} ({:.1f} requests a step)\n",
               spec.name, n, Seconds(cost.seconds), Seconds(cost.cpu_seconds), f.steps,
               f.steps / cost.seconds / 1e6, f.steps / cost.cpu_seconds / 1e6,
               request_steps / cost.seconds / 1e6, cost.seconds / request_steps * 1e9,
               f.served / cost.seconds, cost.max_rss_kib / 1024.0, plain.max_rss_kib / 1024.0,
               f.ttft_p50, f.batch_mean, request_steps / f.steps);
    return cost.max_rss_kib / 1024.0;
  };
  fmt::print("lbsim -s {} --engine llama-3.1-8b-h100 through 16 Instances: Mooncake-shaped at "
             "{}/s and chatbot-shaped at {}/s, each with and without prefix blocks; median of {} "
             "runs\n\n",
             args.Text("strategies"), rate, chat_rate, runs);
  const double base = measure(MooncakeShaped(requests, rate, true));
  measure(MooncakeShaped(requests, rate, false));
  measure(ChatbotShaped(requests, chat_rate, false));
  measure(ChatbotShaped(requests, chat_rate, true));
  if (args.Number("long")) {
    const double longer = measure(MooncakeShaped(requests * 10, rate, true));
    fmt::print("\npeak RSS at {} requests / at {} requests = {:.1f} / {:.1f} MiB = {:.3f}x\n",
               requests * 10, requests, longer, base, longer / base);
  }
  return 0;
}
