# The LLM engine model (--engine, docs/engine.md). three_requests.ndjson on
# the small engine (tests/cli/engine/small_engine.json: steps of 1000 us +
# 10 us a prefill token + 5 us a decode token; pre-processing 100 us + 1 us
# an input token; 500 us to the client), round_robin routing a, b, a:
#   r1 (t 0, 100 in, 3 out) on a: queued at 0.0002; a 100-token step to
#      0.0022 makes token 1 (client 0.0027: TTFT 0.0027); a decode step to
#      0.003205 makes token 2.
#   r2 (t 0.001, 50 in, 2 out) on b: queued at 0.00115; 1500 us to 0.00265
#      (TTFT 0.00215), a decode step to 0.003655; ends 0.004155.
#   r3 (t 0.003, 20 in, 1 out) on a: queued at 0.00312, while a's step runs;
#      the step from 0.003205 batches r1's decode and r3's 20 prompt tokens:
#      1000 + 200 + 5 = 1205 us, to 0.00441; both finish: ends 0.00491.
#   KV: r1 7 blocks (ceil(102/16)), r3 2: 9 in the last step of a.
set(ENGINE tests/cli/engine)
file(MAKE_DIRECTORY ${OUT}/engine)
set(SMALL ${ENGINE}/small_engine.json)
lbsim_cli_test(NAME "engine three requests json"
  ARGS -s rr --engine ${SMALL} --window 0.002 --format json ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/three_requests.report.json)
lbsim_cli_test(NAME "engine three requests table"
  ARGS -s rr,ll --engine ${SMALL} ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/three_requests.table.txt)
# The same trace in ms: one unit in the table, seconds, so the figures read
# as the s trace's (only the trace and time unit lines differ).
lbsim_cli_test(NAME "engine table of a ms trace in seconds"
  ARGS -s rr,ll --engine ${SMALL} ${ENGINE}/three_requests_ms.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/three_requests_ms.table.txt)
lbsim_cli_test(NAME "engine three requests under two seeds: the table shows the engine's figures"
  ARGS -s rr,p2c --engine ${SMALL} --seeds 1,2 ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/three_requests.seeds.table.txt)
lbsim_cli_test(NAME "engine three requests csv, window csv and log"
  ARGS -s rr --engine ${SMALL} --window 0.002 --format csv --output ${OUT}/engine/three.csv
       --window-csv ${OUT}/engine/three.windows.csv --engine-log ${OUT}/engine/three.log.jsonl
       ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/engine/three.csv=${GOLDEN}/engine/three_requests.csv
              ${OUT}/engine/three.windows.csv=${GOLDEN}/engine/three_requests.windows.csv
              ${OUT}/engine/three.log.jsonl=${GOLDEN}/engine/three_requests.log.jsonl)
lbsim_cli_test(NAME "engine log of two strategy runs, one after the other"
  ARGS -s rr,ll --engine ${SMALL} --engine-log - --output ${OUT}/engine/two.txt
       ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/two_runs.log.jsonl)
# SLOs (--slo): r1 (TTFT 0.0027, TPOT 0.001605), r2 (0.00215, 0.001505) and
# r3 (0.00191, one token) against 2.5 ms and 0.0015 s: TTFT met by r2 and r3,
# TPOT by r3 alone (a one-token request has no TPOT to miss), all by r3: one
# request and one output token over the span of 0.00591 s, 169.2 a second.
lbsim_cli_test(NAME "engine slo: shares and goodput in the table"
  ARGS -s rr,ll --engine ${SMALL} --slo ttft=2.5ms,tpot=0.0015 ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/three_requests.slo.table.txt)
lbsim_cli_test(NAME "engine slo: shares and goodput in the json report"
  ARGS -s rr --engine ${SMALL} --slo ttft=2.5ms,tpot=0.0015 -f json ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/three_requests.slo.report.json)
lbsim_cli_test(NAME "engine slo: a scenario sets the bounds and expects the shares"
  ARGS check ${ENGINE}/slo.scenario.json
  EXIT 0 STDOUT_MATCH "4 expectations: 4 passed, 0 failed\n$")
lbsim_cli_test(NAME "engine slo: --seeds spreads the shares"
  ARGS -s rr --engine ${SMALL} --slo e2e=5ms --seeds 1,2 ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_MATCH "\n  slo ttft met +- *\n  slo tpot met +- *\n  slo e2e met +0.6667 *\n  slo all met +0.6667 *\n  goodput req/s +338.41 *\n")
lbsim_cli_test(NAME "engine slo: sweep rows carry the SLO columns"
  ARGS sweep -s rr --vary sim.seed=1,2 --engine ${SMALL} --slo ttft=2.5ms -j 1
       ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_MATCH ",slo_ttft,slo_tpot,slo_e2e,slo_all,goodput_requests_per_s,goodput_tokens_per_s\n.*,0.666666666667,,,0.666666666667,338.409475465,507.614213198\n.*,0.666666666667,,,0.666666666667,338.409475465,507.614213198\n$")
# Different bounds are different what-if options: diff refuses to compare
# their shares unless told (then TTFT within 3 ms is met by r1 too).
lbsim_cli_test(NAME "engine slo: diff refuses reports under other bounds"
  ARGS diff tests/diff/three_requests.engine.slo.json tests/diff/three_requests.engine.slo_3ms.json
  EXIT 4 STDERR_LINES 1
  STDERR_MATCH "^lbsim: not comparable: tests/diff/three_requests.engine.slo_3ms.json: simulation: .*\"slo\":{\"ttft\":0.003,.*\"slo\":{\"ttft\":0.0025,.* \\(--allow-different simulation compares them anyway\\)\n$")
lbsim_cli_test(NAME "engine slo: diff compares the shares when told"
  ARGS diff --allow-different simulation tests/diff/three_requests.engine.slo.json
       tests/diff/three_requests.engine.slo_3ms.json
  EXIT 1 STDOUT_MATCH "\n  what_if.engine.slo.met.ttft +0.6667 +1.0000 +\\+0.3333  FLAGGED\n")
lbsim_cli_test(NAME "engine slo: needs the engine"
  ARGS --slo ttft=1 ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --slo needs the engine model \\(--engine\\): its requests are what the bounds measure\n$")
lbsim_cli_test(NAME "engine slo: a key twice, or a bound that is no time"
  ARGS --engine ${SMALL} --slo ttft=1,ttft=2 ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --slo: expected KEY=TIME.,KEY=TIME...., KEY ttft, tpot or e2e \\(each once\\), TIME a number > 0 in the trace's unit or with a unit \\(ms, s, us\\), got \"ttft=1,ttft=2\"\n$")
lbsim_cli_test(NAME "engine slo: a negative bound"
  ARGS --engine ${SMALL} --slo tpot=-5ms ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --slo: expected .*got \"tpot=-5ms\"\n$")
lbsim_cli_test(NAME "engine slo: a scenario's bounds need its engine"
  ARGS check ${ENGINE}/slo_without_engine.scenario.json
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/slo_without_engine.scenario.json: options.slo: needs options.engine \\(the bounds measure its requests\\)\n$")
# A request of 2,000 prompt tokens on an engine of 1,024 tokens of cache.
lbsim_cli_test(NAME "engine_rejected warns, and --fail-on engine_rejected fails the run"
  ARGS --engine ${SMALL} --slo ttft=1 --fail-on engine_rejected ${ENGINE}/too_large.ndjson
  EXIT 1 STDOUT_MATCH "\n  served +1 \\(1 rejected\\)\n.*\n  slo all met +50.0%\n.*\n  round_robin: 1 arrival rejected by the engine model: prompt and output do not fit an Instance's whole KV cache, so they are in no latency figure \\(engine_rejected\\)\n"
  STDERR_MATCH "^lbsim: --fail-on: round_robin: 1 arrival rejected by the engine model")
# Only least_load's weighted score (the Proxy's L2 and L3) reads what the
# signals publish; a run of round_robin and L1's least_load says so.
lbsim_cli_test(NAME "engine signals that no strategy reads are said to be unread"
  ARGS -s rr,ll --proxy cacheroute@df8382d --engine ${SMALL} --signal-interval 0.001
       ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_MATCH "\nwhat-if +engine small, signals every 0.001 s, published 0 s later that no strategy here reads \\(least_load of a weighted Proxy version does\\)\n")
lbsim_cli_test(NAME "engine signals least_load reads are not said to be unread"
  ARGS -s rr,ll --engine ${SMALL} --signal-interval 0.001 ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_MATCH "\nwhat-if +engine small, signals every 0.001 s, published 0 s later\n")
lbsim_cli_test(NAME "engines lists the built-in configurations"
  ARGS engines
  EXIT 0 STDOUT_MATCH "^Built-in engine configurations .*\nllama-3.1-8b-h100\n  llama-3.1-8b-instruct on one H100 \\(TP 1\\), vLLM 0.8.4: .*BLIS.*\n  beta \\(us\\): 5752.705191348184 \\+ 17.25086436834028 x prefill tokens \\+ 5.999143920128404 x decode tokens\n")
lbsim_cli_test(NAME "engines NAME prints a configuration file that reads back"
  ARGS engines llama-3.1-8b-h100
  EXIT 0 STDOUT_MATCH "^{\n  \"lbsim_engine\": 1,\n  \"name\": \"llama-3.1-8b-h100\",.*\"kv_blocks\": 29205,\n  \"block_tokens\": 16,\n  \"max_running\": 256,\n  \"max_batched_tokens\": 2048\n}\n$")
lbsim_cli_test(NAME "engine sweep rows carry the engine figures"
  ARGS sweep -s ll --vary ll.active_decode_count=0,1 --engine ${SMALL} --signal-interval 0.001
       -j 1 ${ENGINE}/three_requests.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/engine/sweep.csv)

# Bad input and usage: one line, exit 2, nothing written.
lbsim_cli_test(NAME "engine needs every arrival's token counts"
  ARGS --engine ${SMALL} --output ${OUT}/engine/never.txt ${ENGINE}/missing_tokens.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/missing_tokens.ndjson:3: field \"output_tokens\": expected an integer >= 0 \\(a token count\\): the engine model \\(--engine\\) serves every arrival by its tokens, but it is missing\n"
  ABSENT ${OUT}/engine/never.txt)
lbsim_cli_test(NAME "engine names a built-in or a file"
  ARGS --engine llama ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: --engine llama: expected a built-in engine \\(llama-3.1-8b-h100, llama-3-70b-rtx5090x8\\) or an engine configuration file \\(a path with a '.' or '/'\\)\n$")
lbsim_cli_test(NAME "engine file with an unknown key"
  ARGS --engine ${ENGINE}/bad_key.json ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/bad_key.json: max_num_seqs: not a key of an engine configuration \\(expected one of lbsim_engine, name, description, beta_us, alpha_us, kv_blocks, block_tokens, max_running, max_batched_tokens\\)\n$")
lbsim_cli_test(NAME "engine file that is missing"
  ARGS --engine ${ENGINE}/absent.json ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/absent.json: cannot read engine configuration: " STDERR_LINES 1)
lbsim_cli_test(NAME "engine and slots are two service models"
  ARGS --engine ${SMALL} --slots 2 ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: --slots and --engine are two service models; choose one\n$")
lbsim_cli_test(NAME "engine signals need the engine"
  ARGS --signal-interval 1 ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: --signal-interval needs the engine model \\(--engine\\)\n$")
lbsim_cli_test(NAME "engine signal delay needs an interval"
  ARGS --engine ${SMALL} --signal-delay 1 ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: --signal-delay and --signal-jitter need --signal-interval\n$")
lbsim_cli_test(NAME "engine log needs the engine"
  ARGS --engine-log ${OUT}/engine/no.jsonl ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: --engine-log needs the engine model \\(--engine\\)\n"
  ABSENT ${OUT}/engine/no.jsonl)
lbsim_cli_test(NAME "engine signals and exec strategies"
  ARGS -s "exec:python3 strategies/external/first_candidate.py" --engine ${SMALL} --signal-interval 1
       ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: --signal-interval: strategy exec:python3 strategies/external/first_candidate.py reads each arrival's hint as JSON, which engine signals do not rewrite; they reach the built-in strategies only\n$")
lbsim_cli_test(NAME "engine prefix blocks of a size the cache cannot hold"
  ARGS --engine ${SMALL} tests/cli/engine/odd_prefix_blocks.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/odd_prefix_blocks.ndjson: header: field \"prefix_block_tokens\": expected a multiple of the engine's block_tokens \\(16, engine small\\), got 24\n$")

# A check scenario with the engine model (options.engine): kv_aware's prefix
# hits skip prefill (tests/cli/engine/prefix_reuse.scenario.json).
lbsim_cli_test(NAME "engine check scenario: prefix hits skip prefill"
  ARGS check ${ENGINE}/prefix_reuse.scenario.json
  EXIT 0 STDOUT_MATCH "\nlbsim check: 1 scenario, 9 expectations: 9 passed, 0 failed\n$")
# Engine work is bounded before it runs, alone or behind the Proxy queue:
# with a cache of 2^53 tokens, one request's own 2^40 output tokens (or
# 2^24 one-token prefill chunks) are refused at their arrival, and so are
# a run's requests together past 2^32 request-steps (257 requests at the
# one-request limit pass it at the 257th); at the limit a request runs.
set(HUGE ${ENGINE}/huge_cache_engine.json)
set(STEPS "expected a request the engine serves in at most 16777216 steps .the limit: input_tokens / max_batched_tokens 1 in prefill chunks, plus output_tokens.")
set(RUN_STEPS "expected the trace's requests to need at most 4294967296 engine request-steps in all .the limit of one strategy run: each request's prefill chunks, input_tokens / max_batched_tokens 1, plus its output_tokens, summed., passed at this arrival")
foreach(queue "" --proxy-queue)
  lbsim_cli_test(NAME "engine: 2^40 output tokens are refused before they run ${queue}"
    ARGS ${queue} --engine ${HUGE} ${ENGINE}/output_2p40.ndjson
    EXIT 2 STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: tests/cli/engine/output_2p40.ndjson:3: field \"output_tokens\": ${STEPS}, got 10 input and 1099511627776 output tokens\n$")
  lbsim_cli_test(NAME "engine: a run's requests past 2^32 request-steps in all are refused ${queue}"
    ARGS ${queue} --engine ${HUGE} ${ENGINE}/run_steps_limit.ndjson
    EXIT 2 STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: tests/cli/engine/run_steps_limit.ndjson:258: field \"output_tokens\": ${RUN_STEPS}\n$")
endforeach()
lbsim_cli_test(NAME "engine: a prefill past the step limit is refused, one at it is taken"
  ARGS --engine ${HUGE} ${ENGINE}/input_at_step_limit.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/cli/engine/input_at_step_limit.ndjson:3: field \"input_tokens\": ${STEPS}, got 16777000 input and 217 output tokens\n$")
# Steps of 1e300 us: the table shows exponents, not hundreds of digits.
# 200,000 steps of 2^53 us each, one token a step: an E2E of 1.8e15 s.
lbsim_cli_test(NAME "engine: extreme latencies are shown with exponents"
  ARGS --engine ${ENGINE}/longest_steps.json ${ENGINE}/long_answer.ndjson
  EXIT 0 STDOUT_MATCH "\n  ttft +9007199255 / 9007199255\n.*\n  e2e +1.801e\\+15 / 1.801e\\+15\n")
lbsim_cli_test(NAME "engine: a coefficient past the time range is refused by name"
  ARGS --engine tests/fuzz/regressions/fuzz_engine_config/extreme_numbers.json
       ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/fuzz/regressions/fuzz_engine_config/extreme_numbers.json: beta_us.0.: expected at most 9007199254740992 us \\(so that a step takes at most 2\\^53 us, 285 years\\), got 1e\\+300\n$")
# An interval of 0 would mean "no signals"; leaving the option out says that.
lbsim_cli_test(NAME "engine: --signal-interval 0 is refused"
  ARGS --engine ${SMALL} --signal-interval 0 ${ENGINE}/three_requests.ndjson
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: --signal-interval: expected a number > 0 \\(in the trace's time unit\\), got 0 .see lbsim --help.\n$")
lbsim_cli_test(NAME "engine check scenario: signal_interval 0 is refused"
  ARGS check ${ENGINE}/signals_every_zero.scenario.json
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/signals_every_zero.scenario.json: options.signal_interval: expected a number > 0 .in the trace's time unit., got 0\n$")
lbsim_cli_test(NAME "engine check scenario: signals need an engine"
  ARGS check ${ENGINE}/signals_without_engine.scenario.json
  EXIT 2 STDERR_MATCH "^lbsim: error: tests/cli/engine/signals_without_engine.scenario.json: options.signal_interval: needs options.engine \\(engine signals come from engines\\)\n$")

# lbsim diff compares the engine figures: ttft_nudged is the base report
# (rr on the small engine) with the overall TTFT p99 raised from 0.0027 to
# 0.003 (+11%), over the default 5% tolerance, within 20%.
lbsim_cli_test(NAME "engine diff flags a TTFT change"
  ARGS diff tests/diff/three_requests.engine.json tests/diff/three_requests.engine.ttft_nudged.json
  EXIT 1 STDOUT_GOLDEN ${GOLDEN}/engine/diff_ttft.txt)
lbsim_cli_test(NAME "engine diff within the engine tolerance"
  ARGS diff --engine-tol 0.2 tests/diff/three_requests.engine.json
       tests/diff/three_requests.engine.ttft_nudged.json
  EXIT 0 STDOUT_MATCH "\nlbsim diff: 0 of 182 figures beyond tolerance; no change flagged\n$")
lbsim_cli_test(NAME "engine steps too short for the trace's clock"
  ARGS --engine ${SMALL} --output ${OUT}/engine/never.txt ${ENGINE}/far_times.ndjson
  EXIT 2 STDERR_MATCH "^lbsim: error: engine small: a step of 1100 us at time 1000000000000000 does not advance the clock \\(the trace's times are too large for the step's length in its unit\\)\n"
  ABSENT ${OUT}/engine/never.txt)
# The inter-token latency gets worse when it rises (the figure catalogue):
# --only-worse flags a rise of its p99 and lets a fall pass.
lbsim_cli_test(NAME "engine diff only worse flags a rise of the inter-token latency"
  ARGS diff --only-worse tests/diff/three_requests.engine.json tests/diff/three_requests.engine.itl_up.json
  EXIT 1 STDOUT_MATCH "\n  what_if.engine.itl.p99 +0.0012 +0.0018 +\\+0.0006  FLAGGED\n.*lbsim diff: 1 of 182 figures beyond tolerance\n$")
lbsim_cli_test(NAME "engine diff only worse lets a fall of the inter-token latency pass"
  ARGS diff --only-worse tests/diff/three_requests.engine.json tests/diff/three_requests.engine.itl_down.json
  EXIT 0 STDOUT_MATCH "lbsim diff: 0 of 182 figures beyond tolerance. no change flagged\n$")

# A configuration's name is text from a file: the table shows it escaped,
# on its one line (no colour, no forged line, no reversed text). ('.' stands
# for the '[' of the escape: a bracket would join this list's items.)
lbsim_cli_test(NAME "engine name from a file is escaped in the table"
  ARGS -s rr --engine ${ENGINE}/hostile_name.json ${ENGINE}/three_requests.ndjson
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "\nwhat-if   engine evil\\\\u001b.31mRED\\\\nPASS forged\\\\u202eabc\n")
# options.speeds with options.engine, as --speed with --engine.
lbsim_cli_test(NAME "engine check scenario: speeds under the engine"
  ARGS check ${ENGINE}/speeds.scenario.json
  EXIT 0 STDOUT_MATCH "\nlbsim check: 1 scenario, 3 expectations: 3 passed, 0 failed\n$")
