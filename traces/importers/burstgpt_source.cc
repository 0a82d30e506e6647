// BurstGPT traces: CSV with Timestamp (seconds), Model, Request tokens,
// Response tokens, Total tokens, Log Type. A row with 0 response tokens is
// a failed request.

#include <optional>

#include "traces/importers/csv_source.h"
#include "traces/importers/field_text.h"
#include "traces/importers/import_format.h"

namespace lbsim {
namespace {

class BurstGptSource final : public CsvRequestSource {
 public:
  BurstGptSource(std::FILE* file, std::string display_path, const InputFile* input)
      : CsvRequestSource(file, std::move(display_path), input,
                         {"Timestamp", "Request tokens", "Response tokens"}) {}

 private:
  void ParseRow(std::span<const std::string_view> v, SourceRequest& out) override {
    std::optional<double> ms = ParseSecondsAsMs(v[0]);
    if (!ms) BadValue("Timestamp", "a decimal number of seconds >= 0", v[0]);
    out.time_ms = *ms;
    out.input_tokens = TokenCount("Request tokens", v[1]);
    out.output_tokens = TokenCount("Response tokens", v[2]);
    out.failed = out.output_tokens == 0;
  }
};

}  // namespace

ImportFormat BurstGptFormat() {
  return {
      .name = "burstgpt",
      .description = "BurstGPT CSV: Timestamp (s),Model,Request tokens,Response tokens,...",
      .time_field = "Timestamp",
      .marks_failures = true,
      .open = &OpenSource<BurstGptSource>,
  };
}

}  // namespace lbsim
