#include "sim/check/decision_recorder.h"

namespace lbsim {

void DecisionRecorder::Write(const DecisionRecord& r) {
  RecordedDecision d;
  d.seq = r.seq;
  d.t = *r.t;
  d.request = std::string(r.request);
  if (r.instance) d.instance = *r.instance;
  d.reason = std::string(r.reason);
  d.candidates = r.candidates;
  decisions_.push_back(std::move(d));
}

}  // namespace lbsim
