#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// The format a command writes: `format` when -f gave one, else the one the
// output file's name implies (".html" or ".htm", any case: html), else
// `fallback`. The one place an extension picks a format.
std::string OutputFormat(const std::string& format, std::string_view output,
                         std::string_view fallback);

}  // namespace lbsim
