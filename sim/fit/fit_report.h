#pragma once

// What `lbsim engines fit` says of a fit: the report it prints and the
// description it writes into the configuration.

#include <span>
#include <string>
#include <vector>

#include "sim/fit/engine_fit.h"
#include "sim/fit/measurement_files.h"

namespace lbsim {

// The fit report, several lines: the files read, the coefficients, what the
// measurements could not determine, and per figure the points, RMSE,
// median and worst error, fitted and held out.
std::string FitReportText(const EngineFit& fit, std::span<const MeasurementFile> files,
                          const EngineFitOptions& options);

// One sentence for the configuration's "description": the measurements,
// the fit quality and where the limits come from.
std::string FitDescription(const EngineFit& fit, std::span<const MeasurementFile> files,
                           const EngineFitOptions& options);

}  // namespace lbsim
