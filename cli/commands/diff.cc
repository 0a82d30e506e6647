// `lbsim diff BASE.json NEW.json`: compares two JSON reports of one trace.

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "cli/commands/command.h"
#include "cli/option_checks.h"
#include "sim/check/report_diff.h"
#include "sim/io/output_file.h"
#include "sim/io/write_stream.h"
#include "strategies/params.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim -s rr,ll --format json -o base.json trace.json
  lbsim -s rr,ll:qps_1m=0 --format json -o new.json trace.json
  lbsim diff base.json new.json
  lbsim diff --pair round_robin=least_load today.json candidate.json
  lbsim diff --tol latency=10% --tol herding=0.05 --junit diff.xml base.json new.json

Every figure of both reports is compared (shares, fairness, reasons, counts,
herding, latency, waits, utilisation, windows, detectors, warnings), each
against its family's tolerance. Reports made under another trace, Proxy
profile or simulation options are refused unless --allow-different says so.
Exit status: 0 nothing moved beyond its tolerance; 1 something did (marked
FLAGGED); 2 usage error, a file that is not a report, or reports of
different runs.)";

// What `lbsim diff BASE.json NEW.json` was asked to do.
struct DiffCommand {
  std::string base;
  std::string next;
  DiffTolerances tolerances;            // the families, set by the --*-tol flags
  std::vector<std::string> tols;        // --tol NAME=TOL
  std::vector<std::string> allow;       // --allow-different values
  std::vector<std::string> pairs;       // "BASE_LABEL=NEW_LABEL"
  bool beyond_spread = false;
  bool only_worse = false;
  std::string format = "text";          // text | json
  std::string junit;                    // JUnit XML path, empty: none
};

// Prints the comparison (and writes the JUnit file); returns 1 when any
// figure moved beyond its tolerance, 0 otherwise. Throws
// InputError/UsageError (exit 2) before printing or writing anything.
int RunDiff(const DiffCommand& command) {
  DiffOptions options;
  options.tolerances = command.tolerances;
  for (const std::string& t : command.tols) options.tolerances.Set(t);
  for (const std::string& a : command.allow) options.allow.Allow(a);
  for (const std::string& pair : command.pairs)
    options.pairs.push_back(SplitAssignment(pair, "--pair (BASE_LABEL=NEW_LABEL)"));
  options.beyond_spread = command.beyond_spread;
  options.only_worse = command.only_worse;
  // Standard output must not be one of the reports read.
  for (const std::string& input : {command.base, command.next})
    RefuseOverwrite("-", input, "", "report");
  std::optional<OutputFile> junit;
  if (!command.junit.empty()) {
    if (command.junit == "-")
      throw UsageError("--junit -: the comparison already goes to standard output; give a file");
    for (const std::string& input : {command.base, command.next})
      RefuseOverwrite(command.junit, input, "--junit", "report");
    RefuseStandardOutputAs(command.junit, "--junit");
    junit.emplace(command.junit);  // fails now, before any work, if it cannot be written
  }
  const ReportDiff diff = DiffReports(command.base, command.next, options);
  const std::string text = command.format == "json" ? RenderDiffJson(diff) : RenderDiffText(diff);
  if (junit) {
    WriteText(RenderDiffJUnit(diff), junit->stream(), command.junit + ": cannot write output");
    junit->Finish();
    junit->Commit();
  }
  WriteStandardOutput(text, "the comparison");
  return diff.flagged() > 0 ? 1 : 0;
}

class DiffCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "diff", "Compare two JSON reports of the same trace (exit 1 when a change is flagged)");
    cmd_->footer(kFooter);
    cmd_->add_option("base", diff_.base, "Baseline report (lbsim --format json)")
        ->required()
        ->type_name("BASE.json");
    cmd_->add_option("new", diff_.next, "Report to compare with the baseline")
        ->required()
        ->type_name("NEW.json");
    cmd_->add_option("--tol", diff_.tols,
                     "Tolerance of a family of figures or of one figure: NAME=ABS, NAME=REL% "
                     "or NAME=ABS,REL% (flagged when the change exceeds both); NAME a family "
                     "(share, fairness, reasons, counts, herding, runs, latency, wait, "
                     "utilisation, inflight, rates, blocks, detectors, engine) or a figure path "
                     "such as "
                     "what_if.service.latency.p99; repeatable")
        ->allow_extra_args(false)
        ->type_name("NAME=TOL");
    cmd_->add_option("--share-tol", diff_.tolerances.share(),
                     "Same as --tol share=NUMBER: an Instance's share moving by more than this")
        ->check(NonNegative(true))
        ->type_name("NUMBER");
    cmd_->add_option("--fairness-tol", diff_.tolerances.fairness(),
                     "Same as --tol fairness=NUMBER")
        ->check(NonNegative(true))
        ->type_name("NUMBER");
    cmd_->add_option("--reason-tol", diff_.tolerances.reasons(),
                     "Same as --tol reasons=NUMBER: a reason count moving by more than this "
                     "fraction of the decisions")
        ->check(NonNegative(true))
        ->type_name("NUMBER");
    cmd_->add_option("--engine-tol", diff_.tolerances.engine(),
                     "An engine figure (TTFT, TPOT, E2E, queueing delay, tokens/s) moving by "
                     "more than this fraction of its base value (0.05 is --tol engine=5%)")
        ->check(NonNegative(true))
        ->type_name("NUMBER");
    cmd_->add_option("--allow-different", diff_.allow,
                     "Compare reports made under another trace, Proxy profile or simulation "
                     "options (the what-if options; seeds are never compared) anyway: trace, "
                     "proxy, simulation (repeatable or comma-separated)")
        ->allow_extra_args(false)
        ->type_name("WHAT");
    cmd_->add_flag("--beyond-spread", diff_.beyond_spread,
                   "Flag a change only when also the reports' [min, max] over their seeds "
                   "(made with --seeds) do not overlap");
    cmd_->add_flag("--only-worse", diff_.only_worse,
                   "Flag only changes for the worse where a figure has a worse direction "
                   "(latency, waits, herding, runs, inflight, fairness, a warning raised)");
    cmd_->add_option("-f,--format", diff_.format, "Output format")
        ->check(CLI::IsMember({"text", "json"}))
        ->default_str("text");
    cmd_->add_option("--junit", diff_.junit,
                     "Also write the comparison as JUnit XML to FILE (atomically)")
        ->type_name("FILE");
    cmd_->add_option("--pair", diff_.pairs,
                     "Compare strategy BASE_LABEL of BASE with NEW_LABEL of NEW (repeatable); "
                     "default: strategies with the same label")
        ->allow_extra_args(false)
        ->type_name("BASE_LABEL=NEW_LABEL");
  }
  int Run(std::vector<std::string>& unwritten) override {
    if (!diff_.junit.empty()) unwritten = {"--junit " + diff_.junit};
    return RunDiff(diff_);
  }

 private:
  DiffCommand diff_;
};

}  // namespace

std::unique_ptr<Command> MakeDiffCommand() { return std::make_unique<DiffCli>(); }

}  // namespace lbsim
