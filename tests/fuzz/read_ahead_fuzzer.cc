// libFuzzer target: ReadTraceAhead against ReadTrace. One input is one
// trace file, read both ways as JSON Lines and as a JSON document; the
// visitor records every field of the header and of each event, and may
// refuse one event (chosen by the input's length) to exercise the
// visitor-error path. Any difference in what the visitor saw, in the
// interned ids, in the counts or in the error message is a finding
// (abort), as is any exception but InputError and UsageError.

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "memory_file.h"
#include "trace_recording.h"
#include "traces/read_ahead.h"
#include "traces/trace_reader.h"

namespace {

using namespace lbsim;
using namespace lbsim::testing;

void Compare(const std::string& path, TraceEncoding encoding, const TraceRecorder& recorder) {
  const TraceReading direct = RecordReading(&ReadTrace, path, encoding, recorder);
  const TraceReading ahead = RecordReading(&ReadTraceAhead, path, encoding, recorder);
  if (direct == ahead) return;
  std::fprintf(stderr, "read-ahead differs from ReadTrace\n  direct: %zu seen, error %s\n"
                       "  ahead:  %zu seen, error %s\n",
               direct.seen.size(), direct.error.c_str(), ahead.seen.size(), ahead.error.c_str());
  for (std::size_t i = 0; i < direct.seen.size() && i < ahead.seen.size(); ++i)
    if (direct.seen[i] != ahead.seen[i]) {
      std::fprintf(stderr, "  first difference at %zu:\n    %s\n    %s\n", i,
                   direct.seen[i].c_str(), ahead.seen[i].c_str());
      break;
    }
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::MemoryFile input;
  input.Write(data, size);
  TraceRecorder recorder(/*raw_hint=*/size % 2 == 1);
  if (size % 3 == 0) recorder.fail_at = size % 11;
  recorder.input_error = size % 5 == 0;
  Compare(input.path(), TraceEncoding::kLines, recorder);
  Compare(input.path(), TraceEncoding::kDocument, recorder);
  return 0;
}
