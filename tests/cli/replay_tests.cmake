# Replays of the shipped example traces: reports and decision logs.

set(example_traces
  steady_pool.json all_unknown.json mixed_known_unknown.json down_and_back.json
  ties.json stale_snapshot.ndjson queue_hints.json empty_pool.json)

foreach(trace IN LISTS example_traces)
  string(REGEX REPLACE "\\.[a-z]+$" "" stem "${trace}")
  # JSON report of round_robin and least_load side by side.
  lbsim_cli_test(NAME "report json ${stem}"
    ARGS -s rr,ll --format json traces/examples/${trace}
    EXIT 0 STDOUT_GOLDEN ${GOLDEN}/${stem}.report.json)
  # The decision log, strategies in command-line order.
  lbsim_cli_test(NAME "decisions ${stem}"
    ARGS -s rr,ll --decisions ${OUT}/${stem}.decisions.jsonl --output ${OUT}/${stem}.report.txt traces/examples/${trace}
    EXIT 0 STDOUT_MATCH "^$"
    FILE_GOLDEN ${OUT}/${stem}.decisions.jsonl=${GOLDEN}/${stem}.decisions.jsonl)
endforeach()

# The human table, the default format.
lbsim_cli_test(NAME "table steady_pool"
  ARGS --strategy ll -s rr traces/examples/steady_pool.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/steady_pool.table.txt)
lbsim_cli_test(NAME "table mixed_known_unknown"
  ARGS -s rr,ll traces/examples/mixed_known_unknown.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/mixed_known_unknown.table.txt)
lbsim_cli_test(NAME "csv ties"
  ARGS -s rr,ll --format csv traces/examples/ties.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/ties.csv)

# Reading ahead on a second thread changes nothing a replay writes.
add_test(NAME "cli: replay: read ahead, on one CPU and from stdin: the same outputs and errors"
  COMMAND ${CMAKE_COMMAND} -DLBSIM=$<TARGET_FILE:lbsim> -DDIR=${OUT}/read_ahead
          -P ${CLI_DIR}/run_read_ahead_test.cmake)
