# lbsim sweep and lbsim merge: the same rows whatever -j, and shard slices
# that merge into exactly the unsharded output.

# The spec profile's weights are swept (stale_snapshot.ndjson names
# cacheroute@df8382d, whose lexicographic least_load has none).
set(sweep_grid sweep --proxy spec -s rr,ll --vary ll.qps_1m=0,0.01 --vary ll.inflight=0,1
    traces/examples/ties.json traces/examples/stale_snapshot.ndjson
    traces/examples/mixed_known_unknown.json)

foreach(format csv json)
  foreach(jobs 1 2)
    lbsim_cli_test(NAME "sweep ${format} -j ${jobs}"
      ARGS ${sweep_grid} -f ${format} -j ${jobs}
      EXIT 0 STDOUT_GOLDEN ${GOLDEN}/sweep.${format} STDERR_LINES 0)
  endforeach()
  set(parts)
  foreach(shard 1 2 3)
    lbsim_cli_test(NAME "sweep ${format} shard ${shard}/3"
      ARGS ${sweep_grid} -f ${format} --shard ${shard}/3 -o ${OUT}/sweep-part${shard}.${format}
      EXIT 0 STDOUT_MATCH "^$")
    set_tests_properties("cli: sweep ${format} shard ${shard}/3" PROPERTIES
      FIXTURES_SETUP sweep_parts_${format})
    list(APPEND parts ${OUT}/sweep-part${shard}.${format})
  endforeach()
  # Slices in any order.
  list(REVERSE parts)
  lbsim_cli_test(NAME "merge ${format} shards"
    ARGS merge -o ${OUT}/sweep-merged.${format} ${parts}
    EXIT 0 STDOUT_MATCH "^$"
    FILE_GOLDEN ${OUT}/sweep-merged.${format}=${GOLDEN}/sweep.${format})
  set_tests_properties("cli: merge ${format} shards" PROPERTIES
    FIXTURES_REQUIRED sweep_parts_${format})
endforeach()

lbsim_cli_test(NAME "merge refuses an incomplete set of slices"
  ARGS merge -o ${OUT}/sweep-incomplete.csv ${OUT}/sweep-part1.csv ${OUT}/sweep-part3.csv
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: sweep merge: 5 of 15 cells are missing \\(the first is cell 5\\)[^\n]*\nlbsim: no output written \\(--output ${OUT}/sweep-incomplete.csv\\)\n$"
  ABSENT ${OUT}/sweep-incomplete.csv)
set_tests_properties("cli: merge refuses an incomplete set of slices" PROPERTIES
  FIXTURES_REQUIRED sweep_parts_csv)

lbsim_cli_test(NAME "sweep with a bad trace writes nothing"
  ARGS sweep -s ll -o ${OUT}/sweep-bad.csv traces/examples/ties.json no-such-trace.ndjson
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: no-such-trace.ndjson: cannot read trace[^\n]*\nlbsim: no output written \\(--output ${OUT}/sweep-bad.csv\\)\n$"
  ABSENT ${OUT}/sweep-bad.csv)
lbsim_cli_test(NAME "sweep rejects a bad shard"
  ARGS sweep --shard 4/3 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --shard: expected I/N with 1 <= I <= N")
lbsim_cli_test(NAME "sweep rejects a parameter axis for a strategy it does not run"
  ARGS sweep -s rr --vary ll.qps_1m=0,1 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --vary ll.qps_1m: strategy least_load is not among")

# The progress line appears only on a terminal; --quiet is accepted anyway.
lbsim_cli_test(NAME "replay --quiet prints only the report"
  ARGS --quiet -s rr,ll --format csv traces/examples/ties.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/ties.csv)

# Prefix-cache figures per cell (68 requested blocks: rr matches 20, ll 24,
# kv_aware 38, as in docs/reports.md), and a varied choice parameter shown in every
# row, its default included.
lbsim_cli_test(NAME "sweep reports prefix hit rates and varied choice parameters"
  ARGS sweep -s rr,ll,kv --vary ll.unknown=exclude,zero traces/examples/shared_prefixes.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/sweep_prefixes.csv)

lbsim_cli_test(NAME "sweep of a weight over a trace written for an L1 Proxy says which trace"
  ARGS sweep -s ll --vary ll.qps_1m=0,0.01 traces/examples/stale_snapshot.ndjson
  EXIT 2
  STDERR_MATCH "^lbsim: error: traces/examples/stale_snapshot.ndjson: header: field \"proxy\": strategy least_load: unknown parameter 'qps_1m'; it takes no parameters \\(under Proxy profile cacheroute@df8382d, least_load L1\\)\n$")

# The what-if integers are declared once (sim/replay/what_if_ranges.h): the
# replay's and the sweep's flags, the sweep's sim.KEY and a scenario's
# options.KEY refuse a value with the same expectation, each at its place.
foreach(command replay sweep)
  set(prefix)
  set(help "lbsim --help")
  if(command STREQUAL "sweep")
    set(prefix sweep)
    set(help "lbsim sweep --help")
  endif()
  lbsim_cli_test(NAME "${command} --slots 0: one wording"
    ARGS ${prefix} --slots 0 traces/examples/ties.json
    EXIT 2 STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: --slots: expected an integer from 1 to 2\\^30 \\(slots per Instance\\), got 0 \\(see ${help}\\)\n$")
  lbsim_cli_test(NAME "${command} --cache-blocks 0: one wording"
    ARGS ${prefix} --cache-blocks 0 traces/examples/ties.json
    EXIT 2 STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: --cache-blocks: expected an integer from 1 to 2\\^53 \\(KV-cache blocks per Instance\\), got 0 \\(see ${help}\\)\n$")
endforeach()
lbsim_cli_test(NAME "sweep sim.slots 0: one wording"
  ARGS sweep --vary sim.slots=0,1 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --vary sim.slots: expected an integer from 1 to 2\\^30 \\(slots per Instance\\), got '0'\n$")
lbsim_cli_test(NAME "sweep sim.cache_blocks 0: one wording"
  ARGS sweep --set sim.cache_blocks=0 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --set sim.cache_blocks=0: expected an integer from 1 to 2\\^53 \\(KV-cache blocks per Instance\\), got '0'\n$")

# Engine signals are what-if keys of a sweep too, with the flags' checks.
lbsim_cli_test(NAME "sweep varies sim.signal_interval under the engine"
  ARGS sweep -s ll --engine tests/cli/engine/small_engine.json --set sim.signal_delay=0.0005
       --vary sim.signal_interval=0,0.001 tests/cli/engine/three_requests.ndjson
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "^cell,cells,sweep,trace,strategy,spec,seed,proxy,python,sim_signal_interval,[^\n]*\n0,2,[0-9a-f]+,[^,]*,least_load,ll,,cacheroute@28e857c,3.12,0,[^\n]*\n1,2,[0-9a-f]+,[^,]*,least_load,ll,,cacheroute@28e857c,3.12,0.001,")
lbsim_cli_test(NAME "sweep sim.signal_interval needs the engine"
  ARGS sweep -s ll --vary sim.signal_interval=0.001 tests/cli/engine/three_requests.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --vary sim.signal_interval=0.001: --signal-interval needs the engine model \\(--engine\\)\n$")
lbsim_cli_test(NAME "sweep sim.signal_jitter is a number >= 0"
  ARGS sweep -s ll --engine tests/cli/engine/small_engine.json --vary sim.signal_jitter=-1
       tests/cli/engine/three_requests.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --vary sim.signal_jitter: expected a number >= 0 \\(in the trace's time unit\\), got '-1'\n$")

# A varied stale_interval of 0 is live metrics: the delay set for the
# stale cells does not apply there (two_instances_k1, one slot: ll ties
# 2 and 4 times). A single configuration of interval 0 with a delay is
# still refused.
lbsim_cli_test(NAME "sweep varies stale metrics on and off under one delay"
  ARGS sweep -s ll --slots 1 --vary sim.stale_interval=0,2 --set sim.stale_delay=1
       tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "\n0,2,[0-9a-f]+,tests/cli/whatif/two_instances_k1.json,least_load,ll,,cacheroute@28e857c,3.12,0,[^\n]*\n1,2,[0-9a-f]+,tests/cli/whatif/two_instances_k1.json,least_load,ll,,cacheroute@28e857c,3.12,2,")
lbsim_cli_test(NAME "sweep refuses a delay without stale metrics in every cell"
  ARGS sweep -s ll --set sim.stale_interval=0 --set sim.stale_delay=1 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --stale-delay and --stale-jitter need --stale-interval\n$")
