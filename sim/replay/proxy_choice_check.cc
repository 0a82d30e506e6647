#include "sim/replay/proxy_choice_check.h"

namespace lbsim {

void ProxyChoiceCheck::Record(std::optional<std::string_view> recorded,
                              std::optional<std::string_view> chosen, std::uint64_t seq,
                              double t, std::string_view request, std::string_view reason,
                              std::span<const Candidate> candidates, const Hint& hint) {
  ++compared_;
  if (recorded == chosen) {
    ++equal_;
    return;
  }
  if (first_difference_) return;
  Difference& d = first_difference_.emplace();
  d.seq = seq;
  d.t = t;
  d.request = request;
  if (recorded) d.proxy = std::string(*recorded);
  if (chosen) d.chosen = std::string(*chosen);
  d.reason = reason;
  for (const Candidate& c : candidates) {
    SeenCandidate& seen = d.candidates.emplace_back();
    seen.id = c.id;
    seen.inflight = c.inflight;
    seen.qps_1m = c.qps_1m;
    if (const QueueLoad* q = hint.QueueFor(c.instance))
      for (std::size_t k = 0; k < kQueueFields.size(); ++k)
        if (q->known[k]) seen.queue.emplace_back(kQueueFields[k], q->value[k]);
  }
}

}  // namespace lbsim
