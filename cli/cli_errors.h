#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace lbsim {

// "unknown command 'chek' (did you mean 'check'?)" when the first argument
// looks like a mistyped subcommand of `app` (it is no subcommand, no
// option and names no file); nullopt otherwise.
std::optional<std::string> UnknownCommand(const CLI::App& app, int argc, char** argv);

// One line for a command-line error CLI11 raised while parsing `app`: an
// unknown option says which one and what it may have meant, and every
// message ends by naming the help of the (sub)command being parsed, e.g.
// "(see lbsim sweep --help)".
std::string DescribeParseError(const CLI::ParseError& error, const CLI::App& app);

}  // namespace lbsim
