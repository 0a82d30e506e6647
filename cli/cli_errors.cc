#include "cli/cli_errors.h"

#include <sys/stat.h>

#include <algorithm>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/did_you_mean.h"

namespace lbsim {
namespace {

// The subcommand being parsed: the deepest one CLI11 selected, else `app`.
const CLI::App& Innermost(const CLI::App& app) {
  const CLI::App* at = &app;
  for (;;) {
    std::vector<const CLI::App*> parsed;
    for (const CLI::App* sub : at->get_subcommands({})) if (sub->parsed()) parsed.push_back(sub);
    if (parsed.empty()) return *at;
    at = parsed.front();
  }
}

// "lbsim" or "lbsim sweep".
std::string CommandName(const CLI::App& app) {
  std::string name = app.get_name();
  for (const CLI::App* p = app.get_parent(); p; p = p->get_parent()) name = p->get_name() + " " + name;
  return name;
}

// Every long and short option name of `app` ("--slots", "-s").
std::vector<std::string> OptionNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

}  // namespace

std::optional<std::string> UnknownCommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  const std::string word = argv[1];
  if (word.empty() || word[0] == '-') return std::nullopt;
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == word) return std::nullopt;
    commands.push_back(sub->get_name());
  }
  struct stat st {};
  if (::stat(word.c_str(), &st) == 0) return std::nullopt;  // a trace, however named
  std::optional<std::string> guess = DidYouMean(word, commands);
  // A command word inflected ("strategy" for "strategies", "proxy" for
  // "proxies"): all but its last two letters, and at least four, begin a
  // command.
  const std::size_t stem = std::max<std::size_t>(4, word.size() >= 2 ? word.size() - 2 : 0);
  if (!guess && word.size() >= 5)
    for (const std::string& c : commands)
      if (c.size() >= stem && c.compare(0, stem, word, 0, stem) == 0) {
        guess = c;
        break;
      }
  if (!guess) return std::nullopt;
  return fmt::format("unknown command '{}' (did you mean '{}'?)", word, *guess);
}

std::string DescribeParseError(const CLI::ParseError& error, const CLI::App& app) {
  const CLI::App& where = Innermost(app);
  std::string message = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
    // "The following argument(s) was/were not expected: A B": name the
    // first unknown option, with a guess, or the first stray argument.
    std::istringstream words(message.substr(message.find(':') + 1));
    std::vector<std::string> extras;
    for (std::string w; words >> w;) extras.push_back(w);
    auto option = std::find_if(extras.begin(), extras.end(),
                               [](const std::string& w) { return w.size() > 1 && w[0] == '-'; });
    if (option != extras.end()) {
      const std::string name = option->substr(0, option->find('='));
      std::optional<std::string> guess = DidYouMean(name, OptionNames(where));
      message = guess ? fmt::format("unknown option '{}' (did you mean '{}'?)", name, *guess)
                      : fmt::format("unknown option '{}'", name);
    } else if (!extras.empty()) {
      message = fmt::format("unexpected argument '{}'", extras.front());
    }
  }
  return fmt::format("{} (see {} --help)", message, CommandName(where));
}

}  // namespace lbsim
