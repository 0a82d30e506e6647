// `lbsim completions SHELL`: the shell completion script for bash, zsh or
// fish, made from the commands and options as declared, so that it never
// lists an option lbsim does not have.

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/split_text.h"
#include "cli/commands/command.h"
#include "cli/completion_script.h"
#include "sim/io/output_file.h"
#include "sim/replay/engine_config.h"
#include "strategies/proxy_profile.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim completions bash > ~/.local/share/bash-completion/completions/lbsim
  lbsim completions zsh -o ~/.zfunc/_lbsim
  lbsim completions fish > ~/.config/fish/completions/lbsim.fish

The Debian package installs all three where each shell looks (docs/install.md).)";

// The first sentence of an option's help, for fish's descriptions.
std::string FirstSentence(std::string_view help) {
  std::size_t end = help.size();
  for (std::string_view stop : {". ", "; ", " (", ": "})
    end = std::min(end, help.find(stop));
  std::string out(help.substr(0, end));
  if (out.size() > 72) out = out.substr(0, 69) + "...";
  return out;
}

// The built-in engines' names, as values of `out`.
void AddEngineNames(CompletedOption& out) {
  for (const EngineConfig& e : BuiltinEngines()) out.values.push_back(e.name);
}

// The values an option takes from a set: its CLI::IsMember validator's
// "{a,b,c}", or lbsim's own lists for strategies, engines and Proxies.
void AddValues(CLI::Option& option, CompletedOption& out) {
  const std::vector<std::string>& long_names = option.get_lnames();
  const std::string name = long_names.empty() ? "" : "--" + long_names.front();
  if (name == "--strategy") {
    for (const StrategyInfo& s : StrategyRegistry::Builtin().All()) {
      out.values.emplace_back(s.name);
      for (std::string_view alias : s.aliases) out.values.emplace_back(alias);
    }
    out.comma_list = true;
    return;
  }
  if (name == "--engine") {
    AddEngineNames(out);
    out.also_files = true;
    return;
  }
  if (name == "--proxy") {
    for (const ProxyProfile& p : ProxyProfiles()) out.values.emplace_back(p.name);
    return;
  }
  for (int i = 0;; ++i) {
    CLI::Validator* validator = nullptr;
    try {
      validator = option.get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      return;
    }
    const std::string set = validator->get_description();
    if (set.size() < 2 || set.front() != '{' || set.back() != '}') continue;
    for (std::string_view value : SplitAt(std::string_view(set).substr(1, set.size() - 2), ','))
      out.values.emplace_back(value);
    return;
  }
}

// Adds `app` (chosen by the words `path`) and its subcommands to `out`.
void Describe(CLI::App& app, const std::string& path, std::vector<CompletedCommand>& out) {
  CompletedCommand command;
  command.path = path;
  command.help = FirstSentence(app.get_description());
  std::vector<CLI::App*> subcommands = app.get_subcommands([](CLI::App*) { return true; });
  for (CLI::App* sub : subcommands) command.commands.push_back(sub->get_name());
  for (CLI::Option* option : app.get_options()) {
    if (!option->nonpositional()) {
      // A positional argument: a value from its set (the shell of
      // `completions`), a built-in engine's name (`engines NAME`), or files.
      CompletedOption argument;
      AddValues(*option, argument);
      if (path == "engines") AddEngineNames(argument);
      command.arguments.insert(command.arguments.end(), argument.values.begin(),
                               argument.values.end());
      command.takes_files = command.takes_files || argument.values.empty();
      continue;
    }
    CompletedOption o;
    for (const std::string& s : option->get_snames()) o.names.push_back("-" + s);
    for (const std::string& l : option->get_lnames()) o.names.push_back("--" + l);
    o.help = FirstSentence(option->get_description());
    o.takes_value = option->get_items_expected_max() > 0;
    if (o.takes_value) AddValues(*option, o);
    command.options.push_back(std::move(o));
  }
  out.push_back(std::move(command));
  for (CLI::App* sub : subcommands)
    Describe(*sub, SubcommandPath(path, sub->get_name()), out);
}

class CompletionsCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    root_ = &app;
    cmd_ = app.add_subcommand("completions",
                              "Print the shell completion script for bash, zsh or fish");
    cmd_->footer(kFooter);
    cmd_->add_option("shell", shell_, "The shell: bash, zsh or fish")
        ->required()
        ->check(CLI::IsMember({"bash", "zsh", "fish"}));
    cmd_->add_option("-o,--output", output_,
                     "Write to FILE (atomically) instead of standard output")
        ->type_name("FILE");
  }
  std::vector<FileOption> FileOptions() const override {
    return {{cmd_, "--output", &output_}};
  }
  int Run(std::vector<std::string>& unwritten) override {
    unwritten = NamedOutput(output_);
    OutputTarget target(output_);
    std::vector<CompletedCommand> commands;
    Describe(*root_, "", commands);
    target.Write(shell_ == "bash"  ? BashCompletion(commands)
                 : shell_ == "zsh" ? ZshCompletion(commands)
                                   : FishCompletion(commands));
    return 0;
  }

 private:
  CLI::App* root_ = nullptr;
  std::string shell_;
  std::string output_;
};

}  // namespace

std::unique_ptr<Command> MakeCompletionsCommand() { return std::make_unique<CompletionsCli>(); }

}  // namespace lbsim
