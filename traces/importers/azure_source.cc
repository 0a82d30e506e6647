// Azure LLM inference traces (AzurePublicDataset, 2023 and 2024): CSV with
// TIMESTAMP (a date-time with fractional seconds), ContextTokens and
// GeneratedTokens. Times become milliseconds after the first row's.

#include <optional>

#include "traces/importers/csv_source.h"
#include "traces/importers/field_text.h"
#include "traces/importers/import_format.h"

namespace lbsim {
namespace {

class AzureSource final : public CsvRequestSource {
 public:
  AzureSource(std::FILE* file, std::string display_path, const InputFile* input)
      : CsvRequestSource(file, std::move(display_path), input,
                         {"TIMESTAMP", "ContextTokens", "GeneratedTokens"}) {}

 private:
  void ParseRow(std::span<const std::string_view> v, SourceRequest& out) override {
    std::optional<std::int64_t> ns = ParseDateTimeNs(v[0]);
    if (!ns)
      BadValue("TIMESTAMP",
               "a date-time YYYY-MM-DD HH:MM:SS[.FRACTION] (years 1900 to 2200)", v[0]);
    out.input_tokens = TokenCount("ContextTokens", v[1]);
    out.output_tokens = TokenCount("GeneratedTokens", v[2]);
    if (!origin_ns_) origin_ns_ = *ns;  // only a row that parsed whole
    out.time_ms = static_cast<double>(*ns - *origin_ns_) / 1e6;
  }

  std::optional<std::int64_t> origin_ns_;  // the first row's TIMESTAMP
};

}  // namespace

ImportFormat AzureFormat() {
  return {
      .name = "azure",
      .description = "Azure LLM inference trace CSV: TIMESTAMP,ContextTokens,GeneratedTokens",
      .time_field = "TIMESTAMP",
      .marks_failures = false,
      .open = &OpenSource<AzureSource>,
  };
}

}  // namespace lbsim
