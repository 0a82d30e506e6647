# `lbsim import --from cacheroute-record`: a recording of the Proxy
# (docs/record-proxy.md) becomes the reviewed golden trace (the example
# traces/examples/recorded_proxy.ndjson), whose replay
# under the recorded profile makes every decision the Proxy made; bad
# recordings stop the import (exit 2, one line, no output file).

set(RECORD_IN tests/cli/import_inputs)
set(RECORD_GOLDEN ${GOLDEN}/import)

lbsim_cli_test(NAME "import cacheroute-record sample"
  ARGS import --from cacheroute-record --name recorded-proxy
       traces/import_samples/cacheroute_sample.rec -o ${OUT}/import/cacheroute_sample.ndjson
  EXIT 0 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: imported 8 arrivals from traces/import_samples/cacheroute_sample.rec \\(cacheroute-record\\): 1 refused, 0 found no Instance, 1 still in flight at the end, 1 Instance expired; proxy cacheroute@28e857c, strategy least_load\n$"
  FILE_GOLDEN ${OUT}/import/cacheroute_sample.ndjson=${PROJECT_SOURCE_DIR}/traces/examples/recorded_proxy.ndjson)
set_tests_properties("cli: import cacheroute-record sample" PROPERTIES FIXTURES_SETUP imported_record)

# The self-check: least_load under the recorded profile equals the Proxy on
# every decision; round_robin, compared too, is no self-check.
lbsim_cli_test(NAME "replay imported recording checks itself"
  ARGS -s ll,rr --expect "least_load.proxy_choices.share == 1"
       --expect "least_load.proxy_choices.compared == 8"
       --expect "round_robin.proxy_choices.equal == 5" --fail-on proxy_differs
       ${OUT}/import/cacheroute_sample.ndjson
  EXIT 0
  STDOUT_MATCH "\nthe recorded Proxy's choices\n  equal             8 of 8 \\(100.0%\\)  5 of 8 \\(62.5%\\)\n  first differs                   -       arrival 2\n  self-check                    yes              no\n")
set_tests_properties("cli: replay imported recording checks itself" PROPERTIES FIXTURES_REQUIRED imported_record)

# Under another profile the same strategy is no self-check: no warning.
lbsim_cli_test(NAME "replay imported recording under another profile"
  ARGS -s ll --proxy cacheroute@df8382d --fail-on proxy_differs --format json
       ${OUT}/import/cacheroute_sample.ndjson
  EXIT 0 STDOUT_MATCH "\"proxy_choices\": {\n *\"compared\": 8,\n *\"equal\": [0-9]+,\n *\"share\": [0-9.e-]+,\n *\"self_check\": false,")
set_tests_properties("cli: replay imported recording under another profile" PROPERTIES FIXTURES_REQUIRED imported_record)

# A recording whose choice the pinned least_load would not make: the
# self-check names the first difference with what the strategy saw.
lbsim_cli_test(NAME "import cacheroute-record that differs"
  ARGS import --from cacheroute-record ${RECORD_IN}/record_differs.rec -o ${OUT}/import/record_differs.ndjson
  EXIT 0 STDERR_LINES 1)
set_tests_properties("cli: import cacheroute-record that differs" PROPERTIES FIXTURES_SETUP imported_differs)
lbsim_cli_test(NAME "replay of a recording that differs fails on proxy_differs"
  ARGS -s ll --fail-on proxy_differs --output ${OUT}/import/record_differs.report.txt
       ${OUT}/import/record_differs.ndjson
  EXIT 1 STDERR_LINES 1
  STDERR_MATCH "^lbsim: --fail-on: least_load: 1 of 2 decisions differ from the recorded Proxy's choices; the first, arrival 2 \\(request r2, t 1.9990234375\\): the Proxy chose a, this run b \\(least\\); candidates: a \\(inflight 1, qps_1m unknown, active_prepare 1\\); b \\(inflight 0, qps_1m unknown\\) \\(proxy_differs\\)\n$")
set_tests_properties("cli: replay of a recording that differs fails on proxy_differs" PROPERTIES FIXTURES_REQUIRED imported_differs)
lbsim_cli_test(NAME "check expects a recording's self-check"
  ARGS -s ll --expect "least_load.proxy_choices.share == 1" ${OUT}/import/record_differs.ndjson
  EXIT 1 STDERR_MATCH "least_load.proxy_choices.share is 0.5")
set_tests_properties("cli: check expects a recording's self-check" PROPERTIES FIXTURES_REQUIRED imported_differs)

# Gaps in a recording are counted and the first named; the import goes on.
lbsim_cli_test(NAME "import cacheroute-record with gaps"
  ARGS import --from cacheroute-record ${RECORD_IN}/record_gaps.rec
  EXIT 0 STDERR_LINES 1
  STDERR_MATCH "; warning: the recorder lost 7 events, so decisions after the loss may not replay as recorded; warning: 2 places where the recording does not explain itself \\(first: ${RECORD_IN}/record_gaps.rec:7: a request ended on b with none in flight there\\)\n$")

# Standard input is read twice too (spooled).
lbsim_cli_test(NAME "import cacheroute-record from stdin"
  ARGS import --from cacheroute-record -
  STDIN_FILE traces/import_samples/cacheroute_sample.rec
  EXIT 0 STDOUT_GOLDEN ${RECORD_GOLDEN}/cacheroute_sample_stdin.ndjson STDERR_LINES 1)

# Bad recordings: one line naming file, line and field; no output file.
foreach(case
    "record_bad_version|1: field \"lbsim_record\": expected 1 \\(a recording of lbsim's recorder, version 1\\), got 2"
    "record_bad_ns|3: field \"ns\": expected an integer >= 0 \\(monotonic nanoseconds\\), got -5"
    "record_unknown_event|2: field \"ev\": expected one of pool, register, heartbeat, refresh, remove, decision, no_instances, begin, end, lost, stop, got \"teleport\""
    "record_chosen_and_error|3: a decision has both \"chosen\" and \"error\""
    "record_duplicate_candidate|3: field \"candidates\": Instance \"a\" appears twice"
    "record_truncated_line|3: invalid JSON at column 150: "
    "record_empty|: an empty recording; expected a header line")
  string(REGEX REPLACE "\\|.*" "" file "${case}")
  string(REGEX REPLACE "^[^|]*\\|" "" message "${case}")
  lbsim_cli_test(NAME "import cacheroute-record ${file}"
    ARGS import --from cacheroute-record ${RECORD_IN}/${file}.rec -o ${OUT}/import/bad_record.ndjson
    EXIT 2 STDERR_LINES 1 ABSENT ${OUT}/import/bad_record.ndjson
    STDERR_MATCH "^lbsim: error: ${RECORD_IN}/${file}.rec:?${message}")
endforeach()

# The request-import options do not apply to a recording.
lbsim_cli_test(NAME "import cacheroute-record refuses --instances"
  ARGS import --from cacheroute-record --instances 3 traces/import_samples/cacheroute_sample.rec
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "--instances: does not apply to --from cacheroute-record: a recording holds its own Instances, times and request ends")
lbsim_cli_test(NAME "import cacheroute-record refuses the token-time model"
  ARGS import --from cacheroute-record --decode-ms-per-token 5 traces/import_samples/cacheroute_sample.rec
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "--decode-ms-per-token: does not apply to --from cacheroute-record")

# The header's python (written from the recorded interpreter) picks the
# summation; --python wins over it; anything but 3.11 or 3.12 is refused.
lbsim_cli_test(NAME "trace header python picks the summation"
  ARGS -s ll ${RECORD_IN}/python_header.ndjson
  EXIT 0 STDOUT_MATCH "Python 3.11\\).*\n  b +1 \\(100.0%\\)\n")
lbsim_cli_test(NAME "--python wins over the trace header's"
  ARGS -s ll --python 3.12 ${RECORD_IN}/python_header.ndjson
  EXIT 0 STDOUT_MATCH "Python 3.12\\).*\n  a +1 \\(100.0%\\)\n")
lbsim_cli_test(NAME "trace header python must be 3.11 or 3.12"
  ARGS -s ll - STDIN_FILE ${RECORD_IN}/python_bad_header.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: <stdin>:1: header: field \"python\": expected \"3.11\" or \"3.12\" \\(the Proxy's interpreter\\), got \"3.10\"\n$")

# cacheroute@df8382d counts no requests: heartbeats carry inflight (written
# as the load events' inflight that this version applies), no begin/end.
lbsim_cli_test(NAME "import a df8382d recording"
  ARGS import --from cacheroute-record ${RECORD_IN}/record_df8382d.rec -o ${OUT}/import/record_df8382d.ndjson
  EXIT 0 STDERR_LINES 1
  STDERR_MATCH "\\(no begin_request recorded: arrivals carry no duration\\); proxy cacheroute@df8382d, strategy least_load\n$"
  FILE_GOLDEN ${OUT}/import/record_df8382d.ndjson=${RECORD_GOLDEN}/record_df8382d.ndjson)
set_tests_properties("cli: import a df8382d recording" PROPERTIES FIXTURES_SETUP imported_df8382d)
lbsim_cli_test(NAME "replay of a df8382d recording checks itself"
  ARGS -s ll --expect "least_load.proxy_choices.share == 1" --fail-on proxy_differs
       ${OUT}/import/record_df8382d.ndjson
  EXIT 0 STDOUT_MATCH "self-check +yes\n")
set_tests_properties("cli: replay of a df8382d recording checks itself" PROPERTIES FIXTURES_REQUIRED imported_df8382d)

# The Proxy takes any float; a trace holds weights > 0 and qps_1m >= 0: what
# it cannot hold is left out and counted, and the trace still replays.
lbsim_cli_test(NAME "import cacheroute-record values a trace cannot hold"
  ARGS import --from cacheroute-record ${RECORD_IN}/record_unreplayable.rec -o ${OUT}/import/record_unreplayable.ndjson
  EXIT 0 STDERR_LINES 1
  STDERR_MATCH "; warning: 2 places where the recording does not explain itself \\(first: ${RECORD_IN}/record_unreplayable.rec:2: a has weight 0, which a trace cannot hold: left at 1\\)\n$")
set_tests_properties("cli: import cacheroute-record values a trace cannot hold" PROPERTIES FIXTURES_SETUP imported_unreplayable)
# Such a value is a gap where the recording first says it: a decision that
# repeats it is explained (r1); one that says another value is not (r2: it
# differs from the heartbeat, and the trace cannot hold it either).
lbsim_cli_test(NAME "import cacheroute-record counts a value a trace cannot hold once"
  ARGS import --from cacheroute-record ${RECORD_IN}/record_unreplayable_changed.rec -o ${OUT}/import/record_unreplayable_changed.ndjson
  EXIT 0 STDERR_LINES 1
  STDERR_MATCH "; warning: 3 places where the recording does not explain itself \\(first: ${RECORD_IN}/record_unreplayable_changed.rec:3: a reports qps_1m -1.5 and inflight unknown, which a trace cannot hold: left out\\)\n$")
lbsim_cli_test(NAME "replay of a recording with values a trace cannot hold"
  ARGS -s ll --expect "least_load.proxy_choices.share == 1" ${OUT}/import/record_unreplayable.ndjson
  EXIT 0)
set_tests_properties("cli: replay of a recording with values a trace cannot hold" PROPERTIES FIXTURES_REQUIRED imported_unreplayable)

# The decision log passes each arrival's recorded choice through.
lbsim_cli_test(NAME "decision log passes the recorded choice through"
  ARGS -s ll --decisions ${OUT}/import/cacheroute_sample.decisions.jsonl
       --output ${OUT}/import/cacheroute_sample.report.txt ${OUT}/import/cacheroute_sample.ndjson
  EXIT 0
  FILE_GOLDEN ${OUT}/import/cacheroute_sample.decisions.jsonl=${RECORD_GOLDEN}/cacheroute_sample.decisions.jsonl)
set_tests_properties("cli: decision log passes the recorded choice through" PROPERTIES FIXTURES_REQUIRED imported_record)

# A recorder installed on a running Proxy: the Instances already in the pool
# go into the header in the order a decision offered them, even when a
# heartbeat named one first.
lbsim_cli_test(NAME "import a recording started on a running Proxy"
  ARGS import --from cacheroute-record ${RECORD_IN}/record_started_late.rec
  EXIT 0 STDERR_LINES 1
  STDOUT_MATCH "\"instances\":\\[{\"id\":\"a\",\"inflight\":0},{\"id\":\"b\",\"inflight\":0,\"qps_1m\":1}\\]}\n")

# Over seeds, the agreement of a randomised strategy spreads; the self-check's does not.
lbsim_cli_test(NAME "seeds table shows the agreement with the recorded Proxy"
  ARGS -s ll,rand --seeds 1,2,3 traces/examples/recorded_proxy.ndjson
  EXIT 0 STDOUT_MATCH "\nequal to the recorded Proxy +1.0000  0.3750 \\[0.1250, 0.3750\\]\n")

# Under --proxy-queue the run's hint is the queue model's, so it is no
# self-check (no warning), but its decisions are still compared.
lbsim_cli_test(NAME "the Proxy queue model's run is compared but no self-check"
  ARGS -s ll --proxy-queue --fail-on proxy_differs ${RECORD_IN}/proxy_choice_queue.ndjson
  EXIT 0
  STDOUT_MATCH "\nthe recorded Proxy's choices\n  equal             1 of 2 \\(50.0%\\)\n  first differs          arrival 2\n  self-check                    no\n")
