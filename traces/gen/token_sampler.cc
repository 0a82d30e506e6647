#include "traces/gen/token_sampler.h"

#include <algorithm>
#include <cmath>

namespace lbsim {
namespace {

double LogMedian(const DurationSpec& d) {
  return d.kind == DurationKind::kLognormal ? std::log(d.value) - d.sigma * d.sigma / 2 : 0.0;
}

}  // namespace

TokenSampler::TokenSampler(const GenSpec& spec)
    : tokens_(*spec.tokens),
      prefixes_(spec.prefixes),
      input_log_median_(LogMedian(tokens_.input.dist)),
      output_log_median_(LogMedian(tokens_.output.dist)),
      input_(spec.seed, RandomStream::kInputTokens),
      output_(spec.seed, RandomStream::kOutputTokens),
      prefixes_random_(spec.seed, RandomStream::kPrefixes),
      next_own_(prefixes_.groups * prefixes_.blocks) {
  double total = 0.0;
  for (std::uint64_t g = 0; g < prefixes_.groups; ++g) {
    total += 1.0 / std::pow(static_cast<double>(g + 1), prefixes_.zipf);
    cumulative_.push_back(total);
  }
  for (double& c : cumulative_) c /= total;
}

std::uint64_t TokenSampler::Draw(const TokenDist& t, double log_median, RandomSource& random) {
  double x = t.dist.value;
  if (t.dist.kind == DurationKind::kExponential) x = random.Exponential(t.dist.value);
  if (t.dist.kind == DurationKind::kLognormal) x = std::exp(log_median + t.dist.sigma * random.Normal());
  const double rounded = std::floor(x + 0.5);
  if (!(rounded >= static_cast<double>(t.min))) return t.min;
  if (rounded >= static_cast<double>(t.max)) return t.max;
  return static_cast<std::uint64_t>(rounded);
}

void TokenSampler::Next(std::uint64_t& input, std::uint64_t& output,
                        std::vector<std::uint64_t>& blocks) {
  input = Draw(tokens_.input, input_log_median_, input_);
  output = Draw(tokens_.output, output_log_median_, output_);
  blocks.clear();
  if (prefixes_.groups == 0) return;
  const std::uint64_t count = (input + prefixes_.block_tokens - 1) / prefixes_.block_tokens;
  // Two draws per arrival whether or not it shares, so one arrival's choice
  // does not move the next one's.
  const double shares = prefixes_random_.Uniform();
  const double pick = prefixes_random_.Uniform();
  std::uint64_t shared = 0;
  if (shares < prefixes_.share) {
    const auto g = static_cast<std::uint64_t>(
        std::upper_bound(cumulative_.begin(), cumulative_.end() - 1, pick) - cumulative_.begin());
    shared = std::min(count, prefixes_.blocks);
    for (std::uint64_t j = 0; j < shared; ++j) blocks.push_back(g * prefixes_.blocks + j);
  }
  for (std::uint64_t j = shared; j < count; ++j) blocks.push_back(next_own_++);
}

}  // namespace lbsim
