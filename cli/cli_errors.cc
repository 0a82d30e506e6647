#include "cli/cli_errors.h"

#include <sys/stat.h>

#include <algorithm>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace lbsim {
namespace {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

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

std::optional<std::string> DidYouMean(std::string_view word,
                                      const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const std::string& c : candidates) {
    const std::size_t d = EditDistance(word, c);
    if (d < best_distance && 2 * d < word.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

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
