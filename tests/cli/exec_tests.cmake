# --strategy exec:COMMAND from the command line: protocol failures are one
# error line naming the command, the decision and what was wrong (an error
# of the program, not of the trace: exit 2, no report file, then a line
# naming the files not written); usage errors; the exec strategy beside
# built-in ones.

set(FAKE "${LBSIM_PYTHON} tests/bridge/fake_strategy.py")
set(PROXY "${LBSIM_PYTHON} strategies/external/proxy_strategies.py")
set(STEADY traces/examples/steady_pool.json)
set(EXEC_PREFIX "^lbsim: error: exec strategy '[^']*fake_strategy.py [a-z_]*': seq 2 \\(request r2\\): ")

foreach(case
    "not_candidate|bad reply {\"instance\": \"ghost\", \"reason\": \"first\"}: field \"instance\": expected the id of a candidate \\(inst-a, inst-b, inst-c\\) or null \\(refused\\), got \"ghost\""
    "not_json|bad reply {instance: oops: invalid JSON at column 2: "
    "not_object|bad reply \\[\"inst-a\"\\]: expected an object"
    "bad_reason|bad reply {[^\n]*}: field \"reason\": expected a word of a-z, 0-9 and _ starting with a letter \\(at most 32 characters, not no_instances\\), got \"Not A Word\""
    "wrong_seq|bad reply {[^\n]*}: field \"seq\": expected 2 \\(this decision's seq\\), got 3"
    "two_lines|the program wrote more than one line for one request"
    "crash|the program closed the pipe without replying; it exited with status 3"
    "hang|no reply within 2 s \\(--exec-timeout\\); the program was killed")
  string(REGEX REPLACE "\\|.*" "" mode "${case}")
  string(REGEX REPLACE "^[^|]*\\|" "" message "${case}")
  lbsim_cli_test(NAME "exec ${mode}"
    ARGS -s "exec:${FAKE} ${mode}" --exec-timeout 2 --format json -o ${OUT}/exec_${mode}.json
         --decisions ${OUT}/exec_${mode}.jsonl ${STEADY}
    EXIT 2 STDERR_LINES 2
    STDERR_MATCH "${EXEC_PREFIX}${message}[^\n]*\nlbsim: no output written \\(--output ${OUT}/exec_${mode}.json, --decisions ${OUT}/exec_${mode}.jsonl\\)\n$"
    ABSENT ${OUT}/exec_${mode}.json ${OUT}/exec_${mode}.jsonl)
endforeach()

lbsim_cli_test(NAME "exec command not found"
  ARGS -s "exec:lbsim-no-such-strategy-program" ${STEADY}
  EXIT 2
  STDERR_MATCH "lbsim: error: exec strategy 'lbsim-no-such-strategy-program': seq 1 \\(request r1\\): the program closed the pipe without replying; it exited with status 127\n$")

# Usage.
lbsim_cli_test(NAME "exec needs a command"
  ARGS -s exec ${STEADY}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "strategy exec: expected exec:COMMAND \\(the command is missing or empty\\)")
lbsim_cli_test(NAME "exec-timeout needs an exec strategy"
  ARGS -s rr --exec-timeout 3 ${STEADY}
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--exec-timeout: no exec:COMMAND strategy in this run")
lbsim_cli_test(NAME "exec-timeout must be a positive number"
  ARGS -s "exec:${PROXY} rr" --exec-timeout soon ${STEADY}
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "strategy exec: parameter timeout: expected a finite number >= 0.001, got 'soon'")
lbsim_cli_test(NAME "strategies lists exec"
  ARGS strategies
  EXIT 0 STDOUT_MATCH "\nexec +- +experimental +Runs COMMAND \\(exec:COMMAND\\)[^\n]*\n.*\nexec\n  command +default +the program[^\n]*\n  timeout +default 10 ")

# Beside built-in strategies: a comma list ending in exec keeps the command's
# commas (here they reach the program's arguments, which it rejects).
lbsim_cli_test(NAME "exec in a comma list"
  ARGS -s "rr,exec:${PROXY} ll" --format json ${STEADY}
  EXIT 0
  STDOUT_MATCH "\"strategy\": \"round_robin\",\n *\"requested_as\": \"rr\".*\"strategy\": \"exec\",\n *\"requested_as\": \"exec:[^\"]*proxy_strategies.py ll\",\n *\"params\": {\n *\"command\": \"[^\"]*proxy_strategies.py ll\",\n *\"timeout\": 10")
lbsim_cli_test(NAME "exec command keeps its commas"
  ARGS -s "rr,exec:${PROXY} rr --weight a=1,b=2" ${STEADY}
  EXIT 2
  STDERR_MATCH "--weight applies to least_load only\nlbsim: error: exec strategy '[^']*proxy_strategies.py rr --weight a=1,b=2': seq 1 \\(request r1\\): the program closed the pipe without replying; it exited with status 2\n$")

# proxy_strategies.py --factory serves a team's own module: here one that
# always takes the last candidate (pool order: inst-c until inst-a
# re-registers at the end) and reports its name as the reason.
lbsim_cli_test(NAME "exec proxy_strategies with a team's factory"
  ARGS -s "exec:${PROXY} --factory tests.bridge.team_strategies:build last"
       --decisions ${OUT}/exec_factory_last.decisions.jsonl -o ${OUT}/exec_factory_last.txt
       traces/examples/down_and_back.json
  EXIT 0
  FILE_GOLDEN ${OUT}/exec_factory_last.decisions.jsonl=${GOLDEN}/exec_factory_last.decisions.jsonl)

# What the program receives, pinned on a trace with no_instances arrivals:
# seq 1 and 3 find nothing alive and are not sent; an unknown inflight is
# null; inst-a's own request completed at t=2, before it went down.
lbsim_cli_test(NAME "exec requests skip no_instances arrivals"
  ARGS -s "exec:tee '${OUT}/exec_empty_pool.requests.jsonl' | ${PROXY} rr"
       -o ${OUT}/exec_empty_pool.txt traces/examples/empty_pool.json
  EXIT 0
  FILE_GOLDEN ${OUT}/exec_empty_pool.requests.jsonl=${GOLDEN}/exec_empty_pool.requests.jsonl)

# In the table, a long spec (an exec command) is cut to 32 characters; the
# parameters section names the command in full.
lbsim_cli_test(NAME "exec spec shortened in the table"
  ARGS --proxy spec -s ll -s "exec:${PROXY} least_load" ${STEADY}
  EXIT 0
  STDOUT_MATCH "\nrequested as +ll +exec:[^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n][^\n]\\.\\.\\.\n.*\nparameters\n.*  exec: command=[^\n]*proxy_strategies.py least_load \\(others default\\)\n")
