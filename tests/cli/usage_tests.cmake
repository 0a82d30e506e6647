# Usage: strategy names and aliases, listings, version and help, strategy
# parameters, standard input, output files, and the two trace encodings.

set(steady traces/examples/steady_pool.json)
set(all_names "round_robin \\(rr, round-robin\\), least_load \\(ll, least-load\\), random \\(rand\\), power_of_two \\(p2c, power-of-two\\), weighted_round_robin \\(wrr, weighted-round-robin\\), kv_aware \\(kv, kv-aware\\), exec")

# Every name and alias, in any case and with surrounding spaces, runs the
# strategy under its canonical name and echoes the text as requested.
foreach(pair "rr>round_robin" "round-robin>round_robin" "round_robin>round_robin"
             "RR>round_robin" " Round-Robin >round_robin" "ll>least_load"
             "least-load>least_load" "least_load>least_load" "LL>least_load"
             " Least-Load >least_load" "rand>random" "random>random" "RAND>random"
             "p2c>power_of_two" "power-of-two>power_of_two" "power_of_two>power_of_two"
             " P2C >power_of_two" "wrr>weighted_round_robin"
             "weighted-round-robin>weighted_round_robin"
             "weighted_round_robin>weighted_round_robin" "WRR>weighted_round_robin"
             "kv>kv_aware" "kv-aware>kv_aware" "kv_aware>kv_aware" " KV_Aware >kv_aware")
  string(REGEX REPLACE ">.*" "" alias "${pair}")
  string(REGEX REPLACE ".*>" "" canonical "${pair}")
  lbsim_cli_test(NAME "alias '${alias}'"
    ARGS --strategy "${alias}" --format json ${steady}
    EXIT 0
    STDOUT_MATCH "\"strategy\": \"${canonical}\",[^\"]*\"requested_as\": \"${alias}\"")
endforeach()

# A comma-separated list, spaces and all, runs each strategy in order.
lbsim_cli_test(NAME "alias list with spaces"
  ARGS -s "rr, LL" --format json ${steady}
  EXIT 0
  STDOUT_MATCH "\"strategy\": \"round_robin\",[^\"]*\"requested_as\": \"rr\".*\"strategy\": \"least_load\",[^\"]*\"requested_as\": \" LL\"")

# The decision log lists strategies in command-line order.
lbsim_cli_test(NAME "decision log in command-line order"
  ARGS -s ll -s rr --decisions ${OUT}/order.decisions.jsonl --output ${OUT}/order.report.txt ${steady}
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/order.decisions.jsonl=${GOLDEN}/steady_pool.ll_rr.decisions.jsonl)

# Without --strategy, round_robin runs, alone.
lbsim_cli_test(NAME "default strategy is round_robin"
  ARGS --decisions ${OUT}/default.decisions.jsonl --output ${OUT}/default.report.txt ${steady}
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/default.decisions.jsonl=${GOLDEN}/steady_pool.rr.decisions.jsonl)
lbsim_cli_test(NAME "default strategy in the report"
  ARGS --format json ${steady}
  EXIT 0
  STDOUT_MATCH "\"strategies\": .\n    {\n      \"strategy\": \"round_robin\",\n      \"requested_as\": \"round_robin\",")

# An unknown strategy: one line listing every name and alias (no built-in
# strategy is planned any more; the unit tests cover that rule).
lbsim_cli_test(NAME "unknown strategy"
  ARGS -s fastest --output ${OUT}/unknown.report.txt ${steady}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: unknown strategy 'fastest'; registered: ${all_names}\nlbsim: no output written \\(--output ${OUT}/unknown.report.txt\\)\n$"
  ABSENT ${OUT}/unknown.report.txt)
lbsim_cli_test(NAME "unknown strategy in a list"
  ARGS -s rr,least --decisions ${OUT}/unknown.decisions.jsonl ${steady}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: unknown strategy 'least'; registered: ${all_names}\nlbsim: no output written \\(--decisions ${OUT}/unknown.decisions.jsonl\\)\n$"
  ABSENT ${OUT}/unknown.decisions.jsonl)

# The registry as a table, every strategy with its status.
set(listing "^As cacheroute@28e857c runs them on Python 3.12 [^\n]*\n\nSTRATEGY +ALIASES +STATUS +DESCRIPTION\nround_robin +rr, round-robin +default +Rotates[^\n]*\nleast_load +ll, least-load +experimental +Chooses[^\n]*\nrandom +rand +experimental +Picks[^\n]*\npower_of_two +p2c, power-of-two +experimental +Samples[^\n]*\nweighted_round_robin +wrr, weighted-round-robin +experimental +Smooth[^\n]*\nkv_aware +kv, kv-aware +experimental +Chooses the Instance whose KV cache.*\nleast_load\n.*  qps_1m +default 0 ")
lbsim_cli_test(NAME "--list-strategies"
  ARGS --list-strategies EXIT 0 STDOUT_MATCH "${listing}")
lbsim_cli_test(NAME "strategies subcommand"
  ARGS strategies EXIT 0 STDOUT_MATCH "${listing}")

# The Proxy profile and interpreter: a bad name is one line listing every
# profile; a strategy parameter the profile's least_load lacks is refused
# before anything is read.
lbsim_cli_test(NAME "unknown Proxy profile"
  ARGS --proxy cacheroute@1234567 --output ${OUT}/proxy.report.txt ${steady}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --proxy cacheroute@1234567: expected one of cacheroute@df8382d, cacheroute@2f1019a, cacheroute@55b32e9, cacheroute@8b116b6, cacheroute@d4bd47f, cacheroute@28e857c, latest, spec\nlbsim: no output written \\(--output ${OUT}/proxy.report.txt\\)\n$"
  ABSENT ${OUT}/proxy.report.txt)
lbsim_cli_test(NAME "unknown Python version"
  ARGS --python 3.13 ${steady}
  EXIT 2 STDOUT_MATCH "^$" STDERR_MATCH "^lbsim: error: --python 3.13: expected 3.11 or 3.12\n$")
lbsim_cli_test(NAME "a weight for the lexicographic least_load"
  ARGS --proxy cacheroute@2f1019a -s ll:qps_1m=0.01 ${steady}
  EXIT 2 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: strategy least_load: unknown parameter 'qps_1m'; it takes no parameters \\(under Proxy profile cacheroute@2f1019a, least_load L1\\)\n$")
lbsim_cli_test(NAME "a bad proxy in a trace header"
  ARGS ${CLI_DIR}/bad/bad_proxy.ndjson
  EXIT 2 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: [^\n]*bad_proxy.ndjson:1: header: field \"proxy\": expected a Proxy profile: one of cacheroute@df8382d, [^\n]*, latest, spec, got \"cacheroute\"\n$")

# Version and help.
lbsim_cli_test(NAME "--version"
  ARGS --version EXIT 0 STDOUT_MATCH "^lbsim [0-9]+\\.[0-9]+\\.[0-9]+\n$")
lbsim_cli_test(NAME "--help"
  ARGS --help EXIT 0
  STDOUT_MATCH "Usage: lbsim .*--strategy.*Examples:.*lbsim --strategy ll .*Exit status: 0 success; 1 a checked expectation failed; 2 usage or input error")
lbsim_cli_test(NAME "--help names the commits --proxy takes, whole"
  ARGS --help EXIT 0
  STDOUT_MATCH "--proxy NAME +Proxy to replay: cacheroute@COMMIT \\(COMMIT one of df8382d, 2f1019a, 55b32e9, 8b116b6, d4bd47f, 28e857c\\), latest, or spec")
lbsim_cli_test(NAME "-h"
  ARGS -h EXIT 0 STDOUT_MATCH "Usage: lbsim ")

# Other usage errors: exit 2, one line.
lbsim_cli_test(NAME "no trace"
  ARGS -s rr EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: no trace given: lbsim \\[OPTIONS\\] TRACE \\(see lbsim --help\\)\n$")
lbsim_cli_test(NAME "unknown option"
  ARGS --fast ${steady} EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: .*--fast")
lbsim_cli_test(NAME "unknown format"
  ARGS --format xml ${steady} EXIT 2 STDERR_LINES 1 STDERR_MATCH "^lbsim: error: .*xml")
lbsim_cli_test(NAME "neither encoding, by name or content"
  ARGS tests/cli/usage_tests.cmake EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/cli/usage_tests.cmake: cannot tell the trace encoding: a trace is JSON Lines \\(a header object on its first line\\) or a JSON document \\(an object\\), but this starts with \"# Usage: strategy names and aliases, lis\"...\n$")

# Strategy parameters: set inline or with --set; bad ones are usage errors.
lbsim_cli_test(NAME "parameter inline"
  ARGS -s ll:qps_1m=0:inflight=2 --format json ${steady}
  EXIT 0 STDOUT_MATCH "\"params\": {\n        \"inflight\": 2.0,[^}]*\"qps_1m\": 0.0\n      }")
lbsim_cli_test(NAME "parameter --set"
  ARGS --set ll.qps_1m=0 -s least-load --format json ${steady}
  EXIT 0 STDOUT_MATCH "\"inflight\": 1.0,[^}]*\"qps_1m\": 0.0\n      }")
lbsim_cli_test(NAME "parameter inline beats --set"
  ARGS --set ll.qps_1m=0 -s ll:qps_1m=0.5 --format json ${steady}
  EXIT 0 STDOUT_MATCH "\"qps_1m\": 0.5\n      }")
lbsim_cli_test(NAME "bad parameter unknown key"
  ARGS -s ll:qps=0 --output ${OUT}/badparam.report.txt ${steady}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: strategy least_load: unknown parameter 'qps'; expected one of: inflight queue_depth .* qps_1m unknown\nlbsim: no output written \\(--output ${OUT}/badparam.report.txt\\)\n$"
  ABSENT ${OUT}/badparam.report.txt)
lbsim_cli_test(NAME "bad parameter value"
  ARGS -s ll:qps_1m=-1 ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: strategy least_load: parameter qps_1m: expected a finite number >= 0, got '-1'\n$")
lbsim_cli_test(NAME "bad parameter value via --set"
  ARGS -s ll --set ll.inflight=lots ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: strategy least_load: parameter inflight: expected a finite number >= 0, got 'lots'\n$")
lbsim_cli_test(NAME "parameter of round_robin"
  ARGS -s rr:weight=1 ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: strategy round_robin: unknown parameter 'weight'; it takes no parameters\n$")
lbsim_cli_test(NAME "--set for a strategy not in the run"
  ARGS -s rr --set ll.qps_1m=0 ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --set ll.qps_1m=0: strategy least_load is not among the strategies of this run\n$")
lbsim_cli_test(NAME "--set without a strategy"
  ARGS -s ll --set qps_1m=0 ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --set: expected STRATEGY.PARAMETER=VALUE, got 'qps_1m=0'\n$")

# Standard input: "-" reads JSON Lines.
lbsim_cli_test(NAME "stdin"
  ARGS -s rr,ll --decisions ${OUT}/stdin.decisions.jsonl --output ${OUT}/stdin.report.txt -
  STDIN_FILE ${EXAMPLES}/stale_snapshot.ndjson
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/stdin.decisions.jsonl=${GOLDEN}/stale_snapshot.decisions.jsonl)
lbsim_cli_test(NAME "stdin report"
  ARGS -s ll -
  STDIN_FILE ${EXAMPLES}/stale_snapshot.ndjson
  EXIT 0 STDOUT_MATCH "^trace     -\nname      stale-snapshot\n")
# A JSON document from standard input or a pipe is read (through a
# temporary file, unlinked at once); its encoding comes from its content.
lbsim_cli_test(NAME "a document on standard input, named"
  ARGS --trace-format document -s rr,ll -f json -
  STDIN_FILE ${EXAMPLES}/steady_pool.json
  EXIT 0 STDERR_LINES 0 STDOUT_MATCH "\"name\": \"steady-pool\",.*\"path\": \"-\"")
lbsim_cli_test(NAME "a document on standard input, told by its content"
  ARGS -s rr,ll --decisions ${OUT}/stdin_document.decisions.jsonl -o ${OUT}/stdin_document.txt -
  STDIN_FILE ${EXAMPLES}/steady_pool.json
  EXIT 0 STDERR_LINES 0
  FILE_GOLDEN ${OUT}/stdin_document.decisions.jsonl=${GOLDEN}/steady_pool.decisions.jsonl)

# --output writes exactly what standard output would show.
lbsim_cli_test(NAME "--output equals the golden report"
  ARGS -s rr,ll --format json --output ${OUT}/steady.report.json ${steady}
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/steady.report.json=${GOLDEN}/steady_pool.report.json)
lbsim_cli_test(NAME "--output - is standard output"
  ARGS -s rr,ll --format json --output - ${steady}
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/steady_pool.report.json)

# Outputs never overwrite the input trace, however it is spelled. The trace
# is a copy, so that a failure cannot damage the shipped example.
set(copy_dir ${OUT}/refuse)
file(COPY ${PROJECT_SOURCE_DIR}/${steady} DESTINATION ${copy_dir})
set(copy ${copy_dir}/steady_pool.json)
lbsim_cli_test(NAME "refuse --output over the trace"
  ARGS --output ${copy} ${copy}
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --output ${copy}: refusing to overwrite the input trace\nlbsim: no output written \\(--output ${copy}\\)\n$")
lbsim_cli_test(NAME "refuse --output over the trace by another path"
  ARGS --output ${copy_dir}/../refuse/./steady_pool.json ${copy}
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --output .*: refusing to overwrite the input trace\nlbsim: no output written \\(--output .*\\)\n$")
lbsim_cli_test(NAME "refuse --decisions over the trace"
  ARGS --decisions ${copy} ${copy}
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --decisions ${copy}: refusing to overwrite the input trace\nlbsim: no output written \\(--decisions ${copy}\\)\n$")
lbsim_cli_test(NAME "refuse one file for --decisions and --output"
  ARGS --decisions ${OUT}/same.txt --output ${OUT}/same.txt ${steady}
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --decisions and --output name the same file\nlbsim: no output written \\(--output ${OUT}/same.txt, --decisions ${OUT}/same.txt\\)\n$"
  ABSENT ${OUT}/same.txt)
lbsim_cli_test(NAME "refuse one file for --decisions and --output, spelled differently"
  ARGS --decisions ${OUT}/./same.txt --output ${OUT}/same.txt ${steady}
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --decisions and --output name the same file\nlbsim: no output written \\(--output ${OUT}/same.txt, --decisions ${OUT}/./same.txt\\)\n$"
  ABSENT ${OUT}/same.txt)
lbsim_cli_test(NAME "--output into a missing directory"
  ARGS --output ${OUT}/no/such/dir/report.txt ${steady}
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: ${OUT}/no/such/dir/report.txt: cannot write output: No such file or directory\nlbsim: no output written \\(--output ${OUT}/no/such/dir/report.txt\\)\n$")

# The JSON document and JSON Lines encodings of one trace give the same
# decisions: each twin under tests/cli/encodings/ is the other encoding of
# an example trace, and its log must equal the example's golden log.
lbsim_cli_test(NAME "encodings: JSON Lines twin of down_and_back.json"
  ARGS -s rr,ll --decisions ${OUT}/twin_down.decisions.jsonl --output ${OUT}/twin_down.report.txt
       tests/cli/encodings/down_and_back.ndjson
  EXIT 0
  FILE_GOLDEN ${OUT}/twin_down.decisions.jsonl=${GOLDEN}/down_and_back.decisions.jsonl)
lbsim_cli_test(NAME "encodings: document twin of stale_snapshot.ndjson"
  ARGS -s rr,ll --decisions ${OUT}/twin_stale.decisions.jsonl --output ${OUT}/twin_stale.report.txt
       tests/cli/encodings/stale_snapshot.json
  EXIT 0
  FILE_GOLDEN ${OUT}/twin_stale.decisions.jsonl=${GOLDEN}/stale_snapshot.decisions.jsonl)

# A mistyped command or option gets a guess and the help of the command
# being parsed; every subcommand's help ends with its own examples.
lbsim_cli_test(NAME "a mistyped command"
  ARGS chek scenarios/
  EXIT 2 STDERR_MATCH "^lbsim: error: unknown command 'chek' \\(did you mean 'check'\\?\\) \\(see lbsim --help\\)\n$")
lbsim_cli_test(NAME "a mistyped option"
  ARGS --slot 4 ${steady}
  EXIT 2 STDERR_MATCH "^lbsim: error: unknown option '--slot' \\(did you mean '--slots'\\?\\) \\(see lbsim --help\\)\n$")
lbsim_cli_test(NAME "a mistyped option of a subcommand"
  ARGS sweep --vray ll.inflight=1,2 ${steady}
  EXIT 2 STDERR_MATCH "^lbsim: error: unknown option '--vray' \\(did you mean '--vary'\\?\\) \\(see lbsim sweep --help\\)\n$")
lbsim_cli_test(NAME "an unknown option without a likely meaning"
  ARGS gen --colour red
  EXIT 2 STDERR_MATCH "^lbsim: error: unknown option '--colour' \\(see lbsim gen --help\\)\n$")
lbsim_cli_test(NAME "a stray argument of a subcommand"
  ARGS diff a.json b.json c.json
  EXIT 2 STDERR_MATCH "^lbsim: error: unexpected argument 'c.json' \\(see lbsim diff --help\\)\n$")
lbsim_cli_test(NAME "a missing argument names the subcommand's help"
  ARGS check
  EXIT 2 STDERR_MATCH "^lbsim: error: paths is required \\(see lbsim check --help\\)\n$")
lbsim_cli_test(NAME "a mistyped command alone"
  ARGS chek
  EXIT 2 STDERR_MATCH "^lbsim: error: unknown command 'chek' \\(did you mean 'check'\\?\\)")
# A command word in the singular, or cut short, names the command; a
# mistyped strategy or parameter gets a guess too.
foreach(pair IN ITEMS "strategy|strategies" "proxy|proxies" "engine|engines" "engin|engines")
  string(REPLACE "|" ";" words "${pair}")
  list(GET words 0 typed)
  list(GET words 1 meant)
  lbsim_cli_test(NAME "a command in another form: ${typed}"
    ARGS ${typed}
    EXIT 2 STDERR_LINES 1
    STDERR_MATCH "^lbsim: error: unknown command '${typed}' \\(did you mean '${meant}'\\?\\) \\(see lbsim --help\\)\n$")
endforeach()
lbsim_cli_test(NAME "a mistyped strategy name"
  ARGS -s rr,leastload ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: unknown strategy 'leastload' \\(did you mean 'least_load'\\?\\); registered: round_robin ")
lbsim_cli_test(NAME "a mistyped strategy parameter"
  ARGS -s ll:inflght=0 ${steady}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: strategy least_load: unknown parameter 'inflght' \\(did you mean 'inflight'\\?\\); expected one of: inflight ")
foreach(sub gen sweep merge strategies proxies)
  lbsim_cli_test(NAME "${sub} --help shows its own examples"
    ARGS ${sub} --help
    EXIT 0 STDOUT_MATCH "\nExamples:\n  lbsim ${sub}")
endforeach()
# gen's help ends with gen's examples and its own note, not the replay's.
lbsim_cli_test(NAME "gen --help ends with gen's examples"
  ARGS gen --help
  EXIT 0 STDOUT_MATCH "\nExamples:\n  lbsim gen [^\n]*\n  lbsim gen [^\n]*\n  lbsim gen [^\n]*\n\nA gen spec [^\n]*\nExit status: [^\n]*\nis written\\)\\.\n$")
lbsim_cli_test(NAME "gen --arrivals 0"
  ARGS gen --arrivals 0 --rate 1
  EXIT 2 STDERR_MATCH "^lbsim: error: --arrivals 0: expected a whole number >= 1 \\(or leave it out and give --until\\)\n$")
lbsim_cli_test(NAME "gen --rate in words"
  ARGS gen --rate fast --arrivals 3
  EXIT 2 STDERR_MATCH "^lbsim: error: --rate fast: expected a number >= 0 \\(arrivals per time unit\\)\n$")

# -o FILE picks the format from its extension unless -f says otherwise.
lbsim_cli_test(NAME "output format from the extension: json"
  ARGS -s ll -o ${OUT}/by_extension.json ${steady}
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${OUT}/by_extension.json=${GOLDEN}/steady_pool.ll.report.json)
lbsim_cli_test(NAME "output format from the extension: csv"
  ARGS -s ll -o ${OUT}/by_extension.csv ${steady}
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${OUT}/by_extension.csv=${GOLDEN}/steady_pool.ll.csv)
lbsim_cli_test(NAME "output format: -f wins over the extension"
  ARGS -s ll -f table -o ${OUT}/explicit.json ${steady}
  EXIT 0 STDOUT_MATCH "^$" FILE_GOLDEN ${OUT}/explicit.json=${GOLDEN}/steady_pool.ll.table.txt)
lbsim_cli_test(NAME "sweep output format from the extension"
  ARGS sweep -s ll -o ${OUT}/sweep_by_extension.json ${steady}
  EXIT 0 STDOUT_MATCH "^$")

# Any two outputs naming one file are refused, by their flags, before
# anything is written (one pairwise check over every output).
set(queue_trace traces/examples/proxy_queue.ndjson)
foreach(case
    "--window-csv and --decisions|--window 1 --window-csv ${OUT}/pair-w.csv --decisions ${OUT}/./pair-w.csv ${queue_trace}|pair-w.csv"
    "--engine-log and --output|--engine llama-3.1-8b-h100 --engine-log ${OUT}/pair-e.txt --output ${OUT}/pair-e.txt tests/cli/engine/three_requests.ndjson|pair-e.txt"
    "--request-log and --window-csv|--proxy-queue --window 1 --request-log ${OUT}/pair-r.txt --window-csv ${OUT}/pair-r.txt ${queue_trace}|pair-r.txt"
    "--junit and --request-log|--proxy-queue --request-log ${OUT}/pair-j.xml --expect least_load.decisions>0 --junit ${OUT}/pair-j.xml ${queue_trace}|pair-j.xml")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 pair)
  list(GET parts 1 flags)
  list(GET parts 2 file)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  lbsim_cli_test(NAME "refuse one file for ${pair}"
    ARGS -s ll ${flags}
    EXIT 2 STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: ${pair} name the same file\nlbsim: no output written "
    ABSENT ${OUT}/${file})
endforeach()
