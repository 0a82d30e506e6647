#include "importers/trace_import.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/decision_log.h"
#include "sim/errors.h"
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

// Appends `x` as JSON: an integer literal when it is integral, otherwise
// the shortest text that reads back as the same double.
void AppendNumber(std::string& out, double x) {
  TraceTime t{x, false, 0};
  if (x >= 0 && x < kExactIntegers && std::floor(x) == x) {
    t.integral = true;
    t.integer = static_cast<std::uint64_t>(x);
  }
  AppendTraceTime(out, t);
}

void Write(const std::string& text, std::FILE* out) {
  std::fwrite(text.data(), 1, text.size(), out);
}

std::string Header(const ImportFormat& format, const std::string& display_path,
                   const std::string& name, const ImportOptions& o) {
  std::string description = fmt::format(
      "Imported by lbsim from the {} trace {}: duration = {} ms x input tokens + {} ms x "
      "output tokens; rate scale {}",
      format.name, display_path, o.prefill_ms_per_token, o.decode_ms_per_token,
      o.rate_scale);
  if (o.limit) description += fmt::format("; first {} requests", o.limit);
  if (format.marks_failures && !o.keep_failed) description += "; failed requests dropped";
  std::string line = "{\"lbsim_trace\":1,\"name\":";
  AppendJsonString(line, name);
  line += ",\"description\":";
  AppendJsonString(line, description);
  line += ",\"time_unit\":\"ms\",\"instances\":[";
  for (std::size_t i = 0; i < o.instances.size(); ++i) {
    line += i ? ",{\"id\":" : "{\"id\":";
    AppendJsonString(line, o.instances[i]);
    line += ",\"inflight\":0}";
  }
  line += "]}\n";
  return line;
}

}  // namespace

ImportStats ImportTrace(const ImportFormat& format, RequestSource& source,
                        const std::string& display_path, const std::string& name,
                        const ImportOptions& o, std::FILE* out) {
  // The header goes out with the first arrival (or at the end), so that an
  // unreadable input writes nothing at all, not even to standard output.
  bool header_written = false;
  auto write_header = [&] {
    if (!header_written) Write(Header(format, display_path, name, o), out);
    header_written = true;
  };
  ImportStats stats;
  SourceRequest request;
  std::string line;
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
      previous = t;
      previous_source = request.time_ms;

      line = "{\"t\":";
      AppendNumber(line, t);
      line += ",\"type\":\"arrival\",\"duration\":";
      AppendNumber(line, duration);
      if (!request.prefix_blocks.empty()) {
        line += ",\"prefix_blocks\":[";
        for (std::size_t i = 0; i < request.prefix_blocks.size(); ++i)
          fmt::format_to(std::back_inserter(line), "{}{}", i ? "," : "",
                         request.prefix_blocks[i]);
        line += ']';
      }
      line += "}\n";
      write_header();
      Write(line, out);
      ++stats.arrivals;
    } catch (const FieldError& e) {
      std::string what = fmt::format("{}:{}: {}", display_path, source.line(), e.what());
      if (!o.skip_bad) throw InputError(what);
      if (stats.skipped++ == 0) stats.first_skipped = what;
    }
  }
  write_header();
  return stats;
}

}  // namespace lbsim
