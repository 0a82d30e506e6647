#pragma once

#include <string>
#include <string_view>

namespace lbsim {

// `text` for HTML, in an element or a quoted attribute value: first made
// Printable (control characters and bytes that are not UTF-8 shown as
// escapes, so hostile input cannot break a line or the page's encoding),
// then & < > " ' written as character references.
std::string HtmlText(std::string_view text);

// A file path as HtmlText, with a line-break opportunity (<wbr>) after each
// '/', for an element of class "path": a narrow table breaks the path
// between its folders, never inside a name.
std::string HtmlPath(std::string_view path);

// `x` with `decimals` digits after the point ("0.50", "12"), never "-0";
// from 10^15 on (and inf, nan) six significant digits ("1.79769e+308").
std::string FixedText(double x, int decimals);

// A whole self-contained page: <!DOCTYPE html>, a head with `title`
// (escaped here) and lbsim's one style sheet (light and dark colour
// schemes, print rules, the chart palette), and `body`, which must be
// HTML already. No script and no external resource. Ends in "\n".
std::string HtmlPage(std::string_view title, std::string_view body);

}  // namespace lbsim
