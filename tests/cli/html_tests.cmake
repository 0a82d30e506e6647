# HTML reports (docs/html-reports.md): golden files of small cases, how the
# format is chosen, bad input, a size that does not grow with the trace, the
# sample reports, and a headless Chromium that opens every sample.
#
# The samples are written to build/tests/html/samples/ (fixture
# html_samples); tests/html/screenshots.py takes pictures of them for a
# reviewer.

set(HTML_DIR ${PROJECT_SOURCE_DIR}/tests/html)
set(HTML_SAMPLES ${PROJECT_BINARY_DIR}/tests/html/samples)
set(HTML_OUT ${OUT}/html)
file(MAKE_DIRECTORY ${HTML_SAMPLES} ${HTML_OUT})

# lbsim_html_sample(NAME <name> ARGS <arg>... [EXIT <status>] [GOLDEN <file>]
#                   [REQUIRES <fixture>])
# Runs lbsim to write sample <name> (ARGS name its path); with GOLDEN the
# sample must equal tests/cli/golden/<file> byte for byte.
function(lbsim_html_sample)
  cmake_parse_arguments(PARSE_ARGV 0 S "" "NAME;EXIT;GOLDEN;REQUIRES" "ARGS")
  if(NOT DEFINED S_EXIT)
    set(S_EXIT 0)
  endif()
  set(golden)
  if(DEFINED S_GOLDEN)
    set(golden FILE_GOLDEN ${HTML_SAMPLES}/${S_NAME}=${GOLDEN}/${S_GOLDEN})
  endif()
  lbsim_cli_test(NAME "html sample ${S_NAME}" ARGS ${S_ARGS} EXIT ${S_EXIT}
    STDERR_LINES 0 CLEAN ${HTML_SAMPLES}/${S_NAME} ${golden})
  set_tests_properties("cli: html sample ${S_NAME}" PROPERTIES FIXTURES_SETUP html_samples)
  if(DEFINED S_REQUIRES)
    set_tests_properties("cli: html sample ${S_NAME}" PROPERTIES FIXTURES_REQUIRED ${S_REQUIRES})
  endif()
endfunction()

# The hand-computed service case (tests/cli/whatif_tests.cmake has the
# arithmetic): two strategies, every chart, latency CDF, queue wait and
# utilisation. -o *.html picks the format.
lbsim_html_sample(NAME whatif_k1.html GOLDEN whatif_k1.html
  ARGS -s rr,ll --slots 1 -o ${HTML_SAMPLES}/whatif_k1.html tests/cli/whatif/two_instances_k1.json)
# Herding on stale snapshots without durations: least_load herds 12 of 12
# decisions (one run of 6 on inst-a is the longest), nothing in flight.
lbsim_html_sample(NAME stale_snapshot.html GOLDEN stale_snapshot.html
  ARGS -s ll --format html --output ${HTML_SAMPLES}/stale_snapshot.html
       traces/examples/stale_snapshot.ndjson)
# Ids and a name that would be markup: every one escaped, nothing loads.
lbsim_html_sample(NAME hostile.html GOLDEN hostile.html
  ARGS -s rr --slots 1 -o ${HTML_SAMPLES}/hostile.html tests/html/hostile.ndjson)
# The engine model with SLOs (the hand-computed three requests of
# tests/cli/engine_tests.cmake): TTFT and E2E distributions, the SLO table.
lbsim_html_sample(NAME engine_slo.html
  ARGS -s rr,ll --engine tests/cli/engine/small_engine.json --slo ttft=2.5ms,tpot=0.0015
       -o ${HTML_SAMPLES}/engine_slo.html tests/cli/engine/three_requests.ndjson)
# No event at all: the share charts, nothing over time.
lbsim_html_sample(NAME no_events.html
  ARGS -s rr,ll -o ${HTML_SAMPLES}/no_events.html tests/corpus/odd/header_only.ndjson)
# The README's herding walkthrough, three strategies.
lbsim_cli_test(NAME "html sample herding trace"
  ARGS gen scenarios/whatif/herding.gen.json -o ${HTML_OUT}/herding.ndjson EXIT 0)
set_tests_properties("cli: html sample herding trace" PROPERTIES FIXTURES_SETUP html_herding)
lbsim_html_sample(NAME herding.html REQUIRES html_herding
  ARGS -s rr,ll,p2c --slots 4 --stale-interval 2 --stale-delay 1
       -o ${HTML_SAMPLES}/herding.html ${HTML_OUT}/herding.ndjson)
# Twelve Instances (seven colours and the rest in grey) in --window 10 s.
lbsim_cli_test(NAME "html sample pool12 trace"
  ARGS gen --instances 12 --rate 40 --arrivals 6000 --durations exponential:0.4
       --down inst-03@40 --up inst-03@80 --seed 5 -o ${HTML_OUT}/pool12.ndjson EXIT 0)
set_tests_properties("cli: html sample pool12 trace" PROPERTIES FIXTURES_SETUP html_pool12)
lbsim_html_sample(NAME pool12.html REQUIRES html_pool12
  ARGS -s rr,ll --window 10 -o ${HTML_SAMPLES}/pool12.html ${HTML_OUT}/pool12.ndjson)
# A sweep with the service model: heatmaps and latency_p99 against jain.
lbsim_html_sample(NAME sweep.html GOLDEN sweep.html
  ARGS sweep --proxy spec -s rr,ll --vary ll.inflight=0,1 --slots 1 -j 1
       -o ${HTML_SAMPLES}/sweep.html traces/examples/ties.json
       tests/cli/whatif/two_instances_k1.json)
# Check results with failures (exit 1): failed expectations first.
lbsim_html_sample(NAME check.html GOLDEN check.html EXIT 1
  ARGS check tests/check/results --html ${HTML_SAMPLES}/check.html)

# Every sample in headless Chromium: no error, no load, the charts and
# numbers expected (tests/html/samples.json); skipped without Chromium.
add_test(NAME "html: every sample report renders in headless Chromium"
  COMMAND Python3::Interpreter ${HTML_DIR}/browser_test.py ${HTML_SAMPLES}
          ${HTML_DIR}/samples.json)
set_tests_properties("html: every sample report renders in headless Chromium" PROPERTIES
  FIXTURES_REQUIRED "html_samples" SKIP_RETURN_CODE 77 TIMEOUT 600)

# The browser test fails a broken page: a script, its console error and
# exception, a failed load, links out of the page or to nothing, a chart
# without a description, and charts, a title and text it does not have.
add_test(NAME "html: the browser test fails a broken page"
  COMMAND Python3::Interpreter ${HTML_DIR}/browser_test.py ${HTML_DIR}/broken
          ${HTML_DIR}/broken/expect.json)
set_tests_properties("html: the browser test fails a broken page" PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 300
  PASS_REGULAR_EXPRESSION "console.error: \\['boom'\\].*exception: Uncaught.*failed load: net::ERR_FILE_NOT_FOUND.*request for another resource: file://[^\n]*missing.png.*c: no <desc>.*link out of the page: http://example.invalid/.*link to nothing: #nowhere.*elements that load.*1 script elements.*title 'broken on purpose'.*1 charts of kind share, expected 2.*does not show 'a number it does not show'.*no navigation.*broken.html \\(dark\\).*the same background in light and dark mode.*absent.html: no such sample.*browser test: 2 samples")

# How the format is chosen: -f wins; else .html or .htm (any case) names
# html; the bytes are the same either way.
lbsim_cli_test(NAME "html format to standard output"
  ARGS -s rr,ll --slots 1 -f html tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/whatif_k1.html)
lbsim_cli_test(NAME "html picked by an .HTM output in any case"
  ARGS -s rr,ll --slots 1 -o ${HTML_OUT}/k1.HTM tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${HTML_OUT}/k1.HTM=${GOLDEN}/whatif_k1.html)
lbsim_cli_test(NAME "html output name loses to an explicit format"
  ARGS -s rr,ll --slots 1 --window 2 -f json -o ${HTML_OUT}/named.html
       tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${HTML_OUT}/named.html=${GOLDEN}/whatif_k1.report.json)
lbsim_cli_test(NAME "html bad format value"
  ARGS -f htm tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--format: htm not in \\{table,json,csv,html,md\\}")

# Bad input: one line, exit 2, no file and no temporary file left.
lbsim_cli_test(NAME "html report of a bad trace writes nothing"
  ARGS -s rr,ll -o ${HTML_OUT}/bad/report.html tests/corpus/bad/arrival_duration_negative.ndjson
  EXIT 2 STDERR_LINES 2 EMPTY_DIRS ${HTML_OUT}/bad
  STDERR_MATCH "^lbsim: error: tests/corpus/bad/arrival_duration_negative.ndjson:[0-9]+: field \"duration\"[^\n]*\nlbsim: no output written \\(--output ${HTML_OUT}/bad/report.html\\)\n$")
lbsim_cli_test(NAME "html report of extreme times"
  ARGS -s rr,ll --slots 2 -f html tests/corpus/odd/extreme_times.ndjson
  EXIT 0 STDERR_LINES 0 STDOUT_MATCH "^<!DOCTYPE html>\n.*1\\.79769e\\+308.*</html>\n$")

# lbsim sweep: html by name, the service model's figures in CSV and JSON,
# and --scatter refused before any work when it cannot be drawn.
lbsim_cli_test(NAME "sweep html picked by the output name"
  ARGS sweep --proxy spec -s rr,ll --vary ll.inflight=0,1 --slots 1 -j 2
       -o ${HTML_OUT}/sweep.html traces/examples/ties.json tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${HTML_OUT}/sweep.html=${GOLDEN}/sweep.html)
# two_instances_k1 with one slot: p99 4 for both (tests/cli/whatif_tests.cmake);
# ties.json has no durations: nothing served.
lbsim_cli_test(NAME "sweep with the service model csv"
  ARGS sweep --proxy spec -s rr,ll --vary ll.inflight=0,1 --slots 1
       traces/examples/ties.json tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/sweep_slots.csv)
lbsim_cli_test(NAME "sweep with the service model json"
  ARGS sweep --proxy spec -s rr --slots 1 -f json tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "\"slots\": 1,\n.*\"service\": {\n *\"served\": 6,\n *\"latency\": {\n *\"p50\": 2.0,\n *\"p90\": 4.0,\n *\"p99\": 4.0,")
lbsim_cli_test(NAME "sweep scatter needs html"
  ARGS sweep -s rr --scatter gini,jain traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --scatter: only the html format draws a scatter")
lbsim_cli_test(NAME "sweep scatter of an unknown figure"
  ARGS sweep -s rr -f html --scatter gini,fairness traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --scatter gini,fairness: no figure 'fairness'; expected one of no_instances, jain, jain_eligible, ")
lbsim_cli_test(NAME "sweep scatter of a latency without the service model"
  ARGS sweep -s rr -o ${HTML_OUT}/no_slots.html --scatter latency_p99,jain traces/examples/ties.json
  EXIT 2 STDERR_LINES 2 ABSENT ${HTML_OUT}/no_slots.html
  STDERR_MATCH "^lbsim: error: --scatter latency_p99,jain: latency_p99 needs the service model \\(--slots K\\)\n")

# lbsim check --html: refused where it cannot go, before any scenario runs.
lbsim_cli_test(NAME "check html to standard output refused"
  ARGS check scenarios/ --html -
  EXIT 2 STDERR_LINES 2 STDERR_MATCH "^lbsim: error: --html -: the results already go to standard output; give a file\n")
lbsim_cli_test(NAME "check html and junit the same file refused"
  ARGS check scenarios/ --junit ${HTML_OUT}/same.out --html ${HTML_OUT}/same.out
  EXIT 2 STDERR_LINES 2 ABSENT ${HTML_OUT}/same.out
  STDERR_MATCH "^lbsim: error: --junit and --html name the same file\n")
lbsim_cli_test(NAME "check html over a scenario refused"
  ARGS check tests/check/results/a_passing.json --html tests/check/results/a_passing.json
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --html tests/check/results/a_passing.json: refusing to overwrite the input scenario\n")

# The file's size does not grow with the trace: 20x the arrivals, the same
# number of chart windows and points.
add_test(NAME "html: the report's size does not grow with the trace"
  COMMAND ${CMAKE_COMMAND} -DLBSIM=$<TARGET_FILE:lbsim> -DWORKDIR=${HTML_OUT}/size
          -P ${HTML_DIR}/size_bound_test.cmake)

