// JSON Lines: the first non-blank line is the header, every further
// non-blank line one event. Read through a LineSource, one line at a time,
// so memory does not grow with the number of events.

#include <cstdio>
#include <string_view>

#include <fmt/format.h>

#include "sim/errors.h"
#include "traces/json_line_parser.h"
#include "traces/line_source.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

void ReadLinesTrace(std::FILE* file, TraceStream& stream) {
  LineSource lines(file, stream.path());
  JsonLineParser parser;
  std::string_view line;
  bool header = true;
  while (lines.Next(line)) {
    if (IsBlank(line)) continue;
    // The parser skips a byte order mark at the start of its input, which
    // here is every line; only the file's first line may carry one.
    if (lines.number() > 1 && line.starts_with(kByteOrderMark))
      throw InputError(fmt::format(
          "{}:{}: invalid JSON: a byte order mark (U+FEFF) is allowed only at the "
          "start of the file",
          stream.path(), lines.number()));
    if (!parser.Parse(line))
      throw InputError(fmt::format("{}:{}: {}", stream.path(), lines.number(), parser.error()));
    if (header) {
      stream.Header(parser.value(), lines.number());
      header = false;
    } else {
      stream.Event(parser.value(), lines.number());
    }
  }
  if (header)
    throw InputError(fmt::format(
        "{}: empty trace: expected a header line {{\"lbsim_trace\": 1, ...}}",
        stream.path()));
}

}  // namespace lbsim
