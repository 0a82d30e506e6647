#pragma once

// One command of the command line, in a file of its own under cli/commands/
// (the layout of CLI11's subcom_in_files example): it declares its options,
// help and footer on the App it is given and runs once the command line has
// been parsed. cli/cli.cc keeps the table of commands and the error ladder.

#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace lbsim {

struct ProxyRun;

// A file-name option of a command, checked before any command runs: a name
// given empty is refused, never taken for standard output.
struct FileOption {
  const CLI::App* app = nullptr;  // where the option is declared
  std::string name;               // "--output", "trace", ...
  const std::string* value = nullptr;
  bool dash_is_stdout = true;     // the refusal adds "(- is standard output)"
};

class Command {
 public:
  virtual ~Command() = default;
  // Declares the command on `app`: a subcommand with its options, help and
  // footer, or (the replay) options of `app` itself.
  virtual void Declare(CLI::App& app) = 0;
  // After parsing: whether the command line asks for this command.
  virtual bool Chosen() const = 0;
  // Its file-name options (see FileOption).
  virtual std::vector<FileOption> FileOptions() const { return {}; }
  // Runs the command and returns its exit status. Before anything can fail
  // it sets `unwritten` to the output files a failure leaves unwritten
  // ("--output FILE"), for the error's second line. Throws UsageError,
  // InputError, StrategyError.
  virtual int Run(std::vector<std::string>& unwritten) = 0;
};

// A subcommand of lbsim (all but the replay): chosen when it was parsed.
class Subcommand : public Command {
 public:
  bool Chosen() const override;

 protected:
  CLI::App* cmd_ = nullptr;  // the subcommand, set by Declare
};

// The single output file a command's --output names, as "--output FILE";
// none when it writes to standard output (empty or "-").
std::vector<std::string> NamedOutput(const std::string& path);

// Prints the strategy registry, as the Proxy `run` runs it, as a table to
// standard output: `lbsim strategies` and the replay's --list-strategies
// (cli/commands/strategies.cc).
int RunListStrategies(const ProxyRun& run);

// The commands, one file each, in the order `lbsim --help` lists them.
std::unique_ptr<Command> MakeStrategiesCommand();  // lbsim strategies
std::unique_ptr<Command> MakeProxiesCommand();     // lbsim proxies
std::unique_ptr<Command> MakeEnginesCommand();     // lbsim engines
std::unique_ptr<Command> MakeEnginesFitCommand();  // lbsim engines fit (declared by engines)
std::unique_ptr<Command> MakeReplayCommand();      // lbsim [OPTIONS] TRACE
std::unique_ptr<Command> MakeGenCommand();         // lbsim gen
std::unique_ptr<Command> MakeCheckCommand();       // lbsim check
std::unique_ptr<Command> MakeDiffCommand();        // lbsim diff
std::unique_ptr<Command> MakeImportCommand();      // lbsim import
std::unique_ptr<Command> MakeSweepCommand();       // lbsim sweep
std::unique_ptr<Command> MakeMergeCommand();       // lbsim merge
std::unique_ptr<Command> MakeCompletionsCommand(); // lbsim completions

}  // namespace lbsim
