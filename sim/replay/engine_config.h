#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace lbsim {

// The coefficients and limits of the LLM engine model behind every Instance
// (docs/engine.md), in the BLIS form. Times are microseconds of an Instance
// of speed 1; an Instance of speed v takes every time divided by v.
struct EngineConfig {
  std::string name;         // a built-in's name, or the file it was read from
  std::string description;  // what it models and where its numbers come from

  // One step's time: beta[0] + beta[1] x uncached prefill tokens + beta[2] x
  // decode tokens of the batch. beta[0] > 0, the others >= 0.
  std::array<double, 3> beta_us{};
  // Per-request overheads (>= 0): alpha[0] + alpha[1] x input tokens pass
  // before a request joins the waiting queue (pre-processing); the k-th
  // token reaches the client k x alpha[2] after the step that produced it
  // ends (BLIS's rule: each token's output processing, in order).
  std::array<double, 3> alpha_us{};

  std::uint64_t kv_blocks = 0;           // KV cache size, in blocks (>= 1)
  std::uint64_t block_tokens = 0;        // tokens per KV block (>= 1)
  std::uint64_t max_running = 0;         // running sequences at most (>= 1)
  std::uint64_t max_batched_tokens = 0;  // tokens one step computes at most (>= 1)

  friend bool operator==(const EngineConfig&, const EngineConfig&) = default;
};

// Most steps one request may need on its own (its prefill chunks plus its
// output tokens), so that one arrival costs at most about a second.
inline constexpr std::uint64_t kMaxEngineRequestSteps = std::uint64_t{1} << 24;
// Most request-steps the served requests of one strategy run may need in
// all (each one's prefill chunks plus output tokens, summed over the
// trace): a step costs each request in its batch, so this bounds the
// engine's work, about three minutes at the measured 35-42 ns a
// request-step, however many requests share the steps.
inline constexpr std::uint64_t kMaxEngineRunSteps = std::uint64_t{1} << 32;

// Whether a request of `input` (>= 1) and `output` tokens fits the whole KV
// cache of `config`; the engine rejects one that does not at once.
inline bool FitsCache(const EngineConfig& config, std::uint64_t input, std::uint64_t output) {
  const std::uint64_t cache = config.kv_blocks * config.block_tokens;
  return input <= cache && output <= cache - input;
}

// The longest term of a step's or a request's time a configuration may
// give: 2^53 microseconds. Past it, trace times lose the precision a step
// needs to move the clock.
inline constexpr double kMaxEngineTermUs = 9007199254740992.0;

// The engine configuration format version this lbsim reads
// ("lbsim_engine": 1).
inline constexpr int kEngineConfigVersion = 1;

// The built-in configurations, the default first.
std::span<const EngineConfig> BuiltinEngines();
// The built-in named `name`, or nullptr.
const EngineConfig* FindBuiltinEngine(std::string_view name);
// "a, b" for messages.
std::string BuiltinEngineNames();

// Reads an engine configuration document (every key required, unknown keys
// refused); `where` names it in errors. Throws InputError "WHERE: KEY:
// expected ..., got ...".
EngineConfig EngineConfigFromJson(const nlohmann::ordered_json& document,
                                  const std::string& where);

// The configuration as an engine configuration document (2-space JSON
// with a final newline), which EngineConfigFromJson reads back equal.
std::string EngineConfigJson(const EngineConfig& config);

}  // namespace lbsim
