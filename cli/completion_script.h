#pragma once

// Shell completion scripts for lbsim, rendered from a plain description of
// its command line (cli/commands/completions.cc builds that description
// from the declared commands, so the scripts never drift from them).

#include <string>
#include <vector>

namespace lbsim {

// One option of a command, as a shell completes it.
struct CompletedOption {
  std::vector<std::string> names;   // "-s", "--strategy"
  std::string help;                 // its help's first sentence, for fish
  bool takes_value = false;         // a value follows it (else a flag)
  std::vector<std::string> values;  // the values to offer (none: file names)
  bool also_files = false;          // file names too (--engine NAME or FILE)
  bool comma_list = false;          // values may be joined by commas (-s rr,ll)
};

// One command: the replay (path empty) or a subcommand ("gen", "engines fit").
struct CompletedCommand {
  std::string path;                  // words after "lbsim" that choose it
  std::string help;                  // one line, for fish
  std::vector<std::string> commands; // its subcommands' names
  std::vector<CompletedOption> options;
  std::vector<std::string> arguments; // the values its positional arguments take
  bool takes_files = false;          // its positional arguments are file names
};

// The path of `path`'s subcommand `word` ("engines" + "fit": "engines fit").
std::string SubcommandPath(const std::string& path, const std::string& word);

// The scripts, each complete and self-contained. `commands` lists the
// replay first, then every subcommand after its parent.
std::string BashCompletion(const std::vector<CompletedCommand>& commands);
// zsh: the bash script through zsh's bashcompinit, as an autoloaded
// completion function file (#compdef).
std::string ZshCompletion(const std::vector<CompletedCommand>& commands);
std::string FishCompletion(const std::vector<CompletedCommand>& commands);

}  // namespace lbsim
