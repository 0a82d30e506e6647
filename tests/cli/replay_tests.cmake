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

# Reading ahead on a second thread, or replaying in groups, changes nothing
# a replay writes.
add_test(NAME "cli: replay: read ahead, on one CPU, from stdin and in groups: the same outputs and errors"
  COMMAND ${CMAKE_COMMAND} -DLBSIM=$<TARGET_FILE:lbsim> -DDIR=${OUT}/read_ahead
          -P ${CLI_DIR}/run_read_ahead_test.cmake)

# One trace through every Proxy version (traces/examples/proxy_versions.ndjson):
# each version's decisions, reviewed by hand against proxy-versions.md.
foreach(commit df8382d 2f1019a 55b32e9 8b116b6 d4bd47f 28e857c)
  lbsim_cli_test(NAME "decisions proxy_versions cacheroute@${commit}"
    ARGS --proxy cacheroute@${commit} -s rr,ll --decisions ${OUT}/proxy_versions.${commit}.jsonl
         --output ${OUT}/proxy_versions.${commit}.txt traces/examples/proxy_versions.ndjson
    EXIT 0 STDOUT_MATCH "^$"
    FILE_GOLDEN ${OUT}/proxy_versions.${commit}.jsonl=${GOLDEN}/proxy_versions.${commit}.decisions.jsonl)
endforeach()
# Python 3.11 adds least_load's terms left to right: r4 no longer ties.
lbsim_cli_test(NAME "decisions proxy_versions latest on Python 3.11"
  ARGS --proxy latest --python 3.11 -s rr,ll --decisions ${OUT}/proxy_versions.py311.jsonl
       --output ${OUT}/proxy_versions.py311.txt traces/examples/proxy_versions.ndjson
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/proxy_versions.py311.jsonl=${GOLDEN}/proxy_versions.28e857c.py311.decisions.jsonl)
lbsim_cli_test(NAME "decisions proxy_versions spec"
  ARGS --proxy spec -s rr,ll --decisions ${OUT}/proxy_versions.spec.jsonl
       --output ${OUT}/proxy_versions.spec.txt traces/examples/proxy_versions.ndjson
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/proxy_versions.spec.jsonl=${GOLDEN}/proxy_versions.spec.decisions.jsonl)
# The report names the Proxy and counts what it refused and ignored.
lbsim_cli_test(NAME "report json proxy_versions latest"
  ARGS -s rr,ll --format json traces/examples/proxy_versions.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_versions.report.json)
# cacheroute@df8382d applies a heartbeat's inflight itself and ignores only
# its nulls (ties.json has four): the warning says so and names no other
# profile to use instead.
lbsim_cli_test(NAME "table ties under cacheroute@df8382d: the ignored inflight nulls"
  ARGS -s ll --proxy cacheroute@df8382d traces/examples/ties.json
  EXIT 0 STDOUT_MATCH "\n  proxy: 4 inflight nulls of load/up events left the value as it was: cacheroute@df8382d applies only the values a heartbeat carries\n")
lbsim_cli_test(NAME "table proxy_versions latest with a changed weight"
  ARGS -s rr,ll,ll:qps_1m=0.01 traces/examples/proxy_versions.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_versions.table.txt)
lbsim_cli_test(NAME "proxies listing"
  ARGS proxies
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxies.txt STDERR_LINES 0)
lbsim_cli_test(NAME "strategies listing under an L1 Proxy"
  ARGS strategies --proxy cacheroute@55b32e9
  EXIT 0 STDOUT_MATCH "^As cacheroute@55b32e9 runs them on Python 3.12 [^\n]*\n\nSTRATEGY[^\n]*\nround_robin[^\n]*\nleast_load +ll, least-load +experimental +Chooses the alive Instance with the lowest known inflight, then the lowest known qps_1m")
