// Printable (sim/io/printable.h): what a terminal or a CI log shows of text
// from hostile input can neither break a line, drive the terminal, nor
// reorder or hide what is around it.

#include <doctest/doctest.h>

#include <string>

#include "sim/io/printable.h"

namespace lbsim {
namespace {

TEST_CASE("printable: control characters become escapes") {
  CHECK(Printable("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(Printable(std::string("\0\x01\x1b[31m\x7f", 8)) == "\\u0000\\u0001\\u001b[31m\\u007f");
  CHECK(Printable("\xc2\x9b" "2J") == "\\u009b2J");  // C1 CSI
}

TEST_CASE("printable: bidi and other format characters become escapes") {
  CHECK(Printable("a\xe2\x80\xae" "b") == "a\\u202eb");      // RIGHT-TO-LEFT OVERRIDE
  CHECK(Printable("\xe2\x80\xaa\xe2\x80\xac") == "\\u202a\\u202c");
  CHECK(Printable("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u2066x\\u2069");  // isolates
  CHECK(Printable("\xe2\x80\x8e\xe2\x80\x8f") == "\\u200e\\u200f");    // LRM, RLM
  CHECK(Printable("\xe2\x80\x8b\xef\xbb\xbf\xc2\xad") == "\\u200b\\ufeff\\u00ad");
  CHECK(Printable("\xe2\x80\xa8\xe2\x80\xa9") == "\\u2028\\u2029");  // line, paragraph separators
  CHECK(Printable("\xd8\x9c") == "\\u061c");                          // ARABIC LETTER MARK
  CHECK(Printable("\xf3\xa0\x80\x81") == "\\U000e0001");              // LANGUAGE TAG
}

TEST_CASE("printable: invalid UTF-8 becomes \\xNN, other text stays") {
  CHECK(Printable("caf\xe9") == "caf\\xe9");
  CHECK(Printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(Printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 ok") ==
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 ok");
  CHECK(Printable("\xe2\x80\x90") == "\xe2\x80\x90");  // a hyphen, not a format character
}

}  // namespace
}  // namespace lbsim
