#pragma once

#include <string_view>

#include "sim/check/scenario.h"

namespace lbsim {

// Parses a replay's `--expect 'PATH OP VALUE'` into a value expectation:
// PATH as a scenario's ("LABEL.KEY..." into the JSON report, or
// "trace.KEY..."), OP one of <, <=, >, >=, == (a scenario's below, max,
// above, min, eq), VALUE a finite number, or for == also a JSON string,
// true, false or null. Its key, naming it in messages, is "--expect 'TEXT'".
// Throws UsageError naming the text and what was expected.
Expectation ParseInlineExpectation(std::string_view text);

}  // namespace lbsim
