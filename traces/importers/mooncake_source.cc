// Mooncake traces (FAST'25 traces: conversation, toolagent, synthetic):
// JSON Lines, one request per line, with timestamp (ms), input_length,
// output_length and hash_ids (the ids of the prompt's blocks; requests
// that share leading ids share a prompt prefix).

#include <cmath>

#include <fmt/format.h>

#include "traces/importers/import_format.h"
#include "traces/importers/json_fields.h"
#include "base/json/json_line_parser.h"
#include "traces/line_source.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;

std::uint64_t Count(const json& object, std::string_view field) {
  const json* v = Member(object, field);
  if (!v || !IsCount(*v) || v->get<std::uint64_t>() > kMaxCount)
    BadField(field, "an integer >= 0 (a token count)", v);
  return v->get<std::uint64_t>();
}

class MooncakeSource final : public RequestSource {
 public:
  MooncakeSource(std::FILE* file, std::string display_path, const InputFile* input)
      : lines_(file, std::move(display_path), input) {}

  bool Next(SourceRequest& out) override {
    std::string_view line;
    do {
      if (!lines_.Next(line)) return false;
    } while (IsBlank(line));
    if (!parser_.Parse(line)) throw FieldError(parser_.error());
    const json& row = parser_.value();
    if (!row.is_object()) throw FieldError("expected a request object {\"timestamp\": ...}");

    const json* t = Member(row, "timestamp");
    if (!t || !t->is_number() || !std::isfinite(t->get<double>()) || t->get<double>() < 0)
      BadField("timestamp", "a number of milliseconds >= 0", t);
    out.time_ms = t->get<double>();
    out.input_tokens = Count(row, "input_length");
    out.output_tokens = Count(row, "output_length");
    out.failed = false;
    out.prefix_blocks.clear();
    const json* ids = Member(row, "hash_ids");
    if (ids && !ids->is_null()) {
      constexpr std::string_view kExpected = "an array of block ids (integers >= 0)";
      if (!ids->is_array()) BadField("hash_ids", kExpected, ids);
      for (std::size_t i = 0; i < ids->size(); ++i) {
        const json& id = (*ids)[i];
        if (!IsCount(id)) BadField(fmt::format("hash_ids[{}]", i), kExpected, &id);
        out.prefix_blocks.push_back(id.get<std::uint64_t>());
      }
    }
    return true;
  }

  std::uint64_t line() const override { return lines_.number(); }

 private:
  LineSource lines_;
  JsonLineParser parser_;
};

}  // namespace

ImportFormat MooncakeFormat() {
  return {
      .name = "mooncake",
      .description =
          "Mooncake JSON Lines: timestamp (ms),input_length,output_length,hash_ids",
      .time_field = "timestamp",
      .marks_failures = false,
      .prefix_block_tokens = 512,  // Mooncake hashes prompts in blocks of 512 tokens
      .open = &OpenSource<MooncakeSource>,
  };
}

}  // namespace lbsim
