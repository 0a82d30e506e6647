#include "candidates.h"

#include <array>
#include <stdexcept>
#include <string>

namespace lbsim::testing {

std::vector<Candidate> Candidates(std::initializer_list<std::optional<std::int64_t>> inflight) {
  static constexpr std::array<std::string_view, 16> ids = {
      "c0", "c1", "c2",  "c3",  "c4",  "c5",  "c6",  "c7",
      "c8", "c9", "c10", "c11", "c12", "c13", "c14", "c15"};
  if (inflight.size() > ids.size()) throw std::logic_error("too many candidates");
  std::vector<Candidate> out;
  InstanceIndex k = 0;
  for (const auto& n : inflight) {
    out.push_back(Candidate{k, ids[k], 1.0, n, std::nullopt});
    ++k;
  }
  return out;
}

QueueLoad Queue(std::initializer_list<std::pair<std::string_view, double>> values) {
  QueueLoad q;
  for (const auto& [key, value] : values) {
    std::size_t i = 0;
    while (i < kQueueFields.size() && kQueueFields[i] != key) ++i;
    if (i == kQueueFields.size()) throw std::logic_error("no queue key " + std::string(key));
    q.value[i] = value;
    q.known[i] = true;
  }
  return q;
}

}  // namespace lbsim::testing
