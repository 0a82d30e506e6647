#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lbsim {

// Reads the whole text file at `path` (`what` names its kind in errors:
// "scenario", "gen spec", "sweep slice") front to back, so that a pipe
// works as well as a file, decompressing gzip or zstd content (told by its
// first bytes), and returns the text. Refuses, with an
// InputError of one line naming the file: a directory; more than
// `max_bytes` (checked while reading: nothing larger is ever held); text
// in UTF-16 or UTF-32 (by its byte order mark: lbsim reads UTF-8); a NUL
// byte, with its line and column (a text file holds none; no byte after
// one is silently dropped). `too_large`, when given, is what the error for
// more than `max_bytes` says after the path.
std::string ReadTextFile(const std::string& path, std::string_view what, std::size_t max_bytes,
                         std::string_view too_large = {});

// The message for text that starts with a UTF-16 or UTF-32 byte order mark
// ("UTF-16 (little-endian) text: ..."), or empty when it does not.
std::string WideTextMessage(std::string_view text);

}  // namespace lbsim
