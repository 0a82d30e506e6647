#include "sim/fit/measurement.h"

namespace lbsim {

std::string_view MeasuredFigureName(MeasuredFigure figure) {
  switch (figure) {
    case MeasuredFigure::kTtft: return "TTFT";
    case MeasuredFigure::kTpot: return "TPOT";
    case MeasuredFigure::kE2e: return "E2E";
  }
  return "?";
}

}  // namespace lbsim
