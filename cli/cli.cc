// The command line: the program's help, the table of commands (one file
// each under cli/commands/) and the error ladder that turns what a command
// throws into one line on stderr and an exit status.

#include "cli/cli.h"

#include <cerrno>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/signal_cleanup.h"
#include "cli/cli_errors.h"
#include "cli/commands/command.h"
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

// The commands, in the order `lbsim --help` lists the subcommands, which is
// also the order they are asked whether the command line chose them: the
// listings first, then the replay (which also answers --list-strategies),
// then the other subcommands. A new command is one file under
// cli/commands/ and one line here.
std::vector<std::unique_ptr<Command>> Commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(MakeStrategiesCommand());
  commands.push_back(MakeProxiesCommand());
  commands.push_back(MakeEnginesCommand());
  commands.push_back(MakeReplayCommand());
  commands.push_back(MakeGenCommand());
  commands.push_back(MakeCheckCommand());
  commands.push_back(MakeDiffCommand());
  commands.push_back(MakeImportCommand());
  commands.push_back(MakeSweepCommand());
  commands.push_back(MakeMergeCommand());
  commands.push_back(MakeCompletionsCommand());
  return commands;
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
  // Set before any subcommand is declared: subcommands inherit the footer
  // (each sets its own) and at most one subcommand.
  app.footer(kFooter);
  app.set_version_flag("-V,--version", "lbsim " LBSIM_VERSION);
  app.require_subcommand(0, 1);
  const std::vector<std::unique_ptr<Command>> commands = Commands();
  for (const std::unique_ptr<Command>& command : commands) command->Declare(app);

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

  // A file name given empty is no file name: refused, never taken for
  // standard output (the default when none is given).
  for (const std::unique_ptr<Command>& command : commands)
    for (const FileOption& file : command->FileOptions())
      if (file.app->count(file.name) > 0 && file.value->empty())
        return Fail(fmt::format("{}: expected a file name, got an empty one{}", file.name,
                                file.dash_is_stdout ? " (- is standard output)" : ""));
  std::vector<std::string> unwritten;  // output files a failure leaves unwritten
  try {
    for (const std::unique_ptr<Command>& command : commands)
      if (command->Chosen()) return command->Run(unwritten);
    return 0;  // not reached: with no subcommand, the replay is chosen
  } catch (const InputError& e) {
    return Fail(e.what(), unwritten);
  } catch (const UsageError& e) {
    return Fail(e.what(), unwritten);
  } catch (const StrategyError& e) {
    return Fail(e.what(), unwritten);
  } catch (const NotComparableError& e) {
    return Fail(e.what(), unwritten, "not comparable", 4);
  } catch (const std::bad_alloc&) {
    return Fail("out of memory", unwritten);
  } catch (const std::exception& e) {
    return Fail(e.what(), unwritten, "internal error", 3);
  }
}

}  // namespace lbsim
