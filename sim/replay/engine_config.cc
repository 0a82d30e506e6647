#include "sim/replay/engine_config.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/number_text.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// The default: llama-3.1-8b-instruct on one H100 (TP 1) under vLLM 0.8.4,
// the coefficients inference-sim/BLIS fitted (its defaults.yaml, from
// commit 3d79c654 of 2026-01-29), its 29,205 KV blocks of 16 tokens, and the
// scheduler limits of BLIS's golden runs of that model (256 sequences, 2048
// batched tokens).
const std::vector<EngineConfig>& Builtins() {
  static const std::vector<EngineConfig> builtins = {
      {.name = "llama-3.1-8b-h100",
       .description = "llama-3.1-8b-instruct on one H100 (TP 1), vLLM 0.8.4: the alpha/beta "
                      "coefficients and KV blocks fitted by inference-sim/BLIS (defaults.yaml)",
       .beta_us = {5752.705191348184, 17.25086436834028, 5.999143920128404},
       .alpha_us = {232.46191091038054, 1.752360364195244, 3357.4400353290152},
       .kv_blocks = 29205,
       .block_tokens = 16,
       .max_running = 256,
       .max_batched_tokens = 2048},
      // CacheRoute's own hardware: beta fitted by `lbsim engines fit` to the
      // Proxy's warmup benchmark logs (proxy/metrics/data/log-bs{1..8}-
      // rtx5090-8-llama3-70b.txt) and its tpot_benchmark_table.json at
      // CacheRoute 28e857c (docs/engine-fit.md). The KV cache is estimated
      // from the model's shape and the GPUs' memory (not measured); the
      // scheduler limits are vLLM's defaults for GPUs under 70 GiB.
      {.name = "llama-3-70b-rtx5090x8",
       .description = "Llama-3-70B on 8x RTX 5090 (TP 8), CacheRoute's benchmark: beta fitted by "
                      "lbsim engines fit to its warmup logs and TPOT table (TTFT median error "
                      "1.06%, TPOT 1.68%); KV cache estimated, not measured",
       .beta_us = {24731.490117228088, 1432.4444390452613, 501.9000399435604},
       .alpha_us = {0.0, 0.0, 0.0},
       .kv_blocks = 16000,
       .block_tokens = 16,
       .max_running = 256,
       .max_batched_tokens = 2048},
  };
  return builtins;
}

[[noreturn]] void Fail(const std::string& where, std::string_view key, std::string_view expected,
                       const ojson* got) {
  throw InputError(fmt::format("{}: {}: expected {}, got {}", where, key, expected,
                               got ? got->dump() : std::string("nothing (it is missing)")));
}

// The three coefficients of `key`: finite numbers >= 0 (the first > 0 when
// `first_positive`).
std::array<double, 3> Coefficients(const ojson& doc, const std::string& where,
                                   std::string_view key, bool first_positive) {
  const std::string expected =
      first_positive ? "an array of 3 finite numbers, microseconds: the first > 0, the others >= 0"
                     : "an array of 3 finite numbers >= 0, microseconds";
  auto it = doc.find(key);
  if (it == doc.end()) Fail(where, key, expected, nullptr);
  if (!it->is_array() || it->size() != 3) Fail(where, key, expected, &*it);
  std::array<double, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    const ojson& v = (*it)[i];
    if (!v.is_number()) Fail(where, key, expected, &*it);
    out[i] = v.get<double>();
    if (!std::isfinite(out[i]) || out[i] < 0.0 || (i == 0 && first_positive && !(out[i] > 0.0)))
      Fail(where, key, expected, &*it);
  }
  return out;
}

// A count of `key`: an integer from 1 to 2^32.
std::uint64_t Count(const ojson& doc, const std::string& where, std::string_view key) {
  constexpr std::string_view kExpected = "an integer from 1 to 2^32";
  auto it = doc.find(key);
  if (it == doc.end()) Fail(where, key, kExpected, nullptr);
  // JSON reads integers >= 0 as unsigned; anything else is not a count.
  if (!it->is_number_unsigned()) Fail(where, key, kExpected, &*it);
  const std::uint64_t n = it->get<std::uint64_t>();
  if (n < 1 || n > (std::uint64_t{1} << 32)) Fail(where, key, kExpected, &*it);
  return n;
}

std::string Text(const ojson& doc, const std::string& where, std::string_view key) {
  auto it = doc.find(key);
  if (it == doc.end()) return "";
  if (!it->is_string()) Fail(where, key, "a string", &*it);
  return it->get<std::string>();
}

// Refuses a coefficient whose largest term passes kMaxEngineTermUs: the
// most tokens one step computes for beta, the longest request the engine
// serves (at most the cache, and at most kMaxEngineRequestSteps steps of
// output or of prefill chunks) for alpha.
void CheckTimeRange(const EngineConfig& c, const std::string& where) {
  constexpr double kMaxSteps = kMaxEngineRequestSteps;
  const double cache = static_cast<double>(c.kv_blocks) * static_cast<double>(c.block_tokens);
  const double batched = static_cast<double>(c.max_batched_tokens);
  const double decodes = static_cast<double>(std::min(c.max_running, c.max_batched_tokens));
  const struct {
    std::string_view key;
    int index;
    double coefficient;
    double most;
    std::string_view of;
  } terms[] = {
      {"beta_us", 0, c.beta_us[0], 1.0, "a step"},
      {"beta_us", 1, c.beta_us[1], batched, "max_batched_tokens prefill tokens"},
      {"beta_us", 2, c.beta_us[2], decodes, "a step of min(max_running, max_batched_tokens) decodes"},
      {"alpha_us", 0, c.alpha_us[0], 1.0, "a request"},
      {"alpha_us", 1, c.alpha_us[1], std::min(cache, kMaxSteps * batched), "the longest prompt"},
      {"alpha_us", 2, c.alpha_us[2], std::min(cache, kMaxSteps), "the longest output"},
  };
  for (const auto& t : terms)
    if (t.coefficient * t.most > kMaxEngineTermUs)
      throw InputError(fmt::format(
          "{}: {}[{}]: expected at most {} us (so that {} takes at most 2^53 us, 285 years), "
          "got {}",
          where, t.key, t.index, NumberText(kMaxEngineTermUs / t.most), t.of,
          NumberText(t.coefficient)));
}

}  // namespace

std::span<const EngineConfig> BuiltinEngines() { return Builtins(); }

const EngineConfig* FindBuiltinEngine(std::string_view name) {
  for (const EngineConfig& c : Builtins())
    if (c.name == name) return &c;
  return nullptr;
}

std::string BuiltinEngineNames() {
  std::string names;
  for (const EngineConfig& c : Builtins()) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

EngineConfig EngineConfigFromJson(const ojson& doc, const std::string& where) {
  static constexpr std::string_view kKeys[] = {
      "lbsim_engine", "name",       "description",  "beta_us",           "alpha_us",
      "kv_blocks",    "block_tokens", "max_running", "max_batched_tokens"};
  if (!doc.is_object())
    throw InputError(fmt::format("{}: expected an engine configuration object, got {}", where,
                                 doc.dump()));
  for (const auto& [key, value] : doc.items()) {
    bool known = false;
    for (std::string_view k : kKeys) known = known || key == k;
    if (!known)
      throw InputError(fmt::format(
          "{}: {}: not a key of an engine configuration (expected one of lbsim_engine, name, "
          "description, beta_us, alpha_us, kv_blocks, block_tokens, max_running, "
          "max_batched_tokens)",
          where, key));
  }
  auto version = doc.find("lbsim_engine");
  if (version == doc.end() || !version->is_number_integer() ||
      version->get<std::int64_t>() != kEngineConfigVersion)
    Fail(where, "lbsim_engine", "the integer 1 (engine configuration format version)",
         version == doc.end() ? nullptr : &*version);
  EngineConfig c;
  c.name = Text(doc, where, "name");
  if (c.name.empty()) c.name = where;
  c.description = Text(doc, where, "description");
  c.beta_us = Coefficients(doc, where, "beta_us", true);
  c.alpha_us = Coefficients(doc, where, "alpha_us", false);
  c.kv_blocks = Count(doc, where, "kv_blocks");
  c.block_tokens = Count(doc, where, "block_tokens");
  c.max_running = Count(doc, where, "max_running");
  c.max_batched_tokens = Count(doc, where, "max_batched_tokens");
  // Token counts stay exact in a double (and a product of two counts
  // cannot wrap).
  if (c.kv_blocks > (std::uint64_t{1} << 53) / c.block_tokens)
    throw InputError(fmt::format(
        "{}: kv_blocks x block_tokens: expected a cache of at most 2^53 tokens, got {} x {}",
        where, c.kv_blocks, c.block_tokens));
  CheckTimeRange(c, where);
  return c;
}

std::string EngineConfigJson(const EngineConfig& c) {
  ojson j;
  j["lbsim_engine"] = kEngineConfigVersion;
  j["name"] = c.name;
  j["description"] = c.description;
  j["beta_us"] = c.beta_us;
  j["alpha_us"] = c.alpha_us;
  j["kv_blocks"] = c.kv_blocks;
  j["block_tokens"] = c.block_tokens;
  j["max_running"] = c.max_running;
  j["max_batched_tokens"] = c.max_batched_tokens;
  return j.dump(2) + "\n";
}

}  // namespace lbsim
