#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lbsim {

// The format an output file's name asks for: .json -> json, .csv -> csv,
// .html/.htm -> html, .txt -> table; nullopt for any other name (and for
// standard output, "" or "-").
std::optional<std::string> FormatFromExtension(std::string_view path);

// The format to write: `given` when -f/--format was given, else the one
// `output`'s extension asks for when it is among `known`, else `fallback`.
std::string ChooseFormat(const std::optional<std::string>& given, std::string_view output,
                         std::span<const std::string_view> known, std::string_view fallback);

}  // namespace lbsim
