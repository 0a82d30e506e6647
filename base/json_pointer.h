#pragma once

#include <string>

namespace lbsim {

// `key` as a JSON pointer token (RFC 6901): "~" written "~0", "/" "~1".
std::string JsonPointerToken(const std::string& key);

}  // namespace lbsim
