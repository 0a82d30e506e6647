// JSON Lines: the first non-blank line is the header, every further
// non-blank line one event. Each line is validated and decoded in place in
// the LineSource's window, so memory does not grow with the number of
// events and steady-state reading does not allocate.

#include <string_view>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/json/json_scanner.h"
#include "base/json/json_syntax_error.h"
#include "traces/line_source.h"
#include "base/input/text_file.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

void ReadLinesTrace(InputFile& input, TraceStream& stream) {
  constexpr std::uint64_t kProgressBytes = std::uint64_t{1} << 20;
  LineSource lines(input.get(), stream.path(), &input);
  JsonScanner scanner;
  std::string_view line;
  std::uint64_t next_progress = kProgressBytes;
  bool header = true;
  for (;;) {
    if (lines.offset() >= next_progress) {
      stream.Progress(lines.offset());
      next_progress = lines.offset() + kProgressBytes;
    }
    // Most event lines fit a learned layout and are read in place, before
    // anything looks for where they end.
    std::size_t size = 0;
    if (!header && stream.EventByLayout(lines.Buffered(), lines.number() + 1, size)) {
      lines.Skip(size);
      continue;
    }
    if (!lines.Next(line)) break;
    if (IsBlank(line)) {
      lines.SkipEmptyLines();  // the run it starts, at memory speed
      continue;
    }
    // The scanner takes a byte order mark at the start of its text, which
    // here is every line; only the file's first line may carry one.
    if (lines.number() > 1 && line.starts_with(kByteOrderMark))
      throw InputError(fmt::format(
          "{}:{}: invalid JSON: a byte order mark (U+FEFF) is allowed only at the "
          "start of the file",
          stream.path(), lines.number()));
    JsonView value;
    const JsonScanner::Status status = scanner.ScanText(line, value);
    if (status != JsonScanner::Status::kOk) {
      if (lines.number() == 1 && status != JsonScanner::Status::kTooDeep &&
          status != JsonScanner::Status::kTooMany &&
          status != JsonScanner::Status::kDuplicateKey) {
        const std::string wide = WideTextMessage(line);
        if (!wide.empty()) throw InputError(fmt::format("{}: {}", stream.path(), wide));
      }
      FailToScanLine(stream.path(), lines.number(), line, status, scanner);
    }
    if (header) {
      stream.Header(value, lines.number());
      header = false;
      scanner.AllowOverflowFrom(kEventOverflowDepth);
    } else {
      stream.Event(value, scanner.members(), lines.number());
      stream.LearnLayout(line, scanner.members());  // lines with a hint, mostly
    }
  }
  if (header)
    throw InputError(fmt::format(
        "{}: empty trace: expected a header line {{\"lbsim_trace\": 1, ...}}",
        stream.path()));
}

}  // namespace lbsim
