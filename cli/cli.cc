// The command line: CLI11 wiring only; every command lives in its own file.

#include "cli/cli.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <tuple>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include "cli/gen_command.h"
#include "cli/check_command.h"
#include "cli/cli_errors.h"
#include "cli/diff_command.h"
#include "cli/engine_options.h"
#include "cli/import_command.h"
#include "cli/merge_command.h"
#include "cli/replay_command.h"
#include "cli/sweep_command.h"
#include "sim/sweep/sweep.h"
#include "traces/gen/gen_flags.h"
#include "base/errors.h"
#include "base/signal_cleanup.h"
#include "base/number_text.h"
#include "sim/io/output_file.h"
#include "sim/io/printable.h"
#include "sim/io/write_stream.h"

#ifndef LBSIM_VERSION
#define LBSIM_VERSION "0.0.0"
#endif

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim --strategy ll traces/examples/steady_pool.json
  lbsim -s rr,ll traces/examples/mixed_known_unknown.json
  lbsim -s ll -s ll:qps_1m=0 --format json trace.ndjson
  lbsim -s ll --set ll.inflight=2 --decisions decisions.jsonl trace.json
  lbsim -s ll -s 'exec:python3 strategies/external/proxy_strategies.py ll' trace.json
  lbsim -s rr,ll,kv traces/examples/shared_prefixes.json
  lbsim -s rand,p2c:replacement=with --seed 7 trace.json
  zcat big.ndjson.gz | lbsim -s rr,ll -
  lbsim strategies
  lbsim gen --instances 4 --rate 20 --arrivals 1000 --durations exponential:0.5 > t.ndjson
  lbsim -s rr,ll --slots 8 --stale-interval 2 --window 10 t.ndjson
  lbsim -s rr,ll,kv --engine llama-3.1-8b-h100 --signal-interval 0.5 tokens.ndjson
  lbsim check scenarios/ --junit lbsim-check.xml
  lbsim diff today.json candidate.json --share-tol 0.05 --tol latency=10%
  lbsim -s rr,ll --slots 8 --seeds 1,2,3 --fail-on herding --format json -o r.json t.ndjson
  lbsim import --from mooncake --instances 8 mooncake_trace.jsonl -o trace.ndjson
  lbsim sweep -s rr,ll --vary ll.qps_1m=0,0.01 -j 4 a.ndjson b.ndjson
  lbsim sweep -s rr,ll --slots 4 --vary sim.stale_interval=0,1,2 --set sim.stale_delay=0 t.ndjson
  lbsim sweep --shard 2/8 -s ll --vary ll.inflight=1,2,4 -o part2.csv day.ndjson
  lbsim merge -o all.csv part*.csv

Strategy parameters: NAME:KEY=VALUE[:KEY=VALUE...] inline, or --set NAME.KEY=VALUE
for every run of that strategy. `lbsim strategies` lists names, aliases and
parameters with their defaults.

Exit status: 0 success; 1 a checked expectation failed; 2 usage or input error
(one line on stderr naming the file, line or index, field and what was
expected; no output file is written); 3 internal error.)";

constexpr const char* kGenFooter = R"(
Examples:
  lbsim gen --instances 4 --rate 20 --arrivals 1000 --durations exponential:0.5 -o t.ndjson
  lbsim gen traces/gen_specs/every_key.gen.json -o t.ndjson
  lbsim gen scenarios/whatif/cold_start.gen.json --seed 9 --proxy spec > t.ndjson

A gen spec (docs/gen.md) describes the workload; flags given too override it.
Exit status: 0 written; 2 bad spec or flag (one line naming the field; nothing
is written).)";

constexpr const char* kSweepFooter = R"(
Examples:
  lbsim sweep -s rr,ll --vary ll.qps_1m=0,0.01 -j 4 a.ndjson b.ndjson
  lbsim sweep -s p2c --seeds 1,2,3 -f json -o p2c.json day.ndjson
  lbsim sweep --shard 2/8 -s ll --vary ll.inflight=1,2,4 -o part2.csv day.ndjson
  lbsim merge -o all.csv part*.csv

One row per cell: trace x strategy x varied values x seed (docs/sweeps.md).
Exit status: 0 written; 2 bad grid or trace (nothing is written).)";

constexpr const char* kMergeFooter = R"(
Examples:
  lbsim merge -o all.csv part1.csv part2.csv part3.csv
  lbsim merge -o all.json part*.json

The slices must make up one whole sweep, each cell once (docs/sweeps.md).
Exit status: 0 written; 2 foreign, overlapping or missing slices (nothing is
written).)";

constexpr const char* kStrategiesFooter = R"(
Examples:
  lbsim strategies
  lbsim strategies --proxy cacheroute@df8382d)";

constexpr const char* kProxiesFooter = R"(
Examples:
  lbsim proxies
  lbsim --proxy cacheroute@df8382d -s ll traces/examples/stale_snapshot.ndjson)";

constexpr const char* kEnginesFooter = R"(
Examples:
  lbsim engines
  lbsim engines llama-3.1-8b-h100 > my-engine.json
  lbsim -s rr,ll --engine my-engine.json trace.ndjson

The engine model and its configuration file: docs/engine.md.)";

// Accepts a finite number > 0 (or, with `zero_ok`, >= 0), naming what it
// expected otherwise.
CLI::Validator NonNegative(bool zero_ok) {
  return CLI::Validator(
      [zero_ok](std::string& text) -> std::string {
        double x = 0;
        if (ParseFiniteNumber(text, x) && (x > 0 || (zero_ok && x == 0))) return {};
        return fmt::format("expected a number {} 0, got {}", zero_ok ? ">=" : ">", text);
      },
      "");
}
// Accepts an integer written in decimal digits, from `min` to `max`; says
// so otherwise (CLI11 would take "-1" for 2^64-1, and print its own bounds
// in full).
CLI::Validator IntegerFrom(std::uint64_t min, std::uint64_t max, std::string max_text = "") {
  if (max_text.empty()) max_text = fmt::format("{}", max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::uint64_t x = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && x >= min &&
            x <= max)
          return {};
        return fmt::format("expected an integer from {} to {}, got {}", min, max_text, text);
      },
      "");
}
constexpr std::uint64_t kMaxSeed = std::uint64_t{1} << 53;  // what strategies take

constexpr const char* kCheckFooter = R"(
Examples:
  lbsim check scenarios/
  lbsim check scenarios/ties.json --format json
  lbsim check scenarios/ more-scenarios/ --junit lbsim-check.xml

Folders are searched recursively for *.json scenarios (other JSON files, such as
traces or gen specs, are skipped); scenarios run in sorted path order.
A scenario with an exec:COMMAND strategy is refused (exit 2) unless --allow-exec:
COMMAND would run through the shell.
Exit status: 0 every expectation holds; 1 an expectation failed; 2 usage error or
bad scenario/trace (one line on stderr naming the file and key; no JUnit file is
written); 3 internal error.)";

constexpr const char* kDiffFooter = R"(
Examples:
  lbsim -s rr,ll --format json -o base.json trace.json
  lbsim -s rr,ll:qps_1m=0 --format json -o new.json trace.json
  lbsim diff base.json new.json
  lbsim diff --pair round_robin=least_load today.json candidate.json
  lbsim diff --tol latency=10% --tol herding=0.05 --junit diff.xml base.json new.json

Every figure of both reports is compared (shares, fairness, reasons, counts,
herding, latency, waits, utilisation, windows, detectors, warnings), each
against its family's tolerance. Reports made under another trace, Proxy
profile or simulation options are refused unless --allow-different says so.
Exit status: 0 nothing moved beyond its tolerance; 1 something did (marked
FLAGGED); 2 usage error, a file that is not a report, or reports of
different runs.)";

// The single output file a command's --output names, as "--output FILE",
// for Fail's note; none when it writes to standard output (empty or "-").
std::vector<std::string> NamedOutput(const std::string& path) {
  if (IsStandardOutputPath(path)) return {};
  return {"--output " + path};
}

// Prints the error as one line (text from the input is escaped, so it cannot
// break the line or drive the terminal) and, when the run named output
// files, a second line saying that none was written. Returns `status`.
int Fail(const std::string& message, const std::vector<std::string>& unwritten = {},
         std::string_view kind = "error", int status = 2) {
  std::string text = fmt::format("lbsim: {}: {}\n", kind, Printable(message));
  if (!unwritten.empty()) {
    std::string files;
    for (const std::string& f : unwritten) files += (files.empty() ? "" : ", ") + f;
    text += fmt::format("lbsim: no output written ({})\n", Printable(files));
  }
  std::fputs(text.c_str(), stderr);
  return status;
}

// Gives each of standard input, output and error that is closed a
// read-only /dev/null, so that no file lbsim opens takes its number: an
// output file would otherwise receive what goes to standard output. A write
// to a standard output closed this way fails (EBADF) and is reported.
void HoldStandardDescriptors() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) ::open("/dev/null", O_RDONLY);
}

}  // namespace

int RunCli(int argc, char** argv) {
  // From the start: an interrupted run removes its unfinished outputs.
  InstallSignalCleanup();
  HoldStandardDescriptors();
  CLI::App app{
      "lbsim replays a trace of Instance load and request arrivals through "
      "Proxy Instance-selection strategies and reports what each would do.",
      "lbsim"};
  app.footer(kFooter);
  app.set_version_flag("-V,--version", "lbsim " LBSIM_VERSION);
  app.require_subcommand(0, 1);

  ReplayCommand replay;
  bool list_strategies = false;
  app.add_option("trace", replay.trace,
                 "Trace to replay: .json (document), .ndjson/.jsonl (JSON Lines), - (stdin)");
  app.add_option("-s,--strategy", replay.strategies,
                 "Strategy to run, by name or alias, with optional :KEY=VALUE parameters; "
                 "repeat or separate with commas to compare (default: round_robin). "
                 "exec:COMMAND runs an external strategy program (see docs/external-strategies.md); it takes "
                 "the rest of the value, commas included")
      ->allow_extra_args(false)
      ->type_name("SPEC");
  app.add_option("--exec-timeout", replay.exec_timeout,
                 "Seconds an exec:COMMAND strategy may take to answer one decision "
                 "(default 10)")
      ->type_name("SECONDS");
  app.add_option("--set", replay.settings,
                 "Set a strategy parameter for every run of it, e.g. ll.qps_1m=0")
      ->allow_extra_args(false)
      ->type_name("NAME.KEY=VALUE");
  app.add_option("-f,--format", replay.format,
                 "Report format; html writes one self-contained page with charts "
                 "(default: from --output's extension, .json .csv .html .txt, else table)")
      ->check(CLI::IsMember({"table", "json", "csv", "html"}))
      ->default_str("table");
  app.add_option("-o,--output", replay.output,
                 "Write the report to FILE (atomically) instead of standard output")
      ->type_name("FILE");
  app.add_option("--decisions", replay.decisions,
                 "Write the decision log (JSON Lines) to FILE "
                 "(\"-\": standard output, given --output FILE)")
      ->type_name("FILE");
  replay.proxy.AddTo(app);
  app.add_option("--trace-format", replay.trace_format,
                 "Trace encoding when the file name does not tell")
      ->check(CLI::IsMember({"auto", "document", "lines"}))
      ->default_str("auto");
  // What-if simulation (see docs/what-if.md); times in the
  // trace's unit.
  const std::string what_if = "What-if simulation";
  app.add_option("--slots", replay.sim.slots,
                 "Service model: each Instance runs at most K requests at once, the rest wait FIFO")
      ->check(IntegerFrom(1, 1u << 30, "2^30"))
      ->type_name("K")
      ->group(what_if);
  app.add_option("--speed", replay.speeds,
                 "Service speed of an Instance (overrides the trace's speed key); needs --slots")
      ->allow_extra_args(false)
      ->type_name("ID=SPEED")
      ->group(what_if);
  app.add_option("--stale-interval", replay.sim.stale_interval,
                 "Stale metrics: strategies see a snapshot of each inflight counter taken every S")
      ->check(NonNegative(false))
      ->type_name("S")
      ->group(what_if);
  app.add_option("--stale-delay", replay.sim.stale_delay,
                 "Stale metrics: each snapshot becomes visible D after it is taken (default 0)")
      ->check(NonNegative(true))
      ->type_name("D")
      ->group(what_if);
  app.add_option("--stale-jitter", replay.sim.stale_jitter,
                 "Stale metrics: plus a uniform delay in [0, J) per Instance and snapshot, from --seed")
      ->check(NonNegative(true))
      ->type_name("J")
      ->group(what_if);
  CLI::Option* seed_option =
      app.add_option("--seed", replay.sim.seed,
                     "Seed of the randomized strategies (random, power_of_two) unless set per "
                     "strategy, and of the stale-metrics jitter; reports echo it (default 1)")
          ->check(IntegerFrom(0, kMaxSeed, "2^53"))
          ->type_name("N");
  app.add_option("--seeds", replay.seeds,
                 "Replay once per seed (as --seed) and report every figure's median and "
                 "spread [min, max] over them (table or JSON)")
      ->check(IntegerFrom(0, kMaxSeed, "2^53"))
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("S1,S2,...");
  app.add_option("--fail-on", replay.fail_on,
                 "Exit with status 1 when the report raises this warning: warning (any) or "
                 "a warning name (herding, concentration, overload, ...); repeatable")
      ->allow_extra_args(false)
      ->type_name("NAME");
  app.add_option("--threads", replay.threads,
                 "Threads a replay may use: 1 reads and replays on one; with 2 the trace is "
                 "read ahead on the second; with more, three or more strategies are split into "
                 "groups, each replayed on a thread of its own (default: one per usable CPU)")
      ->check(IntegerFrom(1, 256, "256"))
      ->type_name("N");
  app.add_option("--cache-blocks", replay.sim.cache_blocks,
                 "KV-cache capacity of each simulated Instance in blocks, for the prefix hit "
                 "rate; also kv_aware's cache_blocks unless set per strategy (default 4096)")
      ->check(IntegerFrom(1, std::uint64_t{1} << 53, "2^53"))
      ->type_name("N");
  app.add_option("--window", replay.sim.window,
                 "Per-window shares, mean inflight and fallback rate over windows of W")
      ->check(NonNegative(false))
      ->type_name("W")
      ->group(what_if);
  app.add_option("--window-csv", replay.window_csv,
                 "Write the per-window series as CSV to FILE "
                 "(\"-\": standard output, given --output FILE); needs --window")
      ->type_name("FILE")
      ->group(what_if);
  replay.engine.AddTo(app, what_if);
  app.add_option("--engine-log", replay.engine_log,
                 "Write every engine step and served request as JSON Lines to FILE "
                 "(\"-\": standard output, given --output FILE); needs --engine")
      ->type_name("FILE")
      ->group(what_if);
  replay.queue.AddTo(app, what_if);
  app.add_option("--request-log", replay.request_log,
                 "Write each request's arrival, forwarding, first token, end and outcome as "
                 "JSON Lines to FILE (\"-\": standard output, given --output FILE); needs "
                 "--proxy-queue")
      ->type_name("FILE")
      ->group(what_if);
  app.add_flag("--list-strategies", list_strategies,
               "List the registered strategies and their parameters");
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet,
               "Show no progress line (shown on a terminal for replays longer than a second)");

  CLI::App* strategies_cmd = app.add_subcommand(
      "strategies", "List the registered strategies and their parameters, as the Proxy "
                    "(--proxy, default latest) runs them");
  strategies_cmd->footer(kStrategiesFooter);
  ProxyOptions strategies_proxy;
  strategies_proxy.AddTo(*strategies_cmd);
  CLI::App* proxies_cmd = app.add_subcommand(
      "proxies", "List the Proxy versions lbsim replays, what each changed, and its defaults");
  proxies_cmd->footer(kProxiesFooter);
  std::string engine_name;
  CLI::App* engines_cmd = app.add_subcommand(
      "engines", "List the built-in LLM engine configurations (--engine), or print one as a "
                 "configuration file");
  engines_cmd->add_option("name", engine_name, "A built-in engine to print as JSON")
      ->type_name("NAME");
  engines_cmd->footer(kEnginesFooter);

  GenCommand gen;
  CLI::App* gen_cmd = app.add_subcommand(
      "gen", "Generate a trace (JSON Lines) from a gen spec (a JSON file) and/or flags");
  gen_cmd->footer(kGenFooter);
  gen_cmd->add_option("spec", gen.spec,
                      "Gen spec: a JSON file describing the workload (docs/gen.md); flags "
                      "given too override it")
      ->type_name("GEN_SPEC");
  gen_cmd->add_option("-o,--output", gen.output,
                      "Write the trace to FILE (atomically) instead of standard output")
      ->type_name("FILE");
  for (const GenFlagInfo& f : GenFlags()) {
    auto record = [&gen, name = std::string(f.name)](const std::vector<std::string>& values) {
      for (const std::string& v : values) gen.flags.emplace_back(name, v);
    };
    CLI::Option* opt = gen_cmd->add_option_function<std::vector<std::string>>(
        std::string(f.name), record, std::string(f.help));
    opt->type_name(std::string(f.type_name))->allow_extra_args(false);
    if (!f.repeatable) opt->expected(1);
  }
  CheckCommand check;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Run scenario files and check their expectations (exit 1 when one fails)");
  check_cmd->footer(kCheckFooter);
  check_cmd->add_option("paths", check.paths,
                        "Scenario files, or folders searched recursively for *.json")
      ->required()
      ->type_name("PATH");
  check_cmd->add_option("--junit", check.junit,
                        "Also write the results as JUnit XML to FILE (atomically)")
      ->type_name("FILE");
  check_cmd->add_option("--html", check.html,
                        "Also write the results as an HTML page to FILE (atomically), failed "
                        "expectations first")
      ->type_name("FILE");
  check_cmd->add_option("-f,--format", check.format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  check_cmd->add_flag("-q,--quiet", check.quiet,
                      "Text output: print only the failed expectations and the summary");
  check_cmd->add_option("--fail-on", check.fail_on,
                        "Also fail (exit 1) when a scenario's run raises this warning: warning "
                        "(any) or a warning name; repeatable")
      ->allow_extra_args(false)
      ->type_name("NAME");
  check_cmd->add_flag("--allow-exec", check.allow_exec,
                      "Run the exec:COMMAND strategies scenarios name (COMMAND runs through "
                      "the shell: give it only for scenarios you trust)");

  DiffCommand diff;
  CLI::App* diff_cmd = app.add_subcommand(
      "diff", "Compare two JSON reports of the same trace (exit 1 when a change is flagged)");
  diff_cmd->footer(kDiffFooter);
  diff_cmd->add_option("base", diff.base, "Baseline report (lbsim --format json)")
      ->required()
      ->type_name("BASE.json");
  diff_cmd->add_option("new", diff.next, "Report to compare with the baseline")
      ->required()
      ->type_name("NEW.json");
  diff_cmd->add_option("--tol", diff.tols,
                       "Tolerance of a family of figures or of one figure: NAME=ABS, NAME=REL% "
                       "or NAME=ABS,REL% (flagged when the change exceeds both); NAME a family "
                       "(share, fairness, reasons, counts, herding, runs, latency, wait, "
                       "utilisation, inflight, rates, blocks, detectors, engine) or a figure path "
                       "such as "
                       "what_if.service.latency.p99; repeatable")
      ->allow_extra_args(false)
      ->type_name("NAME=TOL");
  diff_cmd->add_option("--share-tol", diff.tolerances.share(),
                       "Same as --tol share=NUMBER: an Instance's share moving by more than this")
      ->check(NonNegative(true))
      ->type_name("NUMBER");
  diff_cmd->add_option("--fairness-tol", diff.tolerances.fairness(),
                       "Same as --tol fairness=NUMBER")
      ->check(NonNegative(true))
      ->type_name("NUMBER");
  diff_cmd->add_option("--reason-tol", diff.tolerances.reasons(),
                       "Same as --tol reasons=NUMBER: a reason count moving by more than this "
                       "fraction of the decisions")
      ->check(NonNegative(true))
      ->type_name("NUMBER");
  diff_cmd->add_option("--engine-tol", diff.tolerances.engine(),
                       "An engine figure (TTFT, TPOT, E2E, queueing delay, tokens/s) moving by "
                       "more than this fraction of its base value (0.05 is --tol engine=5%)")
      ->check(NonNegative(true))
      ->type_name("NUMBER");
  diff_cmd->add_option("--allow-different", diff.allow,
                       "Compare reports made under another trace, Proxy profile or simulation "
                       "options (the what-if options; seeds are never compared) anyway: trace, "
                       "proxy, simulation (repeatable or comma-separated)")
      ->allow_extra_args(false)
      ->type_name("WHAT");
  diff_cmd->add_flag("--beyond-spread", diff.beyond_spread,
                     "Flag a change only when also the reports' [min, max] over their seeds "
                     "(made with --seeds) do not overlap");
  diff_cmd->add_flag("--only-worse", diff.only_worse,
                     "Flag only changes for the worse where a figure has a worse direction "
                     "(latency, waits, herding, runs, inflight, fairness, a warning raised)");
  diff_cmd->add_option("-f,--format", diff.format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  diff_cmd->add_option("--junit", diff.junit,
                       "Also write the comparison as JUnit XML to FILE (atomically)")
      ->type_name("FILE");
  diff_cmd->add_option("--pair", diff.pairs,
                       "Compare strategy BASE_LABEL of BASE with NEW_LABEL of NEW (repeatable); "
                       "default: strategies with the same label")
      ->allow_extra_args(false)
      ->type_name("BASE_LABEL=NEW_LABEL");
  ImportCommand import;
  CLI::App* import_cmd = app.add_subcommand(
      "import", "Convert a public LLM serving trace into a v1 JSON Lines trace");
  import_cmd->footer(R"(
Formats (field mappings in docs/import.md):
  mooncake  JSON Lines: timestamp (ms), input_length, output_length, hash_ids
  azure     CSV: TIMESTAMP (date-time), ContextTokens, GeneratedTokens
  burstgpt  CSV: Timestamp (s), Model, Request tokens, Response tokens, ...
Every request becomes an arrival: t in ms, duration from the token-time
model, prefix_blocks from hash_ids. A malformed row stops the import with
exit status 2 and no output file, unless --skip-bad.)");
  import_cmd->add_option("--from", import.format, "Input format: mooncake, azure or burstgpt")
      ->required()
      ->type_name("FORMAT");
  import_cmd->add_option("input", import.input, "The public trace file, or - for standard input")
      ->required()
      ->type_name("IN");
  import_cmd->add_option("-o,--output", import.output,
                         "Write the trace to OUT (atomically) instead of standard output")
      ->type_name("OUT");
  import_cmd->add_option("--instances", import.instances,
                         "The pool: a count N (inst-1 .. inst-N) or comma-separated ids; "
                         "each starts alive with inflight 0")
      ->required()
      ->type_name("N|IDS");
  import_cmd->add_option("--prefill-ms-per-token", import.prefill_ms_per_token,
                         "Token-time model: milliseconds per input token")
      ->default_str("0.1");
  import_cmd->add_option("--decode-ms-per-token", import.decode_ms_per_token,
                         "Token-time model: milliseconds per output token")
      ->default_str("20");
  import_cmd->add_option("--rate-scale", import.rate_scale,
                         "Divide arrival times by X (2 = twice the request rate)")
      ->default_str("1")
      ->type_name("X");
  import_cmd->add_option("--limit", import.limit, "Write only the first N requests (N >= 1)")
      ->check(IntegerFrom(1, std::numeric_limits<std::uint64_t>::max()))
      ->type_name("N");
  import_cmd->add_flag("--skip-bad", import.skip_bad,
                       "Skip malformed rows and report how many on stderr");
  import_cmd->add_option("--failed", import.failed,
                         "burstgpt: keep (default) or drop failed requests (0 response tokens)")
      ->check(CLI::IsMember({"keep", "drop"}));
  import_cmd->add_option("--name", import.name, "Trace name (default: the input's file name)");
  SweepCommand sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep",
      "Run every combination of strategies x varied parameter values x traces x seeds, "
      "one result row per combination");
  sweep_cmd->footer(kSweepFooter);
  sweep_cmd->add_option("traces", sweep.traces, "Traces to replay")->required();
  sweep_cmd->add_option("-s,--strategy", sweep.strategies,
                        "Strategy spec (repeat or separate with commas; default: round_robin)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("SPEC");
  sweep_cmd->add_option("--set", sweep.settings, "Set a parameter for every run of a strategy")
      ->allow_extra_args(false)
      ->type_name("NAME.KEY=VALUE");
  sweep_cmd->add_option("--vary", sweep.vary,
                        "Run strategy NAME once with each value of parameter KEY, or every "
                        "strategy once with each value of what-if option sim.KEY (slots, "
                        "stale_interval, stale_delay, stale_jitter, window, seed, cache_blocks, "
                        "speed.ID); repeat to vary several: every combination runs")
      ->allow_extra_args(false)
      ->type_name("NAME.KEY=V1,V2,...");
  const std::string sweep_what_if = "What-if simulation (every cell; --set sim.KEY=VALUE too)";
  sweep_cmd->add_option("--slots", sweep.sim.slots, "Service model: K slots per Instance")
      ->check(CLI::Range(1u, 1u << 30).description(""))
      ->type_name("K")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--speed", sweep.speeds, "Service speed of an Instance; needs --slots")
      ->allow_extra_args(false)
      ->type_name("ID=SPEED")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--stale-interval", sweep.sim.stale_interval,
                        "Stale metrics: a snapshot of each inflight counter every S")
      ->check(NonNegative(false))
      ->type_name("S")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--stale-delay", sweep.sim.stale_delay, "Stale metrics: visible D later")
      ->check(NonNegative(true))
      ->type_name("D")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--stale-jitter", sweep.sim.stale_jitter,
                        "Stale metrics: plus a uniform delay in [0, J)")
      ->check(NonNegative(true))
      ->type_name("J")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--window", sweep.sim.window, "Per-window figures over windows of W")
      ->check(NonNegative(false))
      ->type_name("W")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--cache-blocks", sweep.sim.cache_blocks,
                        "KV-cache capacity of each simulated Instance in blocks (default 4096)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 53))
      ->type_name("N")
      ->group(sweep_what_if);
  sweep_cmd->add_option("--seeds", sweep.seeds,
                        "Run each randomized strategy once per seed")
      ->check(IntegerFrom(0, kMaxSeed, "2^53"))
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("S1,S2,...");
  sweep_cmd->add_option("-j,--jobs", sweep.jobs, "Threads to use (default: all cores)")
      ->check(IntegerFrom(1, kMaxSweepJobs));
  sweep_cmd->add_option("--shard", sweep.shard,
                        "Run only slice I of N of the cells (join the slices with lbsim merge)")
      ->type_name("I/N");
  sweep_cmd->add_option("-f,--format", sweep.format,
                        "Output format; html draws heatmaps and a scatter with the Pareto front "
                        "(default: from --output's extension, .json .csv .html, else csv)")
      ->check(CLI::IsMember({"csv", "json", "html"}))
      ->default_str("csv");
  sweep_cmd->add_option("--scatter", sweep.scatter,
                        "html: the two figures to plot against each other, x first (default "
                        "latency_p99,jain with --slots, else herded_decisions,jain)")
      ->type_name("X,Y");
  sweep_cmd->add_option("-o,--output", sweep.output,
                        "Write to FILE (atomically) instead of standard output")
      ->type_name("FILE");
  sweep_cmd->add_option("--trace-format", sweep.trace_format,
                        "Trace encoding when the file names do not tell")
      ->check(CLI::IsMember({"auto", "document", "lines"}))
      ->default_str("auto");
  sweep.proxy.AddTo(*sweep_cmd);
  sweep.engine.AddTo(*sweep_cmd, "What-if simulation");

  MergeCommand merge;
  CLI::App* merge_cmd = app.add_subcommand(
      "merge", "Join the slices written by lbsim sweep --shard into the whole sweep's output");
  merge_cmd->footer(kMergeFooter);
  merge_cmd->add_option("slices", merge.slices, "Slice files (all CSV or all JSON)")->required();
  merge_cmd->add_option("-o,--output", merge.output,
                        "Write to FILE (atomically) instead of standard output")
      ->type_name("FILE");

  if (std::optional<std::string> unknown = UnknownCommand(app, argc, argv))
    return Fail(*unknown + " (see lbsim --help)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) return Fail(DescribeParseError(e, app));
    // --help or --version: printed here, so that a failed write is an error.
    std::ostringstream out, err;
    const int status = app.exit(e, out, err);
    try {
      WriteStandardOutput(out.str());
    } catch (const UsageError& failed) {
      return Fail(failed.what());
    }
    return status;
  }

  std::vector<std::string> unwritten;  // output files a failure leaves unwritten
  // A file name given empty is no file name: refused, never taken for
  // standard output (the default when none is given).
  for (const auto& [app_of, name, value] :
       std::vector<std::tuple<CLI::App*, std::string, const std::string*>>{
           {&app, "--output", &replay.output},     {&app, "--decisions", &replay.decisions},
           {&app, "--window-csv", &replay.window_csv}, {&app, "trace", &replay.trace},
           {gen_cmd, "--output", &gen.output},     {check_cmd, "--junit", &check.junit},
           {import_cmd, "--output", &import.output}, {sweep_cmd, "--output", &sweep.output},
           {merge_cmd, "--output", &merge.output}}) {
    if (app_of->count(name) > 0 && value->empty())
      return Fail(fmt::format("{}: expected a file name, got an empty one{}", name,
                              name == "trace" || name == "--junit" ? ""
                                                                   : " (- is standard output)"));
  }
  try {
    if (proxies_cmd->parsed()) return RunListProxies();
    if (engines_cmd->parsed()) return RunListEngines(engine_name);
    if (strategies_cmd->parsed())
      return RunListStrategies(strategies_proxy.Choice().Resolve(nullptr));
    if (list_strategies) return RunListStrategies(replay.proxy.Choice().Resolve(nullptr));
    if (gen_cmd->parsed()) {
      unwritten = NamedOutput(gen.output);
      return RunGen(gen);
    }
    if (check_cmd->parsed()) {
      if (!check.junit.empty()) unwritten.push_back("--junit " + check.junit);
      if (!check.html.empty()) unwritten.push_back("--html " + check.html);
      return RunCheck(check);
    }
    if (diff_cmd->parsed()) {
      if (!diff.junit.empty()) unwritten = {"--junit " + diff.junit};
      return RunDiff(diff);
    }
    if (import_cmd->parsed()) return RunImport(import);
    if (sweep_cmd->parsed()) {
      sweep.format_given = sweep_cmd->get_option("--format")->count() > 0;
      unwritten = NamedOutput(sweep.output);
      return RunSweepCommand(sweep);
    }
    if (merge_cmd->parsed()) {
      unwritten = NamedOutput(merge.output);
      return RunMergeCommand(merge);
    }
    if (replay.trace.empty())
      return Fail("no trace given: lbsim [OPTIONS] TRACE (see lbsim --help)");
    replay.format_given = app.get_option("--format")->count() > 0;
    unwritten = NamedOutputFiles(replay);
    replay.progress = !quiet && ::isatty(STDERR_FILENO);
    replay.seed_given = seed_option->count() > 0;
    return RunReplay(replay);
  } catch (const InputError& e) {
    return Fail(e.what(), unwritten);
  } catch (const UsageError& e) {
    return Fail(e.what(), unwritten);
  } catch (const StrategyError& e) {
    return Fail(e.what(), unwritten);
  } catch (const std::bad_alloc&) {
    return Fail("out of memory", unwritten);
  } catch (const std::exception& e) {
    return Fail(e.what(), unwritten, "internal error", 3);
  }
}

}  // namespace lbsim
