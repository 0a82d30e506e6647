# The Proxy queue model (--proxy-queue, docs/proxy-queue.md) on
# traces/examples/proxy_queue.ndjson: reports, decision logs with the
# snapshot each decision read, request logs, the completions-route stall
# before 0927797, and every input the model refuses. The decision and
# request logs were compared with the real CacheRoute queue manager run in
# virtual time at each version (docs/proxy-queue.md, "How it was checked").

set(QUEUE_TRACE traces/examples/proxy_queue.ndjson)

lbsim_cli_test(NAME "proxy queue: table rr and ll"
  ARGS -s rr,ll --proxy-queue ${QUEUE_TRACE}
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_queue.table.txt)
# The same trace in ms (every time x 1000): the table's figures are in
# seconds, as the s trace's (only the trace and time unit lines differ).
lbsim_cli_test(NAME "proxy queue: table of a ms trace in seconds"
  ARGS -s rr,ll --proxy-queue tests/cli/queue/proxy_queue_ms.ndjson
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_queue_ms.table.txt)
lbsim_cli_test(NAME "proxy queue: report json"
  ARGS -s rr,ll --proxy-queue --format json ${QUEUE_TRACE}
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_queue.report.json)
lbsim_cli_test(NAME "proxy queue: report csv"
  ARGS -s rr,ll --proxy-queue --format csv ${QUEUE_TRACE}
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_queue.csv)

# Each version's decisions with the snapshot it hands least_load (none
# before 8b116b6, four fields at 8b116b6, nine from d4bd47f), and each
# request's journey.
foreach(commit 55b32e9 8b116b6 d4bd47f 28e857c)
  lbsim_cli_test(NAME "proxy queue: decisions and requests cacheroute@${commit}"
    ARGS --proxy cacheroute@${commit} -s ll,rr --proxy-queue
         --decisions ${OUT}/proxy_queue.${commit}.decisions.jsonl
         --request-log ${OUT}/proxy_queue.${commit}.requests.jsonl
         --output ${OUT}/proxy_queue.${commit}.txt ${QUEUE_TRACE}
    EXIT 0 STDOUT_MATCH "^$"
    FILE_GOLDEN ${OUT}/proxy_queue.${commit}.decisions.jsonl=${GOLDEN}/proxy_queue.${commit}.decisions.jsonl
                ${OUT}/proxy_queue.${commit}.requests.jsonl=${GOLDEN}/proxy_queue.${commit}.requests.jsonl)
endforeach()

# The stall is a warning --fail-on can gate on; the fixed version passes.
lbsim_cli_test(NAME "proxy queue: --fail-on stuck fails on the completions stall"
  ARGS -s ll --proxy-queue --proxy cacheroute@d4bd47f --fail-on stuck --output ${OUT}/stuck.txt ${QUEUE_TRACE}
  EXIT 1 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: --fail-on: least_load: 13 arrivals never forwarded by the Proxy queue: they wait behind a completions-route request that ended but stays on its Instance's pending list, which cacheroute@d4bd47f never clears \\(fixed by 0927797, first in cacheroute@28e857c\\) \\(stuck\\)\n$")
lbsim_cli_test(NAME "proxy queue: --fail-on stuck passes at 28e857c"
  ARGS -s ll --proxy-queue --fail-on stuck --output ${OUT}/not-stuck.txt ${QUEUE_TRACE}
  EXIT 0 STDOUT_MATCH "^$" STDERR_MATCH "^$")

# Bad input under the model: one line naming the file, the line and the
# field; nothing written.
function(lbsim_queue_bad_input file message)
  set(dir ${OUT}/queue-bad-${file})
  lbsim_cli_test(NAME "proxy queue: bad input ${file}"
    ARGS -s ll --proxy-queue --output ${dir}/report.txt --request-log ${dir}/requests.jsonl
         tests/cli/queue/${file}
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: tests/cli/queue/${file}${message}\nlbsim: no output written \\(--output ${dir}/report.txt, --request-log ${dir}/requests.jsonl\\)\n$"
    ABSENT ${dir}/report.txt ${dir}/requests.jsonl
    EMPTY_DIRS ${dir})
endfunction()
lbsim_queue_bad_input(missing_ttft.ndjson
  ":3: field \"ttft\": expected a number >= 0 \\(time from forwarding to the first chunk\\): the Proxy queue model \\(--proxy-queue\\) needs it on every chat-route arrival without --engine or --slots, but it is missing")
lbsim_queue_bad_input(missing_duration.ndjson
  ":2: field \"duration\": expected a number >= 0 \\(time from forwarding to the end\\): the Proxy queue model \\(--proxy-queue\\) needs it on every arrival, but it is missing")
lbsim_queue_bad_input(ttft_past_duration.ndjson
  ":2: field \"ttft\": expected at most the arrival's duration, 0.5, got 0.6")
lbsim_queue_bad_input(bad_route.ndjson
  ":2: field \"route\": expected \"chat\" or \"completions\" \\(the Proxy route\\), got \"grpc\"")
lbsim_queue_bad_input(bad_knowledge_tokens.ndjson
  ":2: field \"knowledge_tokens\": expected an integer >= 0 \\(a token count, at most 2\\^53\\), got -3")

# Options the model refuses, before anything is read or written.
foreach(case
    "spec|--proxy-queue --proxy spec|--proxy-queue: the spec profile has no Proxy queue. name a pinned Proxy version \\(--proxy cacheroute@<commit> or latest\\)"
    "settings without the model|--ready-concurrency 4|--ready-concurrency, --prepare-concurrency and --predictor-coefficients configure the Proxy queue model: add --proxy-queue"
    "no ready workers|--proxy-queue --ready-concurrency 0|--ready-concurrency: expected an integer from 1 to 4096 \\(ready workers per Instance\\), got 0 \\(see lbsim --help\\)"
    "no prepare tasks|--proxy-queue --prepare-concurrency 0|--prepare-concurrency: expected an integer from 1 to 2\\^32-1 \\(prepare tasks per Instance\\), got 0 \\(see lbsim --help\\)"
    "three coefficients|--proxy-queue --predictor-coefficients 1,2,3|--predictor-coefficients 1,2,3: expected four finite numbers A,B,C,D \\(the predictor's a, b, c, d\\)"
    "coefficient not a number|--proxy-queue --predictor-coefficients 1,2,x,4|--predictor-coefficients 1,2,x,4: expected four finite numbers A,B,C,D \\(the predictor's a, b, c, d\\)"
    "with stale metrics|--proxy-queue --stale-interval 1|--proxy-queue hands least_load the Proxy's own live snapshot at every decision. it does not combine with --stale-interval or --signal-interval \\(a Proxy fed by an exporter\\)"
    "with engine signals|--proxy-queue --engine llama-3.1-8b-h100 --signal-interval 1|--proxy-queue hands least_load the Proxy's own live snapshot at every decision. it does not combine with --stale-interval or --signal-interval \\(a Proxy fed by an exporter\\)")
  # (A ';' of a message is matched by its regex's '.', as a list cannot hold one.)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 flags)
  list(GET parts 2 message)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  lbsim_cli_test(NAME "proxy queue: refused: ${name}"
    ARGS -s ll ${flags} ${QUEUE_TRACE}
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: ${message}\n$")
endforeach()
lbsim_cli_test(NAME "proxy queue: refused: request log without the model"
  ARGS -s ll --request-log ${OUT}/no-queue/requests.jsonl ${QUEUE_TRACE}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --request-log needs the Proxy queue model \\(--proxy-queue\\)\nlbsim: no output written \\(--request-log ${OUT}/no-queue/requests.jsonl\\)\n$"
  ABSENT ${OUT}/no-queue/requests.jsonl)

# In front of the engine model: each engine gets a request when the queue
# forwards it (one before its first token per Instance, the second 20 ms
# later at the earliest, then at a 5 ms poll); a request without output
# and a completions request get their one chunk at the end; one too long
# for the KV cache ends when forwarded. Reviewed against the engine log.
lbsim_cli_test(NAME "proxy queue: in front of the engine, request log"
  ARGS -s rr --proxy-queue --engine llama-3.1-8b-h100
       --request-log ${OUT}/proxy_queue.engine.requests.jsonl --output ${OUT}/proxy_queue.engine.txt
       tests/cli/queue/engine_two_instances.ndjson
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/proxy_queue.engine.requests.jsonl=${GOLDEN}/proxy_queue.engine.requests.jsonl)
lbsim_cli_test(NAME "proxy queue: in front of the engine, an arrival without tokens"
  ARGS -s ll --proxy-queue --engine llama-3.1-8b-h100 ${QUEUE_TRACE}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: ${QUEUE_TRACE}:2: field \"output_tokens\": expected an integer >= 0 \\(a token count\\): the engine model \\(--engine\\) serves every arrival by its tokens, but it is missing\n$")
lbsim_cli_test(NAME "proxy queue: in front of the slots, an arrival without duration"
  ARGS -s ll --proxy-queue --slots 2 tests/cli/queue/missing_duration.ndjson
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/cli/queue/missing_duration.ndjson:2: field \"duration\": expected a number >= 0 \\(the request's service time on a slot\\): the Proxy queue model \\(--proxy-queue\\) needs it on every arrival, but it is missing\n$")

# A sweep over READY_CONCURRENCY: the queue figures in the rows, from the
# figure catalogue's columns. The ready_concurrency 8 rows equal the
# replay's (proxy_queue.csv); the 1-worker rows agree with the real queue
# manager run in virtual time (docs/proxy-queue.md, "How it was checked").
foreach(format csv json)
  lbsim_cli_test(NAME "proxy queue: sweep over ready_concurrency ${format}"
    ARGS sweep -s rr,ll --proxy-queue --vary sim.ready_concurrency=1,8 -j 2 -f ${format} ${QUEUE_TRACE}
    EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_queue.sweep.${format} STDERR_LINES 0)
endforeach()
lbsim_cli_test(NAME "proxy queue: sweep with and without the model"
  ARGS sweep -s ll --vary sim.proxy_queue=false,true ${QUEUE_TRACE}
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "client_ttft_p99,end_to_end_p50,end_to_end_p99\n0,2,[^\n]*,,,,,,,,,\n1,2,[^\n]*,36,0,0.768194445176,0.65500000061,1.91500000178,1.01000000082,2.31000000157,1.40500000014,2.91000000155\n$")
lbsim_cli_test(NAME "proxy queue: sweep html draws the queue figures"
  ARGS sweep -s rr,ll --proxy-queue --vary sim.ready_concurrency=1,8 -f html ${QUEUE_TRACE}
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "client_ttft_p99 over the grid")
foreach(case
    "no ready workers|--proxy-queue --vary sim.ready_concurrency=0,8|--vary sim.ready_concurrency: expected an integer from 1 to 4096 \\(ready workers per Instance\\), got '0'"
    "settings without the model|--vary sim.ready_concurrency=2,8|--vary sim.ready_concurrency=2: --ready-concurrency, --prepare-concurrency and --predictor-coefficients configure the Proxy queue model: add --proxy-queue"
    "not a boolean|--vary sim.proxy_queue=yes|--vary sim.proxy_queue: expected true or false, got 'yes'"
    "scatter without the model|-f html --scatter client_ttft_p99,jain|--scatter client_ttft_p99,jain: client_ttft_p99 needs the Proxy queue model \\(--proxy-queue\\)")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 flags)
  list(GET parts 2 message)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  lbsim_cli_test(NAME "proxy queue: sweep refused: ${name}"
    ARGS sweep -s ll ${flags} ${QUEUE_TRACE}
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: ${message}\n$")
endforeach()
# A strategy that reads each hint as JSON would not see the queue's snapshot.
lbsim_cli_test(NAME "proxy queue: refused: an exec strategy"
  ARGS -s "exec:python3 strategies/external/first_candidate.py" --proxy-queue ${QUEUE_TRACE}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --proxy-queue: strategy exec:python3 strategies/external/first_candidate.py reads each arrival's hint as JSON, which the queue model's snapshot does not rewrite. it reaches the built-in strategies only\n$")

# Under several seeds the table shows the queue's figures with their spread
# (p2c draws by seed; least_load does not).
lbsim_cli_test(NAME "proxy queue: --seeds table shows the queue's figures"
  ARGS -s ll,p2c --proxy-queue --seeds 1,2,3 ${QUEUE_TRACE}
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/proxy_queue.seeds.table.txt)

# A request the engine refuses (too long for an Instance's whole KV cache)
# ends at once with an empty response; the request log says "rejected".
lbsim_cli_test(NAME "proxy queue: an engine-rejected request's outcome is rejected"
  ARGS -s ll --proxy-queue --engine tests/cli/engine/small_engine.json --request-log -
       --output ${OUT}/queue-rejected-report.txt tests/cli/engine/too_large.ndjson
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "^[{]\"request\":\"r1\",[^\n]*\"outcome\":\"done\"[}]\n[{]\"request\":\"r2\",[^\n]*\"outcome\":\"rejected\"[}]\n$")
