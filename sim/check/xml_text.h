#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// `text` escaped for an XML attribute value or, with `attribute` false,
// character data (where line breaks stay as they are). Characters XML 1.0
// cannot carry (controls other than tab, newline, return) become '?'.
std::string XmlText(std::string_view text, bool attribute = true);

}  // namespace lbsim
