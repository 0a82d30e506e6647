#include "sim/check/dead_choice_oracle.h"

namespace lbsim {

void DeadChoiceOracle::OnHeader(const TraceHeader& header, const InstanceTable&) {
  for (const HeaderInstance& i : header.instances) alive_[i.id] = i.alive;
}

void DeadChoiceOracle::OnEvent(const TraceEvent& e) {
  switch (e.type) {
    case EventType::kUp: alive_[std::string(e.instance)] = true; return;
    case EventType::kDown: alive_[std::string(e.instance)] = false; return;
    case EventType::kRemove: alive_.erase(std::string(e.instance)); return;
    case EventType::kLoad: return;
    case EventType::kArrival: break;
  }
  ++arrivals_;
  for (std::size_t k = 0; k < recorders_.size(); ++k) {
    const RecordedDecision& d = recorders_[k].decisions().at(arrivals_ - 1);
    if (!d.instance) continue;
    Finding& f = findings_[k];
    ++f.chose;
    auto it = alive_.find(*d.instance);
    if (it != alive_.end() && it->second) continue;
    if (f.violations++ == 0) f.first = d;
  }
}

}  // namespace lbsim
