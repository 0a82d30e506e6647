# CI gates (issue 19): what-if options in scenarios, sweeps and diffs;
# detectors; --fail-on; seeds and spread. The gen specs of
# scenarios/whatif/ are generated once into ${GATES}; the scenarios of
# tests/cli/gates/ are copied into scenarios, next to them.
set(GATES ${OUT}/gates)
file(MAKE_DIRECTORY ${GATES}/scenarios)
file(GLOB gate_scenarios CONFIGURE_DEPENDS ${CLI_DIR}/gates/*.json)
foreach(file IN LISTS gate_scenarios)
  configure_file(${file} ${GATES}/scenarios/ COPYONLY)
endforeach()
foreach(spec herding heterogeneous_speeds silent_unknown_zero overload)
  add_test(NAME "cli: gates: gen ${spec}"
    COMMAND $<TARGET_FILE:lbsim> gen scenarios/whatif/${spec}.gen.json -o ${GATES}/${spec}.ndjson
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties("cli: gates: gen ${spec}" PROPERTIES FIXTURES_SETUP gate_traces)
endforeach()
# lbsim_gate_test(...): an lbsim_cli_test run in ${GATES}, after the traces
# are generated (paths in its output are relative to ${GATES}).
function(lbsim_gate_test name)
  lbsim_cli_test(NAME "gates: ${name}" WORKDIR ${GATES} ${ARGN})
  set_tests_properties("cli: gates: ${name}" PROPERTIES FIXTURES_REQUIRED gate_traces)
endfunction()

# Scenarios take every what-if option and pin every what-if figure: latency
# and wait percentiles of the run, an Instance and a window, utilisation,
# herded decisions, longest run, a window's fallback rate, warnings present
# and absent. Each detector fires on its disaster and stays silent on the
# look-alike (concentration_silent / speeds_lookalike, herding_stale /
# herding_live_lookalike / speeds_lookalike, overload / overload_lookalike).
lbsim_gate_test("check scenarios with what-if options"
  ARGS check scenarios
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/gates_check.txt)
# Actual values typed in JSON; under several seeds, their spread.
lbsim_gate_test("check json: typed actual values and the spread over seeds"
  ARGS check --format json scenarios/seeds.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/gates_check_seeds.json)
# Quiet: only what failed, then the summary.
lbsim_cli_test(NAME "check --quiet prints only failures and the summary"
  ARGS check --quiet tests/check/results
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/check_results.quiet.txt)
lbsim_cli_test(NAME "check --quiet when everything passes prints the summary"
  ARGS check -q scenarios/detectors
  EXIT 0 STDOUT_MATCH "^lbsim check: [0-9]+ scenarios, [0-9]+ expectations: [0-9]+ passed, 0 failed\n$")
# --fail-on: a warning fails the check even where every expectation holds.
lbsim_gate_test("check --fail-on herding fails on the herding scenario"
  ARGS check --fail-on herding scenarios/herding_stale.json
  EXIT 1 STDOUT_MATCH "\nFAIL [^\n]*herding_stale.json: fail-on: warning herding: expected no herding warning, actual least_load: 918 of 2398 decisions[^\n]*\nlbsim check: 1 scenario, 20 expectations: 19 passed, 1 failed\n$")
lbsim_gate_test("check --fail-on warning passes a scenario without warnings"
  ARGS check --fail-on warning scenarios/herding_live_lookalike.json
  EXIT 0 STDOUT_MATCH "\nPASS [^\n]*: fail-on: warning warning: expected no warning, actual none\n")
lbsim_cli_test(NAME "check --fail-on an unknown name"
  ARGS check --fail-on herd scenarios/detectors
  EXIT 2 STDERR_LINES 1 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: --fail-on herd: expected warning \\(any\\) or a warning name: unknown_starvation, never_chosen, concentration, herding, overload")
lbsim_cli_test(NAME "check a scenario with an unknown speed Instance"
  ARGS check tests/check/malformed/whatif_unknown_speed.json
  EXIT 2 STDERR_LINES 1 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: tests/check/malformed/whatif_unknown_speed.json: options.speeds inst-z=2: no Instance \"inst-z\" in tests/check/malformed/whatif_unknown_speed.json: trace\n$")

# Replay --fail-on: exit 1 after writing the report, each warning on stderr.
lbsim_gate_test("replay --fail-on herding under stale snapshots"
  ARGS -s rr,ll --slots 4 --stale-interval 2 --stale-delay 1 --fail-on herding
       --output fail_on.txt herding.ndjson
  EXIT 1 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: --fail-on: least_load: 918 of 2398 decisions \\(38.3%\\) fell in runs[^\n]*\nlbsim: --fail-on: least_load: 899 of 2398 decisions \\(37.5%\\) fell in stretches that alternated[^\n]*\n$")
lbsim_gate_test("replay --fail-on warning on the live counter passes"
  ARGS -s rr,ll --slots 4 --fail-on warning --format csv herding.ndjson
  EXIT 0 STDERR_LINES 0 STDOUT_MATCH "^strategy,label,")
lbsim_cli_test(NAME "replay --fail-on a name that is no warning"
  ARGS --fail-on herd,overload --output ${OUT}/fail_on_bad.txt traces/examples/ties.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/fail_on_bad.txt
  STDERR_MATCH "^lbsim: error: --fail-on herd: expected warning \\(any\\) or a warning name: [^\n]*\nlbsim: no output written")

# --seeds: one replay per seed, figures with their spread.
lbsim_gate_test("replay --seeds table"
  ARGS -s rr,ll --slots 4 --stale-interval 2 --stale-delay 1 --stale-jitter 1 --seeds 1,2,3
       herding.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/gates_seeds.table.txt)
lbsim_gate_test("replay --seeds json carries the spread"
  ARGS -s ll --slots 4 --stale-interval 2 --stale-delay 1 --stale-jitter 1 --seeds 1,2,3
       --format json --output seeds_123.json herding.ndjson
  EXIT 0 STDOUT_MATCH "^$")
set_tests_properties("cli: gates: replay --seeds json carries the spread" PROPERTIES
  FIXTURES_SETUP gate_seeded)
lbsim_gate_test("replay --seeds json under other seeds"
  ARGS -s ll --slots 4 --stale-interval 2 --stale-delay 1 --stale-jitter 1 --seeds 4,5,6
       --format json --output seeds_456.json herding.ndjson
  EXIT 0 STDOUT_MATCH "^$")
set_tests_properties("cli: gates: replay --seeds json under other seeds" PROPERTIES
  FIXTURES_SETUP gate_seeded)
lbsim_cli_test(NAME "replay --seeds and --seed together"
  ARGS --seed 2 --seeds 1,3 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --seed and --seeds: give one")
# An empty seed is no seed (CLI11 alone would drop it); a run takes at most
# 1000 seeds, however many times --seeds is given.
foreach(list "1,,2" "1,2," ",1")
  lbsim_cli_test(NAME "replay --seeds \"${list}\" has an empty seed"
    ARGS --seeds "${list}" -s p2c traces/examples/ties.json
    EXIT 2 STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: --seeds: expected seeds S1,S2,\\.\\.\\. \\(integers separated by commas\\), got \"${list}\" with an empty one \\(see lbsim --help\\)\n$")
endforeach()
lbsim_cli_test(NAME "sweep --seeds with an empty seed"
  ARGS sweep --seeds 1,,2 -s p2c traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --seeds: expected seeds S1,S2,\\.\\.\\. \\(integers separated by commas\\), got \"1,,2\" with an empty one")
set(first_seeds "")
set(more_seeds "")
foreach(seed RANGE 1 600)
  string(APPEND first_seeds ",${seed}")
endforeach()
foreach(seed RANGE 601 1001)
  string(APPEND more_seeds ",${seed}")
endforeach()
string(SUBSTRING "${first_seeds}" 1 -1 first_seeds)
string(SUBSTRING "${more_seeds}" 1 -1 more_seeds)
lbsim_cli_test(NAME "replay --seeds takes at most 1000 seeds"
  ARGS --seeds ${first_seeds} --seeds ${more_seeds} -s p2c traces/examples/ties.json
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --seeds: at most 1000 seeds \\(one replay each\\), got 1001 \\(see lbsim --help\\)\n$")
lbsim_cli_test(NAME "replay --seeds refuses csv"
  ARGS --seeds 1,3 --format csv traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --seeds with several seeds writes a table or JSON")
lbsim_cli_test(NAME "replay --seeds refuses a decision log"
  ARGS --seeds 1,3 --output ${OUT}/seeds_r.txt --decisions ${OUT}/seeds_d.jsonl traces/examples/ties.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/seeds_r.txt ${OUT}/seeds_d.jsonl
  STDERR_MATCH "^lbsim: error: --decisions: one decision log per replay")

# lbsim diff: the issue's example. With --slots 4 and then --slots 4
# --stale-interval 0.5 --stale-delay 0.25, p99 goes 4.65 -> 5.73 s and
# herded decisions 0 -> 1002: reports of different simulation options are
# refused as not comparable (exit 4) unless --allow-different simulation, and then both are
# flagged (exit 1). A report without --slots against one with it: refused.
foreach(run IN ITEMS "live;--slots;4" "stale;--slots;4;--stale-interval;0.5;--stale-delay;0.25" "plain")
  list(POP_FRONT run name)
  lbsim_gate_test("diff report ${name}"
    ARGS -s ll ${run} --format json --output diff_${name}.json herding.ndjson
    EXIT 0 STDOUT_MATCH "^$")
  set_tests_properties("cli: gates: diff report ${name}" PROPERTIES FIXTURES_SETUP gate_reports)
endforeach()
function(lbsim_diff_test name)
  lbsim_cli_test(NAME "gates: diff ${name}" WORKDIR ${GATES} ${ARGN})
  set_tests_properties("cli: gates: diff ${name}" PROPERTIES FIXTURES_REQUIRED "gate_reports;gate_seeded")
endfunction()
lbsim_diff_test("refuses other simulation options"
  ARGS diff diff_live.json diff_stale.json
  EXIT 4 STDERR_LINES 1 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: not comparable: [^ ]*diff_stale.json: simulation: {\"slots\":4,[^\n]*\"stale_metrics\":{\"interval\":0.5,\"delay\":0.25,\"jitter\":0.0}[^\n]*, but [^ ]*diff_live.json has {\"slots\":4,[^\n]*\"stale_metrics\":null[^\n]*; lbsim diff compares reports made under the same simulation options \\(--allow-different simulation compares them anyway\\)\n$")
lbsim_diff_test("refuses a report without --slots against one with it"
  ARGS diff diff_plain.json diff_live.json
  EXIT 4 STDERR_LINES 1
  STDERR_MATCH "^lbsim: not comparable: [^ ]*diff_live.json: simulation: {\"slots\":4,[^\n]*, but [^ ]*diff_plain.json has none; ")
lbsim_diff_test("flags latency and herding when allowed"
  ARGS diff --allow-different simulation diff_live.json diff_stale.json
       --junit diff_stale.junit.xml
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/gates_diff_stale.txt
  FILE_GOLDEN ${GATES}/diff_stale.junit.xml=${GOLDEN}/gates_diff_stale.junit.xml)
lbsim_diff_test("json lists every figure, typed"
  ARGS diff --allow-different simulation --format json diff_live.json diff_stale.json
  EXIT 1
  STDOUT_MATCH "\"figure\": \"what_if.service.latency.p99\",\n *\"family\": \"latency\",\n *\"base\": 4.652276,\n *\"new\": 5.73[0-9]*,\n *\"change\": [^\n]*\n *\"base_spread\": null,\n *\"new_spread\": null,\n *\"tolerance\": {[^}]*},\n *\"flagged\": true")
lbsim_diff_test("a tolerance loose enough lets the latency through"
  ARGS diff --allow-different simulation --tol latency=30% --tol wait=1,1000% --tol herding=0.5
       --tol runs=100 --tol fairness=1 --tol counts=0.5 --tol reasons=1 --tol share=0.1
       diff_live.json diff_stale.json
  EXIT 1 STDOUT_MATCH "\n  warnings.herding +- +raised +raised +FLAGGED\n")
lbsim_diff_test("--tol naming a figure no report has"
  ARGS diff --tol what_if.service.latency.p95=1 diff_live.json diff_live.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --tol what_if.service.latency.p95: neither report has a figure at")
lbsim_diff_test("bad --allow-different"
  ARGS diff --allow-different slots diff_live.json diff_live.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --allow-different slots: expected trace, proxy or simulation")
# Seeds: the same model under other seeds moves figures by noise; with
# --beyond-spread only a change outside both spreads is flagged.
lbsim_diff_test("other seeds flag noise"
  ARGS diff seeds_123.json seeds_456.json
  EXIT 1 STDOUT_MATCH "FLAGGED")
lbsim_diff_test("--beyond-spread does not flap on noise"
  ARGS diff --beyond-spread seeds_123.json seeds_456.json
  EXIT 0 STDOUT_MATCH "\nlbsim diff: 0 of [0-9]+ figures beyond tolerance; no change flagged\n$")
lbsim_diff_test("--beyond-spread without seeds"
  ARGS diff --beyond-spread diff_live.json diff_live.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --beyond-spread: neither report was made with --seeds")

# Sweeps vary what-if options with the strategy parameters' syntax
# (sim.KEY), and report service, herding and warning columns; the slices
# of a sharded sweep merge into it, and not into another sweep.
set(gate_sweep sweep -s rr,ll --slots 4 --vary sim.stale_interval=0.5,2 --set sim.stale_delay=0.25)
lbsim_gate_test("sweep varies what-if options"
  ARGS ${gate_sweep} herding.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/gates_sweep.csv)
foreach(shard 1 2)
  lbsim_gate_test("sweep what-if shard ${shard}"
    ARGS ${gate_sweep} --shard ${shard}/2 -o sweep-part${shard}.csv herding.ndjson
    EXIT 0 STDOUT_MATCH "^$")
  set_tests_properties("cli: gates: sweep what-if shard ${shard}" PROPERTIES FIXTURES_SETUP gate_sweep_parts)
endforeach()
lbsim_gate_test("sweep of other values"
  ARGS sweep -s rr,ll --slots 4 --vary sim.stale_interval=0.5,3 --set sim.stale_delay=0.25 --shard 2/2
       -o sweep-other.csv herding.ndjson
  EXIT 0 STDOUT_MATCH "^$")
set_tests_properties("cli: gates: sweep of other values" PROPERTIES FIXTURES_SETUP gate_sweep_parts)
lbsim_cli_test(NAME "gates: merge what-if slices" WORKDIR ${GATES}
  ARGS merge -o sweep-merged.csv sweep-part2.csv sweep-part1.csv
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${GATES}/sweep-merged.csv=${GOLDEN}/gates_sweep.csv)
lbsim_cli_test(NAME "gates: merge refuses a slice of another sweep" WORKDIR ${GATES}
  ARGS merge -o sweep-mixed.csv sweep-part1.csv sweep-other.csv
  EXIT 2 STDERR_LINES 2 ABSENT ${GATES}/sweep-mixed.csv
  STDERR_MATCH "^lbsim: error: [^ ]*sweep-other.csv: row 2: a row of sweep [0-9a-f]+, but [^ ]*sweep-part1.csv is of sweep [0-9a-f]+: not the same sweep \\(other traces, strategies, values, seeds, options or Proxy\\)\n")
set_tests_properties("cli: gates: merge what-if slices" "cli: gates: merge refuses a slice of another sweep"
  PROPERTIES FIXTURES_REQUIRED gate_sweep_parts)
lbsim_cli_test(NAME "sweep rejects an unknown what-if option"
  ARGS sweep --vary sim.slot=2,4 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --vary sim.slot: unknown what-if option 'slot'; expected slots, ")
# (A varied stale_interval of 0 with a delay set is live metrics in that
# cell, not a refusal: sweep_tests.cmake.)
lbsim_cli_test(NAME "sweep rejects a what-if combination a replay would"
  ARGS sweep --vary sim.signal_interval=0,1 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --vary sim.signal_interval=1: --signal-interval needs the engine model \\(--engine\\)\n$")
lbsim_cli_test(NAME "sweep rejects a bad what-if value"
  ARGS sweep --vary sim.slots=2,0 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --vary sim.slots: expected an integer from 1 to 2\\^30 \\(slots per Instance\\), got '0'\n$")
