#include "cli/completion_script.h"

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace lbsim {
namespace {

std::string Joined(const std::vector<std::string>& words, std::string_view separator = " ") {
  return fmt::format("{}", fmt::join(words, separator));
}

// A bash case pattern matching "PATH|WORD" for each of `words`.
std::string CasePatterns(const std::string& path, const std::vector<std::string>& words) {
  std::vector<std::string> patterns;
  for (const std::string& w : words) patterns.push_back(fmt::format("\"{}|{}\"", path, w));
  return Joined(patterns, "|");
}

std::vector<std::string> OptionNames(const CompletedCommand& c, bool with_value) {
  std::vector<std::string> names;
  for (const CompletedOption& o : c.options)
    if (!with_value || o.takes_value) names.insert(names.end(), o.names.begin(), o.names.end());
  return names;
}

// The bash function `name` and its helper; shared by bash and zsh.
std::string BashFunctions(const std::vector<CompletedCommand>& commands, std::string_view name) {
  std::string walk;    // the words before the cursor choose a command
  std::string values;  // the word after an option that takes a value
  std::string options; // a word starting with '-'
  std::string words;   // any other word
  for (const CompletedCommand& c : commands) {
    for (const std::string& sub : c.commands)
      walk += fmt::format("      \"{}|{}\") path=\"{}\" ;;\n", c.path, sub,
                          SubcommandPath(c.path, sub));
    if (!OptionNames(c, true).empty())
      walk += fmt::format("      {}) skip=1 ;;\n", CasePatterns(c.path, OptionNames(c, true)));
    for (const CompletedOption& o : c.options) {
      if (!o.takes_value) continue;
      std::string action;
      if (o.values.empty()) {
        action = "_lbsim_files";
      } else {
        action = fmt::format("_lbsim_offer \"{}\" {}", Joined(o.values),
                             o.comma_list ? "comma" : "single");
        if (o.also_files) action += "; _lbsim_files";
      }
      values += fmt::format("    {}) {} ;;\n", CasePatterns(c.path, o.names), action);
    }
    options += fmt::format("    \"{}\") _lbsim_offer \"{}\" single ;;\n", c.path,
                           Joined(OptionNames(c, false)));
    std::vector<std::string> offered = c.commands;
    offered.insert(offered.end(), c.arguments.begin(), c.arguments.end());
    std::string action = offered.empty() ? std::string("COMPREPLY=()")
                                         : fmt::format("_lbsim_offer \"{}\" single",
                                                       Joined(offered));
    if (c.takes_files) action += "; _lbsim_files";
    words += fmt::format("    \"{}\") {} ;;\n", c.path, action);
  }
  return fmt::format(R"(# Offers the words of $1 that start with the current word; with "comma",
# the part after the current word's last comma (-s rr,l -> rr,ll).
_lbsim_offer() {{
  local pre= last=$cur
  if [[ $2 == comma && $cur == *,* ]]; then pre=${{cur%,*}},; last=${{cur##*,}}; fi
  COMPREPLY+=($(compgen -P "$pre" -W "$1" -- "$last"))
}}
# Offers file names.
_lbsim_files() {{
  COMPREPLY+=($(compgen -f -- "$cur"))
  type compopt >/dev/null 2>&1 && compopt -o filenames
}}
{}() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev= path= w i skip=0
  COMPREPLY=()
  ((COMP_CWORD > 0)) && prev=${{COMP_WORDS[COMP_CWORD-1]}}
  # --option=value: bash splits the word at '='.
  if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
    prev=${{COMP_WORDS[COMP_CWORD-2]}}; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${{COMP_WORDS[i]}}
    if ((skip)); then skip=0; [[ $w == = ]] && skip=1; continue; fi
    case "$path|$w" in
{}    esac
  done
  case "$path|$prev" in
{}  esac
  ((${{#COMPREPLY[@]}})) && return 0
  if [[ $cur == -* ]]; then
    case "$path" in
{}    esac
    return 0
  fi
  case "$path" in
{}  esac
  return 0
}}
)",
                     name, walk, values, options, words);
}

// A fish single-quoted string.
std::string FishQuoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

std::string SubcommandPath(const std::string& path, const std::string& word) {
  return path.empty() ? word : path + " " + word;
}

std::string BashCompletion(const std::vector<CompletedCommand>& commands) {
  return "# bash completion for lbsim, written by `lbsim completions bash`.\n"
         "# Installed as /usr/share/bash-completion/completions/lbsim, or sourced.\n" +
         BashFunctions(commands, "_lbsim") + "complete -F _lbsim lbsim\n";
}

std::string ZshCompletion(const std::vector<CompletedCommand>& commands) {
  return "#compdef lbsim\n"
         "# zsh completion for lbsim, written by `lbsim completions zsh`: lbsim's bash\n"
         "# completion, run by zsh's bashcompinit. Installed as _lbsim in a folder of\n"
         "# $fpath (Debian: /usr/share/zsh/vendor-completions).\n"
         "autoload -U +X bashcompinit && bashcompinit\n" +
         BashFunctions(commands, "_lbsim_bash") +
         "complete -F _lbsim_bash lbsim\n"
         "# Loaded by the first completion of lbsim: answer that one too.\n"
         "[[ ${funcstack[1]} == _lbsim ]] && _bash_complete -F _lbsim_bash\n";
}

std::string FishCompletion(const std::vector<CompletedCommand>& commands) {
  std::string walk;
  for (const CompletedCommand& c : commands) {
    for (const std::string& sub : c.commands)
      walk += fmt::format("            case {}\n                set path {}\n",
                          FishQuoted(c.path + "|" + sub),
                          FishQuoted(SubcommandPath(c.path, sub)));
    std::vector<std::string> patterns;
    for (const std::string& n : OptionNames(c, true)) patterns.push_back(FishQuoted(c.path + "|" + n));
    if (!patterns.empty())
      walk += fmt::format("            case {}\n                set skip 1\n", Joined(patterns));
  }
  std::string rules;
  for (const CompletedCommand& c : commands) {
    const std::string at = fmt::format("-n \"__lbsim_at '{}'\"", c.path);
    if (!c.takes_files) rules += fmt::format("complete -c lbsim {} -f\n", at);
    for (const std::string& word : c.commands) {
      const std::string path = SubcommandPath(c.path, word);
      std::string help;
      for (const CompletedCommand& sub : commands)
        if (sub.path == path) help = sub.help;
      rules += fmt::format("complete -c lbsim {} -a {} -d {}\n", at, FishQuoted(word),
                           FishQuoted(help));
    }
    if (!c.arguments.empty())
      rules += fmt::format("complete -c lbsim {} -a {}\n", at, FishQuoted(Joined(c.arguments)));
    for (const CompletedOption& o : c.options) {
      std::string line = "complete -c lbsim " + at;
      for (const std::string& n : o.names) {
        if (n.starts_with("--")) line += " -l " + FishQuoted(n.substr(2));
        else if (n.size() == 2) line += " -s " + FishQuoted(n.substr(1));
        else line += " -o " + FishQuoted(n.substr(1));
      }
      if (o.takes_value) {
        line += " -r";
        if (!o.values.empty()) line += " -a " + FishQuoted(Joined(o.values));
        line += o.values.empty() || o.also_files ? " -F" : " -f";
      }
      rules += line + " -d " + FishQuoted(o.help) + "\n";
    }
  }
  return fmt::format(R"(# fish completion for lbsim, written by `lbsim completions fish`.
# Installed as /usr/share/fish/vendor_completions.d/lbsim.fish, or sourced.
complete -c lbsim -e
# The command the words before the cursor choose ("" for the replay).
function __lbsim_path
    set -l path ''
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch "$path|$w"
{}        end
    end
    echo $path
end
function __lbsim_at
    set -l path (__lbsim_path)
    test "$path" = "$argv[1]"
end
{})",
                     walk, rules);
}

}  // namespace lbsim
