// lbsim gen's token counts and shared prefixes (docs/gen.md): presets,
// distributions within bounds, prefix groups, determinism and independence
// from the other streams.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "traces/gen/gen_flags.h"
#include "traces/gen/gen_spec.h"
#include "traces/gen/token_sampler.h"
#include "traces/gen/trace_generator.h"

namespace lbsim {
namespace {

std::vector<nlohmann::json> Lines(const GenSpec& spec) {
  char* data = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  GenerateTrace(spec, out);
  std::fclose(out);
  std::vector<nlohmann::json> lines;
  std::string text(data, size);
  std::free(data);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(nlohmann::json::parse(text.substr(at, end - at)));
    at = end + 1;
  }
  return lines;
}

TEST_CASE("gen tokens: presets draw integer counts within their bounds, near their means") {
  for (const char* name : {"chatbot", "summarisation", "long-context"}) {
    CAPTURE(name);
    GenSpec spec;
    spec.arrivals = 4000;
    spec.tokens = *FindTokenPreset(name);
    const TokenSpec& t = *spec.tokens;
    double input_sum = 0, output_sum = 0;
    std::uint64_t input_max = 0;
    const std::vector<nlohmann::json> lines = Lines(spec);
    for (std::size_t k = 1; k < lines.size(); ++k) {
      const std::uint64_t in = lines[k]["input_tokens"], out = lines[k]["output_tokens"];
      CHECK(in >= t.input.min);
      CHECK(in <= t.input.max);
      CHECK(out >= t.output.min);
      CHECK(out <= t.output.max);
      input_sum += static_cast<double>(in);
      output_sum += static_cast<double>(out);
      input_max = std::max(input_max, in);
      CHECK_FALSE(lines[k].contains("prefix_blocks"));
    }
    const double n = static_cast<double>(lines.size() - 1);
    // Lognormal means, a little lower where the upper bound clips the tail.
    CHECK(input_sum / n == doctest::Approx(t.input.dist.value).epsilon(0.1));
    CHECK(output_sum / n == doctest::Approx(t.output.dist.value).epsilon(0.1));
    CHECK(input_max > t.input.dist.value * 2);  // not a constant
  }
  CHECK(FindTokenPreset("chat") == nullptr);
}

TEST_CASE("gen tokens: the counts do not move the arrivals or durations") {
  GenSpec plain;
  plain.arrivals = 200;
  plain.durations = {DurationKind::kExponential, 2.0, 0.0};
  GenSpec with = plain;
  with.tokens = *FindTokenPreset("chatbot");
  const auto a = Lines(plain), b = Lines(with);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 1; k < a.size(); ++k) {
    CHECK(a[k]["t"] == b[k]["t"]);
    CHECK(a[k]["duration"] == b[k]["duration"]);
  }
}

TEST_CASE("gen responses: ttft within the duration, a share on the completions route, nothing else moved") {
  GenSpec plain;
  plain.arrivals = 4000;
  plain.durations = {DurationKind::kExponential, 1.0, 0.0};
  plain.tokens = *FindTokenPreset("chatbot");
  GenSpec with = plain;
  with.ttft = DurationSpec{DurationKind::kExponential, 0.25, 0.0};
  with.completions_share = 0.3;
  const auto a = Lines(plain), b = Lines(with);
  REQUIRE(a.size() == b.size());
  double ttft_sum = 0;
  std::size_t completions = 0, capped = 0;
  for (std::size_t k = 1; k < a.size(); ++k) {
    CHECK(a[k]["t"] == b[k]["t"]);
    CHECK(a[k]["duration"] == b[k]["duration"]);
    CHECK(a[k]["input_tokens"] == b[k]["input_tokens"]);
    CHECK_FALSE(a[k].contains("ttft"));
    CHECK_FALSE(a[k].contains("route"));
    const double ttft = b[k]["ttft"], duration = b[k]["duration"];
    CHECK(ttft >= 0.0);
    CHECK(ttft <= duration);
    capped += ttft == duration;
    ttft_sum += ttft;
    if (b[k].contains("route")) {
      CHECK(b[k]["route"] == "completions");
      ++completions;
    }
  }
  const double n = static_cast<double>(a.size() - 1);
  // min(Exp(0.25), Exp(1)) has mean 1 / (4 + 1) = 0.2; P(ttft = duration)
  // = 1 / (4 + 1) = 0.2.
  CHECK(ttft_sum / n == doctest::Approx(0.2).epsilon(0.08));
  CHECK(static_cast<double>(capped) / n == doctest::Approx(0.2).epsilon(0.15));
  CHECK(static_cast<double>(completions) / n == doctest::Approx(0.3).epsilon(0.1));
}

TEST_CASE("gen responses: flags and spec errors name the field") {
  GenSpec spec;
  ApplyGenFlag(spec, "--ttft", "lognormal:0.2:0.5");
  REQUIRE(spec.ttft);
  CHECK(spec.ttft->kind == DurationKind::kLognormal);
  CHECK_THROWS_WITH_AS(ApplyGenFlag(spec, "--ttft", "gamma:1"),
                       "--ttft gamma:1: expected fixed:V, exponential:MEAN or lognormal:MEAN:SIGMA, "
                       "each value a number",
                       UsageError);
  spec.arrivals = 3;
  spec.completions_share = 1.5;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "command line"),
                       "command line: field \"completions_share\": expected a number <= 1, got 1.5",
                       InputError);
  spec.completions_share = 0.5;
  spec.ttft = DurationSpec{DurationKind::kExponential, 0.0, 0.0};
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "command line"),
                       "command line: field \"ttft.mean\": expected a number > 0, got 0",
                       InputError);
}

TEST_CASE("gen prefixes: shared groups open the prompts, every other block is a prompt's own") {
  GenSpec spec;
  spec.arrivals = 3000;
  spec.tokens = *FindTokenPreset("summarisation");
  spec.prefixes = PrefixSpec{.groups = 10, .blocks = 4, .block_tokens = 256, .share = 0.5, .zipf = 1.0};
  const std::vector<nlohmann::json> lines = Lines(spec);
  CHECK(lines[0]["prefix_block_tokens"] == 256);
  std::map<std::uint64_t, int> first_group;  // group -> prompts that open with it
  std::map<std::uint64_t, int> seen;         // own block -> prompts
  int shared = 0;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const std::uint64_t input = lines[k]["input_tokens"];
    const std::vector<std::uint64_t> blocks = lines[k]["prefix_blocks"];
    CHECK(blocks.size() == (input + 255) / 256);
    if (blocks[0] < 40) {
      ++shared;
      const std::uint64_t g = blocks[0] / 4;
      ++first_group[g];
      for (std::size_t j = 0; j < std::min<std::size_t>(4, blocks.size()); ++j)
        CHECK(blocks[j] == g * 4 + j);
      for (std::size_t j = 4; j < blocks.size(); ++j) ++seen[blocks[j]];
    } else {
      for (std::uint64_t id : blocks) ++seen[id];
    }
  }
  for (const auto& [id, n] : seen) {
    CHECK(id >= 40);
    CHECK(n == 1);
  }
  CHECK(shared == doctest::Approx(1500).epsilon(0.1));
  // Zipf 1: the first group about twice as popular as the second.
  CHECK(first_group[0] > first_group[1] * 3 / 2);
  CHECK(first_group[1] > first_group[9]);
}

TEST_CASE("gen tokens: flags and spec errors name the field") {
  GenSpec spec;
  spec.arrivals = 1;
  ApplyGenFlag(spec, "--input-tokens", "fixed:7");
  REQUIRE(spec.tokens);
  CHECK(spec.tokens->input.dist.value == 7);
  CHECK(spec.tokens->output.dist.value == FindTokenPreset("chatbot")->output.dist.value);
  // A flag replaces the preset's bounds too: chatbot's [1, 8192] would
  // clamp fixed:10000 to 8192 on every arrival.
  ApplyGenFlag(spec, "--input-tokens", "fixed:10000");
  CHECK(spec.tokens->input.min == 1);
  CHECK(spec.tokens->input.max == (std::uint64_t{1} << 20));
  CHECK(spec.tokens->output.max == FindTokenPreset("chatbot")->output.max);
  CHECK_NOTHROW(ValidateGenSpec(spec, "command line"));
  ApplyGenFlag(spec, "--input-tokens", "fixed:1e9");
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "command line"),
                       "command line: field \"tokens.input.value\": expected a count from 1 to "
                       "1048576 (tokens.input's min and max), got 1000000000",
                       InputError);
  ApplyGenFlag(spec, "--input-tokens", "fixed:7");
  // In a spec the bounds are the preset's unless given: a fixed count
  // outside them is refused, not clamped.
  GenSpec fixed;
  fixed.arrivals = 1;
  fixed.tokens = *FindTokenPreset("chatbot");
  fixed.tokens->output.dist = {DurationKind::kFixed, 2048.4, 0.0};
  CHECK_NOTHROW(ValidateGenSpec(fixed, "g.json"));
  fixed.tokens->output.dist.value = 2049;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(fixed, "g.json"),
                       "g.json: field \"tokens.output.value\": expected a count from 1 to 2048 "
                       "(tokens.output's min and max), got 2049",
                       InputError);
  CHECK_THROWS_WITH_AS(ApplyGenFlag(spec, "--tokens", "chat"),
                       "--tokens chat: expected chatbot, summarisation or long-context", UsageError);
  ApplyGenFlag(spec, "--prefixes", "3:2:0.5");
  CHECK(spec.prefixes.groups == 3);
  CHECK(spec.prefixes.share == 0.5);
  GenSpec bad;
  bad.arrivals = 1;
  bad.prefixes.groups = 2;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(bad, "g.json"),
                       "g.json: field \"prefixes\": expected \"tokens\" too (a prompt's blocks "
                       "follow its input tokens)",
                       InputError);
  bad.tokens = *FindTokenPreset("chatbot");
  bad.tokens->output.min = 10;
  bad.tokens->output.max = 5;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(bad, "g.json"),
                       "g.json: field \"tokens.output.max\": expected an integer >= min (10), got 5",
                       InputError);
  // Every arrival gen writes, a replay reads: its block ids fit one event.
  bad.tokens->output.min = 1;
  bad.prefixes.block_tokens = 16;
  bad.tokens->input.max = 999'968 * 16;
  CHECK_NOTHROW(ValidateGenSpec(bad, "g.json"));
  bad.tokens->input.max += 1;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(bad, "g.json"),
                       "g.json: field \"tokens.input.max\": expected at most 999968 x "
                       "prefixes.block_tokens (16) tokens (a prompt has a block id per "
                       "block_tokens, and a replay reads at most 999968 in one arrival), got "
                       "15999489",
                       InputError);
  bad.tokens->input.max = 100;
  bad.prefixes.blocks = 999'969;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(bad, "g.json"),
                       "g.json: field \"prefixes.blocks\": expected at most 999968 (the block ids "
                       "a replay reads in one arrival), got 999969",
                       InputError);
}

}  // namespace
}  // namespace lbsim
