# What-if simulation: service model, stale metrics, windows. The traces are in
# tests/cli/whatif/; every golden number below was computed by hand.
set(WHATIF ${CLI_DIR}/whatif)

# two_instances_k1.json: inst-a and inst-b, 1 slot each, six 2 s requests
# arriving at t = 0, 0, 1, 1, 2, 5. Both strategies route a, b, a, b, a, b
# (least_load: its counter counts waiting requests too, so it alternates).
#   inst-a: r1 0->2 (wait 0, latency 2); r3 waits for r1: 2->4 (wait 1,
#           latency 3); r5 arrives at 2 just after r1's completion (class
#           0 before class 2) started r3, so it waits: 4->6 (wait 2, latency 4).
#   inst-b: r2 0->2 (0, 2); r4 2->4 (1, 3); r6 5->7 (0, 2).
#   Overall latencies sorted 2 2 2 3 3 4: p50 = rank 3 = 2; p90 = rank
#   ceil(5.4) = 6 = 4; p99 = 4; max 4; mean 16/6; mean wait 4/6.
#   inst-a p50 = rank 2 of (2 3 4) = 3; inst-b (2 2 3): p50 2, p90 3.
#   Span [0, 7]. Busy: inst-a [0, 6), inst-b [0, 4) + [5, 7): 6 each,
#   utilisation 6/7. Outstanding inst-a: 1 on [0,1), 2 on [1,4), 1 on [4,6):
#   area 9, mean 9/7, peak 2; inst-b: 1, 2, 1, 0, 1 on [0,1,2,4,5,7): area 7.
#   Windows of 2 s: [0,2) 4 decisions, mean inflight a = b = (1 + 2) / 2;
#   [2,4) a 2, b 1; [4,6) a 1, b 0.5; [6,8) covers only [6,7]: a 0, b 1.
#   Queue waits sorted 0 0 0 1 1 2: p50 0, p90 = p99 = max 2; inst-a
#   (0 1 2): p50 1. Per window, by arrival: [0,2) r1-r4, latencies 2 2 3 3
#   (p50 2, p90 rank 4 = 3), waits 0 0 1 1; [2,4) r5: 4, wait 2; [4,6) r6: 2,
#   wait 0; [6,8) none. Offered utilisation: 6 s of work per Instance over
#   1 slot x the trace's 5 s = 1.2, and requests waited: overload.
lbsim_cli_test(NAME "whatif service k1 json"
  ARGS -s rr,ll --slots 1 --window 2 --format json tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/whatif_k1.report.json)
lbsim_cli_test(NAME "whatif service k1 table"
  ARGS -s rr,ll --slots 1 tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/whatif_k1.table.txt)
# The table shows each window (up to 20): decisions / fallback rate / p99
# latency of the requests that arrived in it. By hand: the arrivals at 0
# take 2 s, those at 1 wait for a slot until 2 (3 s): [0, 2) p99 3; the one
# at 2 waits until 4 (4 s); the one at 5 finds a free slot (2 s).
lbsim_cli_test(NAME "whatif service k1 window table"
  ARGS -s rr,ll --slots 1 --window 2 tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/whatif_k1_windows.table.txt)
# A trace in milliseconds: the table's latencies are in seconds.
lbsim_cli_test(NAME "whatif table latencies of a ms trace in seconds"
  ARGS -s rr --slots 1 tests/cli/whatif/ms_two_requests.ndjson
  EXIT 0 STDOUT_MATCH "service \\(s\\)\n  served +2\n  latency p50 +1.500\n  latency p90 +3.000\n")
lbsim_cli_test(NAME "whatif service k1 window csv"
  ARGS -s rr --slots 1 --window 2 --format csv --output ${OUT}/whatif_k1.csv
       --window-csv ${OUT}/whatif_k1.windows.csv tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/whatif_k1.csv=${GOLDEN}/whatif_k1.csv
              ${OUT}/whatif_k1.windows.csv=${GOLDEN}/whatif_k1.windows.csv)

# --speed inst-a=2 halves inst-a's service time: r1 0->1, r3 1->2, r5 2->3
# (each starts as the previous one completes), no waits, latency 1 each,
# busy and outstanding area 3: mean inflight and utilisation 3/7, peak 1.
# inst-b as above.
lbsim_cli_test(NAME "whatif speed override csv"
  ARGS -s rr --slots 1 --speed inst-a=2 --format csv tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/whatif_speed.csv)

# stale_two.json: snapshots every 4 s from t=0, visible 1 s later. r1 at 0
# sees nothing published yet: fallback. From t=1 least_load sees the t=0
# snapshot (a 0, b 2) and herds onto inst-a until t=5, when the t=4 snapshot
# (a 4, b 2) appears; then it herds onto inst-b. 8 of 8 decisions herded.
lbsim_cli_test(NAME "whatif stale metrics decisions"
  ARGS -s ll --stale-interval 4 --stale-delay 1 --decisions ${OUT}/stale_two.decisions.jsonl
       --output ${OUT}/stale_two.report.txt tests/cli/whatif/stale_two.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/stale_two.decisions.jsonl=${GOLDEN}/stale_two.decisions.jsonl)
lbsim_cli_test(NAME "whatif stale metrics report"
  ARGS -s rr,ll --stale-interval 4 --stale-delay 1 --format json tests/cli/whatif/stale_two.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/stale_two.report.json)

# Usage errors: one line, exit 2, no output file.
lbsim_cli_test(NAME "whatif speed needs slots"
  ARGS --speed inst-a=2 tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--speed needs the service model" STDERR_LINES 1)
lbsim_cli_test(NAME "whatif speed of an unknown Instance"
  ARGS --slots 1 --speed inst-x=2 --output ${OUT}/unknown_speed.txt tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--speed inst-x=2: no Instance \"inst-x\".*\nlbsim: no output written \\(--output ${OUT}/unknown_speed.txt\\)\n$" STDERR_LINES 2
  ABSENT ${OUT}/unknown_speed.txt)
lbsim_cli_test(NAME "whatif bad speed assignment"
  ARGS --slots 1 --speed inst-a=0 tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--speed inst-a=0: expected ID=SPEED with SPEED a number > 0" STDERR_LINES 1)
lbsim_cli_test(NAME "whatif zero slots"
  ARGS --slots 0 tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--slots" STDERR_LINES 1)
lbsim_cli_test(NAME "whatif stale delay needs interval"
  ARGS --stale-delay 2 tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--stale-delay and --stale-jitter need --stale-interval" STDERR_LINES 1)
lbsim_cli_test(NAME "whatif window csv needs window"
  ARGS --window-csv ${OUT}/w.csv tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--window-csv needs --window.*\nlbsim: no output written \\(--window-csv ${OUT}/w.csv\\)\n$" STDERR_LINES 2
  ABSENT ${OUT}/w.csv)
# 600,000 window figures (37,500 windows x 16 Instances): within the limit
# of 1,000,000 for one run, past each run's share with two strategy runs or
# two seeds, and past it with the engine model (each counts twice).
set(FAR tests/cli/whatif/sixteen_far_apart.ndjson)
set(SHARE "--window 1: the run needs more than 500000 window x Instance figures .the limit of one replay, shared by its strategy runs and seeds.; choose a wider window\n$")
lbsim_cli_test(NAME "whatif window figures: 600,000 fit one run"
  ARGS -s rr --window 1 --format csv ${FAR} EXIT 0 STDERR_LINES 0)
foreach(case "two strategy runs|-s;rr,ll" "two seeds|-s;p2c;--seeds;1,2"
             "the engine model|-s;rr;--engine;llama-3.1-8b-h100")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(SUBLIST parts 1 -1 args)
  lbsim_cli_test(NAME "whatif window figures: 600,000 are past the share of ${name}"
    ARGS ${args} --window 1 ${FAR} EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: ${SHARE}")
endforeach()
lbsim_cli_test(NAME "whatif too many windows"
  ARGS --window 0.000001 --output ${OUT}/many.txt tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--window 1e-06: the run needs more than 1000000 windows.*\nlbsim: no output written \\(--output ${OUT}/many.txt\\)\n$" STDERR_LINES 2
  ABSENT ${OUT}/many.txt)
lbsim_cli_test(NAME "whatif bad speed key in a trace"
  ARGS --slots 1 tests/cli/whatif/bad_speed.ndjson
  EXIT 2 STDERR_MATCH "bad_speed.ndjson:3: field \"speed\": expected a finite number > 0 \\(service speed\\), got -1" STDERR_LINES 1)

# lbsim gen: byte-for-byte deterministic. gen_small.json uses every part of a
# spec; the golden was checked by hand: on/off rate (4/s on [0,4) and
# [6,10), 1/s otherwise), the burst at 5, 5.125, 5.25, 5.375, inst-2 down
# over [3,6), inst-3 flapping from 7 every 2 for 0.5, inst-new joining at 8
# with speed 1.5, reports every 2 s visible 0.25 s later from the reference
# round-robin Proxy (at 2.25: inst-2 holds arrivals 2, 5 and 8, inst-3
# arrivals 3 and 6; inst-1 is silent), the trace ending at its last arrival.
lbsim_cli_test(NAME "gen spec file golden"
  ARGS gen tests/cli/whatif/gen_small.json -o ${OUT}/gen_small.ndjson
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/gen_small.ndjson=${GOLDEN}/gen_small.ndjson)
lbsim_cli_test(NAME "gen flags golden"
  ARGS gen --instances 2 --rate 5 --arrivals 6 --durations fixed:0.5 --down inst-2@0.5
       --up inst-2@1 --seed 9 --name flags-only
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/gen_flags.ndjson)
# -o NAME.json writes the document encoding (the header's keys, then
# "events", one event a line), which a .json name is read as; its events are
# gen_flags.ndjson's, in order, and it replays to the same figures (one
# golden for both).
lbsim_cli_test(NAME "gen writes a JSON document to a .json file"
  ARGS gen --instances 2 --rate 5 --arrivals 6 --durations fixed:0.5 --down inst-2@0.5
       --up inst-2@1 --seed 9 --name flags-only -o ${OUT}/gen_flags.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/gen_flags.json=${GOLDEN}/gen_flags.document.json)
foreach(encoding IN ITEMS ndjson document.json)
  lbsim_cli_test(NAME "gen output replays the same from gen_flags.${encoding}"
    ARGS -s rr,ll --format csv tests/cli/golden/gen_flags.${encoding}
    EXIT 0 STDOUT_GOLDEN ${GOLDEN}/gen_flags.rr_ll.csv)
endforeach()
# Flags override the spec file: another seed, other arrival times.
lbsim_cli_test(NAME "gen flag overrides spec"
  ARGS gen tests/cli/whatif/gen_small.json --seed 43
  EXIT 0 STDOUT_MATCH "^{\"lbsim_trace\":1,\"name\":\"gen-small\",[^\n]*\"seed\":43}")
# A generated trace is a valid v1 trace.
lbsim_cli_test(NAME "gen output replays"
  ARGS -s rr,ll --slots 2 --format csv tests/cli/golden/gen_small.ndjson
  EXIT 0 STDOUT_MATCH "least_load,least_load,ll,cacheroute@28e857c,3.12,inst-new,")

lbsim_cli_test(NAME "gen unknown spec key"
  ARGS gen tests/cli/whatif/gen_bad_key.json -o ${OUT}/gen_bad.ndjson
  EXIT 2 STDERR_MATCH "gen_bad_key.json: field \"arrivals.rat\": expected one of the keys rate, count, until, on_off, diurnal, bursts, got 3\nlbsim: no output written \\(--output ${OUT}/gen_bad.ndjson\\)\n$"
  STDERR_LINES 2 ABSENT ${OUT}/gen_bad.ndjson)
lbsim_cli_test(NAME "gen bad flag value"
  ARGS gen --arrivals 5 --durations gamma:1
  EXIT 2 STDERR_MATCH "--durations gamma:1: expected fixed:V, exponential:MEAN or lognormal:MEAN:SIGMA, each value a number"
  STDERR_LINES 1)
lbsim_cli_test(NAME "gen down of an unknown Instance"
  ARGS gen --instances 2 --arrivals 5 --down inst-7@1 -o ${OUT}/gen_unknown.ndjson
  EXIT 2 STDERR_MATCH "command line: field \"events\\[0\\].instance\": down at t=1: \"inst-7\" is not registered then.*\nlbsim: no output written \\(--output ${OUT}/gen_unknown.ndjson\\)\n$"
  STDERR_LINES 2 ABSENT ${OUT}/gen_unknown.ndjson)
lbsim_cli_test(NAME "gen needs an end"
  ARGS gen --rate 3
  EXIT 2 STDERR_MATCH "expected a \"count\" or an \"until\"" STDERR_LINES 1)
lbsim_cli_test(NAME "gen refuses to overwrite its spec"
  ARGS gen tests/cli/whatif/gen_small.json -o tests/cli/whatif/gen_small.json
  EXIT 2 STDERR_MATCH "refusing to overwrite the input spec\nlbsim: no output written \\(--output tests/cli/whatif/gen_small.json\\)\n$"
  STDERR_LINES 2)
lbsim_cli_test(NAME "whatif negative window"
  ARGS --window -1 tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--window: expected a number > 0 \\(in the trace's time unit\\), got -1" STDERR_LINES 1)
lbsim_cli_test(NAME "whatif bad stale delay"
  ARGS --stale-interval 1 --stale-delay abc tests/cli/whatif/two_instances_k1.json
  EXIT 2 STDERR_MATCH "--stale-delay: expected a number >= 0 \\(in the trace's time unit\\), got abc" STDERR_LINES 1)
