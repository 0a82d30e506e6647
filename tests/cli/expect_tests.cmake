# A replay's inline thresholds (--expect 'PATH OP VALUE', docs/ci-gates.md):
# the paths and comparisons of check scenarios, strict < and > included,
# judged after the replay; a failure is one line on stderr and exit 1 with
# every output written, a bad expectation exit 2 with none. On ties.json,
# least_load makes 11 decisions and its Jain index is 0.6173.
set(EXPECT_OUT ${OUT}/expect)
file(MAKE_DIRECTORY ${EXPECT_OUT})
lbsim_cli_test(NAME "expect: thresholds that hold are silent"
  ARGS -s rr,ll traces/examples/ties.json --expect "least_load.decisions <= 11"
       --expect "least_load.fairness.jain>0.6" --expect "round_robin.strategy == \"round_robin\""
       --expect "trace.arrivals == 11"
  EXIT 0 STDOUT_MATCH "^trace     traces/examples/ties.json\n" STDERR_LINES 0)
lbsim_cli_test(NAME "expect: strict and inclusive bounds, one line per failure"
  ARGS -s ll traces/examples/ties.json --expect "least_load.decisions < 11"
       --expect "least_load.decisions >= 11" --expect "least_load.fairness.jain > 0.9"
       -o ${EXPECT_OUT}/failed.txt
  EXIT 1 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: --expect 'least_load.decisions < 11' failed: least_load.decisions is 11\nlbsim: --expect 'least_load.fairness.jain > 0.9' failed: least_load.fairness.jain is 0.6173469387755102\n$"
  FILE_GOLDEN ${EXPECT_OUT}/failed.txt=${GOLDEN}/ties.ll.table.txt)
lbsim_cli_test(NAME "expect: under seeds, each must hold under every seed"
  ARGS -s p2c traces/examples/ties.json --seeds 1,2,3 --expect "power_of_two.decisions == 10"
  EXIT 1 STDERR_LINES 1
  STDERR_MATCH "^lbsim: --expect 'power_of_two.decisions == 10' failed: power_of_two.decisions is 11; fails under seed 1, 2, 3\n$")
lbsim_cli_test(NAME "expect: junit file of the expectations"
  ARGS -s ll traces/examples/ties.json --expect "least_load.decisions == 11"
       --expect "least_load.fairness.jain >= 0.99" -o ${EXPECT_OUT}/report.json
       --junit ${EXPECT_OUT}/expect.xml
  EXIT 1 STDOUT_MATCH "^$" STDERR_LINES 1
  FILE_GOLDEN ${EXPECT_OUT}/expect.xml=${GOLDEN}/expect.junit.xml)
lbsim_cli_test(NAME "expect: a path the report does not have writes nothing"
  ARGS -s ll traces/examples/ties.json --expect "least_load.fairnes.jain > 0.5"
       -o ${EXPECT_OUT}/bad_path.txt --junit ${EXPECT_OUT}/bad_path.xml
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --expect 'least_load.fairnes.jain > 0.5': \"least_load.fairnes.jain\": the report has no key \"fairnes\" under least_load; expected one of: strategy, [^\n]*\nlbsim: no output written \\(--output ${EXPECT_OUT}/bad_path.txt, --junit ${EXPECT_OUT}/bad_path.xml\\)\n$"
  ABSENT ${EXPECT_OUT}/bad_path.txt ${EXPECT_OUT}/bad_path.xml)
foreach(bad IN ITEMS "least_load.decisions = 11|no operator '='" "least_load.decisions|no comparison"
                     "< 3|no report path before the comparison" "least_load.decisions <|no value after the comparison"
                     "least_load.decisions < many|'many' is not a finite number"
                     "least_load.decisions == maybe|'maybe' is not a number, a JSON string")
  string(REPLACE "|" ";" parts "${bad}")
  list(GET parts 0 text)
  list(GET parts 1 message)
  lbsim_cli_test(NAME "expect: refused before reading: ${text}"
    ARGS traces/examples/ties.json --expect "${text}"
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --expect '[^\n]*': ${message}")
endforeach()
lbsim_cli_test(NAME "expect: junit needs an expectation"
  ARGS traces/examples/ties.json --junit ${EXPECT_OUT}/none.xml
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --junit: no --expect to report; give --expect 'PATH OP VALUE'\nlbsim: no output written \\(--junit ${EXPECT_OUT}/none.xml\\)\n$"
  ABSENT ${EXPECT_OUT}/none.xml)
