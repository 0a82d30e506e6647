# lbsim check and lbsim diff.

set(CHECK_DATA tests/check)
set(RESULTS ${CHECK_DATA}/results)
set(MALFORMED ${CHECK_DATA}/malformed)

# The scenario library is the regression gate: every acceptance criterion
# of the least_load request, and the hazards, hold.
lbsim_cli_test(NAME "check scenarios library"
  ARGS check scenarios/
  EXIT 0 STDOUT_MATCH "\nlbsim check: [0-9]+ scenarios, [0-9]+ expectations: [0-9]+ passed, 0 failed\n$")

# A deliberately broken expectation fails (exit 1) and shows expected vs
# actual. The files are given in reverse order: output follows sorted paths.
lbsim_cli_test(NAME "check broken expectations"
  ARGS check ${RESULTS}/b_broken.json ${RESULTS}/a_passing.json
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/check_results.txt)
# A folder is searched recursively, with the same result.
lbsim_cli_test(NAME "check folder"
  ARGS check ${RESULTS}
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/check_results.txt)
lbsim_cli_test(NAME "check json"
  ARGS check --format json ${RESULTS}
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/check_results.json)
# JUnit XML: byte-exact, then parsed by Python's XML parser below.
lbsim_cli_test(NAME "check junit"
  ARGS check ${RESULTS} --junit ${OUT}/check_results.junit.xml
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/check_results.txt
  FILE_GOLDEN ${OUT}/check_results.junit.xml=${GOLDEN}/check_results.junit.xml)
set_tests_properties("cli: check junit" PROPERTIES FIXTURES_SETUP check_junit)
# The results themselves go to standard output, so the XML cannot.
lbsim_cli_test(NAME "check --junit - is refused"
  ARGS check ${RESULTS} --junit - EXIT 2 STDERR_LINES 2 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: --junit -: the results already go to standard output; give a file\nlbsim: no output written \\(--junit -\\)\n$")
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME "cli: check junit parses"
  COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/../check/junit_check.py
          ${OUT}/check_results.junit.xml 7 ${RESULTS}/a_passing.json ${RESULTS}/b_broken.json
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: check junit parses" PROPERTIES FIXTURES_REQUIRED check_junit)
# The library's own JUnit report: every testcase passes.
lbsim_cli_test(NAME "check junit library"
  ARGS check scenarios --junit ${OUT}/scenarios.junit.xml
  EXIT 0 STDOUT_MATCH " 0 failed\n$")
set_tests_properties("cli: check junit library" PROPERTIES FIXTURES_SETUP scenarios_junit)
file(GLOB library_scenarios RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/scenarios/*.json ${PROJECT_SOURCE_DIR}/scenarios/detectors/*.json)
add_test(NAME "cli: check junit library parses"
  COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/../check/junit_check.py
          ${OUT}/scenarios.junit.xml 0 ${library_scenarios}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: check junit library parses" PROPERTIES FIXTURES_REQUIRED scenarios_junit)

# Malformed scenarios: exit 2, one line naming the file and the offending
# key, then one saying the JUnit file was not written, nothing on stdout, no
# JUnit file.
function(malformed_scenario name key)
  lbsim_cli_test(NAME "check malformed ${name}"
    ARGS check ${MALFORMED}/${name}.json --junit ${OUT}/malformed.junit.xml
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: ${MALFORMED}/${name}\\.json: ${key}[^\n]*\nlbsim: no output written \\(--junit ${OUT}/malformed.junit.xml\\)\n$"
    ABSENT ${OUT}/malformed.junit.xml)
endfunction()
malformed_scenario(unknown_path "expect\\[1\\]\\.path: \"least_load\\.fallbak\\.decisions\": the report has no key \"fallbak\"")
malformed_scenario(unknown_label "expect\\[0\\]\\.path: no strategy labelled \"ll\".*canonical name: least_load")
malformed_scenario(path_names_object "expect\\[0\\]\\.path: \"round_robin\\.selections\" names an object")
malformed_scenario(bad_operator "expect\\[0\\]\\.ge: unknown key")
malformed_scenario(approx_without_tolerance "expect\\[0\\]\\.tolerance: .*missing")
malformed_scenario(property_without_strategy "expect\\[0\\]\\.strategy: .*missing")
malformed_scenario(missing_trace_file "trace: trace file \"traces/no_such_trace\\.json\" not found")
malformed_scenario(no_trace "trace: .*missing")
malformed_scenario(bad_trace_file "trace: ${MALFORMED}/traces/out_of_order\\.ndjson:3: field \"t\"")
malformed_scenario(bad_inline_trace "trace: events\\[1\\]: field \"t\"")
malformed_scenario(bad_version "lbsim_scenario: expected 1")
malformed_scenario(bad_strategy "strategies\\[1\\]: unknown strategy 'least'")
malformed_scenario(bad_parameter "strategies\\[0\\]: strategy least_load: parameter qps_1m")
malformed_scenario(misspelt_key "expectations: unknown key")
lbsim_cli_test(NAME "check malformed not_json"
  ARGS check ${MALFORMED}/not_json.json
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: ${MALFORMED}/not_json\\.json:3:1: invalid JSON")
# One bad scenario among good ones: nothing is printed or written.
lbsim_cli_test(NAME "check no partial output"
  ARGS check ${RESULTS} ${MALFORMED}/bad_operator.json --junit ${OUT}/partial.junit.xml
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2 ABSENT ${OUT}/partial.junit.xml
  STDERR_MATCH "\nlbsim: no output written \\(--junit ${OUT}/partial.junit.xml\\)\n$")

# Usage errors.
lbsim_cli_test(NAME "check without paths"
  ARGS check EXIT 2 STDERR_MATCH "paths is required" STDERR_LINES 1)
lbsim_cli_test(NAME "check missing path"
  ARGS check ${CHECK_DATA}/no_such_folder
  EXIT 2 STDERR_MATCH "no_such_folder: no such scenario file or folder" STDERR_LINES 1)
lbsim_cli_test(NAME "check folder without scenarios"
  ARGS check ${MALFORMED}/traces
  EXIT 2 STDERR_MATCH "no scenario files \\(\\*\\.json\\) found in" STDERR_LINES 1)
lbsim_cli_test(NAME "check junit over a scenario"
  ARGS check ${RESULTS}/a_passing.json --junit ${RESULTS}/a_passing.json
  EXIT 2 STDERR_MATCH "refusing to overwrite the input scenario\nlbsim: no output written \\(--junit ${RESULTS}/a_passing.json\\)\n$"
  STDERR_LINES 2)

# lbsim diff: two reports of the queue_hints trace, least_load with default
# weights and with qps_1m=0 (decisions b,c,a,a,b,c and a,c,a,a,b,c).
set(DIFF_DATA tests/diff)
lbsim_cli_test(NAME "diff weight change"
  ARGS diff ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll_qps0.json
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/diff_qps_weight.txt)
# share_nudged: the base report with inst-a's share raised by 0.0267 and
# inst-b's lowered by as much; nothing else changed.
lbsim_cli_test(NAME "diff share beyond tolerance"
  ARGS diff ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll.share_nudged.json
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/diff_share_nudged.txt)
lbsim_cli_test(NAME "diff share within tolerance"
  ARGS diff --share-tol 0.03 ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll.share_nudged.json
  EXIT 0 STDOUT_MATCH "\nlbsim diff: 0 of 38 figures beyond tolerance; no change flagged\n$")
lbsim_cli_test(NAME "diff identical"
  ARGS diff ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll.json
  EXIT 0 STDOUT_MATCH "0 of 38 figures beyond tolerance")
lbsim_cli_test(NAME "diff different traces"
  ARGS diff ${GOLDEN}/ties.report.json ${DIFF_DATA}/queue_hints.ll.json
  EXIT 4 STDERR_LINES 1
  STDERR_MATCH "^lbsim: not comparable: [^\n]*queue_hints\\.ll\\.json: trace: {\"name\":\"queue-hints\",[^\n]*, but .*ties\\.report\\.json has {\"name\":\"ties\",[^\n]*; lbsim diff compares reports made under the same trace \\(--allow-different trace compares them anyway\\)\n$")
# The figure catalogue (sim/report/figure_catalogue.cc) judges the Proxy
# queue's figures: rr against ll of one report, --only-worse: the waits and
# latencies that rose are flagged (their p50s), those that fell are not,
# and stuck (0 to 0) is a headline.
lbsim_cli_test(NAME "diff proxy queue figures only worse"
  ARGS diff --only-worse --pair round_robin=least_load ${DIFF_DATA}/proxy_queue.rr_ll.json ${DIFF_DATA}/proxy_queue.rr_ll.json
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/diff_proxy_queue_only_worse.txt)
# A figure the catalogue does not know is refused, not compared as a count.
lbsim_cli_test(NAME "diff unknown figure"
  ARGS diff ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll.unknown_figure.json
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: ${DIFF_DATA}/queue_hints\\.ll\\.unknown_figure\\.json: strategies\\[0\\]\\.queue_fidelity: not a figure lbsim knows \\(expected a report from lbsim --format json. docs/reports\\.md lists the figures\\)\n$")
# Every figure of every JSON report the tests hold is in the catalogue: each
# report diffs against itself with no change.
file(GLOB catalogue_reports RELATIVE ${PROJECT_SOURCE_DIR}
     ${PROJECT_SOURCE_DIR}/tests/cli/golden/*.json ${PROJECT_SOURCE_DIR}/tests/diff/*.json)
foreach(report ${catalogue_reports})
  file(READ ${PROJECT_SOURCE_DIR}/${report} head LIMIT 40)
  if(NOT head MATCHES "lbsim_report" OR report MATCHES "unknown_figure")
    continue()
  endif()
  lbsim_cli_test(NAME "diff figure catalogue knows ${report}"
    ARGS diff --allow-different trace,proxy,simulation ${report} ${report}
    EXIT 0 STDOUT_MATCH "lbsim diff: 0 of [0-9]+ figures beyond tolerance. no change flagged\n$")
endforeach()

lbsim_cli_test(NAME "diff not a report"
  ARGS diff scenarios/aliases.json ${DIFF_DATA}/queue_hints.ll.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "scenarios/aliases\\.json: lbsim_report: expected 1")
lbsim_cli_test(NAME "diff unknown pair label"
  ARGS diff --pair round_robin=least_load ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--pair round_robin=least_load: .* has no strategy labelled round_robin")
lbsim_cli_test(NAME "diff negative tolerance"
  ARGS diff --share-tol -1 ${DIFF_DATA}/queue_hints.ll.json ${DIFF_DATA}/queue_hints.ll.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--share-tol: expected a number >= 0, got -1")

# A scenario's exec:COMMAND runs COMMAND through the shell: lbsim check
# refuses it (exit 2, nothing run) unless --allow-exec.
set(EXEC_SCENARIO tests/check/exec/exec_round_robin.json)
lbsim_cli_test(NAME "check refuses an exec strategy without --allow-exec"
  ARGS check ${EXEC_SCENARIO} EXIT 2 STDERR_LINES 1 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: ${EXEC_SCENARIO}: strategies\\[1\\]: exec:python3 strategies/external/proxy_strategies.py round_robin would run a shell command; lbsim check runs exec strategies only with --allow-exec\n$")
lbsim_cli_test(NAME "check runs an exec strategy with --allow-exec"
  ARGS check --allow-exec ${EXEC_SCENARIO} EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "\nlbsim check: 1 scenario, 1 expectation: 1 passed, 0 failed\n$")
