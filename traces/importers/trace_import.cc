#include "traces/importers/trace_import.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "traces/gen/in_flight_bound.h"
#include "traces/gen/trace_line_writer.h"
#include "base/errors.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

constexpr double kExactIntegers = 9007199254740992.0;  // 2^53

// `ms` rounded to the nearest nanosecond (1e-6 ms) while that is exact.
double RoundToNanosecond(double ms) {
  double scaled = ms * 1e6;
  if (std::fabs(scaled) >= kExactIntegers) return ms;
  return std::nearbyint(scaled) / 1e6;
}

// The header's description: where the trace came from and the model used.
std::string Description(const ImportFormat& format, const std::string& display_path,
                        const ImportOptions& o) {
  std::string text = fmt::format(
      "Imported by lbsim from the {} trace {}: duration = {} ms x input tokens + {} ms x "
      "output tokens; rate scale {}",
      format.name, display_path, o.prefill_ms_per_token, o.decode_ms_per_token,
      o.rate_scale);
  if (o.limit) text += fmt::format("; first {} requests", o.limit);
  if (format.marks_failures && !o.keep_failed) text += "; failed requests dropped";
  return text;
}

}  // namespace

ImportStats ImportTrace(const ImportFormat& format, RequestSource& source,
                        const std::string& display_path, const std::string& name,
                        const ImportOptions& o, std::FILE* out, TraceEncoding encoding) {
  TraceLineWriter writer(out, encoding);
  // The header goes out with the first arrival (or at the end), so that an
  // unreadable input writes nothing at all, not even to standard output.
  bool header_written = false;
  auto write_header = [&] {
    if (header_written) return;
    std::vector<GeneratedInstance> instances;
    for (const std::string& id : o.instances)
      instances.push_back(GeneratedInstance{id, std::nullopt, std::nullopt, 0, std::nullopt});
    writer.Header(name, Description(format, display_path, o), "ms", std::nullopt, nullptr,
                  instances,
                  format.prefix_block_tokens ? std::optional(format.prefix_block_tokens)
                                             : std::nullopt);
    header_written = true;
  };

  ImportStats stats;
  SourceRequest request;
  InFlightBound in_flight;
  double previous = -std::numeric_limits<double>::infinity();  // last t written
  double previous_source = 0.0;  // its time as the source gave it
  for (;;) {
    if (o.limit && stats.arrivals == o.limit) break;
    try {
      if (!source.Next(request)) break;
      if (request.failed && !o.keep_failed) {
        ++stats.failed_dropped;
        continue;
      }
      double t = RoundToNanosecond(request.time_ms / o.rate_scale);
      if (t < previous)
        throw FieldError(fmt::format(
            "field \"{}\": expected a time no earlier than the row before (rows must be "
            "in time order), got one {} ms earlier",
            format.time_field, previous_source - request.time_ms));
      double duration = RoundToNanosecond(
          o.prefill_ms_per_token * static_cast<double>(request.input_tokens) +
          o.decode_ms_per_token * static_cast<double>(request.output_tokens));
      if (!std::isfinite(duration))
        throw FieldError("the token counts give an infinite duration");
      if (!in_flight.Arrive(t, duration))
        throw InputError(fmt::format(
            "{}:{}: more than the limit of {} requests in flight at once (arrived, their "
            "duration not over), which a replay refuses; import fewer rows (--limit), spread "
            "them (--rate-scale below 1) or shorten the token-time model",
            display_path, source.line(), kMaxInFlight));
      previous = t;
      previous_source = request.time_ms;
      write_header();
      writer.Arrival(t, duration, request.prefix_blocks,
                     TraceLineWriter::Tokens{request.input_tokens, request.output_tokens});
      ++stats.arrivals;
    } catch (const FieldError& e) {
      std::string what = fmt::format("{}:{}: {}", display_path, source.line(), e.what());
      if (!o.skip_bad) throw InputError(what);
      if (stats.skipped++ == 0) stats.first_skipped = what;
    }
  }
  write_header();
  writer.Finish();
  return stats;
}

}  // namespace lbsim
