# A replay reads a trace file on a second thread when it may use two CPUs,
# and with more threads splits its strategies into groups, each on a thread
# of its own. This runs the same replays on a generated trace of many
# read-ahead batches four ways (read ahead, held to one CPU with taskset,
# from standard input, which is never read ahead, and in two groups with
# --threads 4) and requires byte-identical reports and decision logs, and
# the same error, exit status and absent outputs for a trace that breaks
# far into the file.
#
# -DLBSIM=<binary> -DDIR=<scratch directory>

file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(status ${status} PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(require_same a b)
  file(READ ${a} text_a)
  file(READ ${b} text_b)
  if(NOT text_a STREQUAL text_b)
    message(FATAL_ERROR "${a} and ${b} differ")
  endif()
endfunction()

run(${LBSIM} gen --seed 5 --instances 6 --rate 40 --arrivals 24000 --durations exponential:0.3
    --report-interval 0.5 --report-fields inflight,qps_1m --flap inst-2@10:20:5:140 --join late@50
    -o ${DIR}/trace.ndjson)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "lbsim gen failed: ${err}")
endif()

set(replay -s rr,ll,ll:unknown=max,p2c -f json)
run(${LBSIM} ${replay} --decisions ${DIR}/ahead.jsonl -o ${DIR}/ahead.json ${DIR}/trace.ndjson)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "replay failed: ${err}")
endif()
run(taskset -c 0 ${LBSIM} ${replay} --decisions ${DIR}/one.jsonl -o ${DIR}/one.json
    ${DIR}/trace.ndjson)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "replay on one CPU failed: ${err}")
endif()
run(${LBSIM} ${replay} --decisions ${DIR}/stdin.jsonl -o ${DIR}/stdin.json -
    INPUT_FILE ${DIR}/trace.ndjson)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "replay from standard input failed: ${err}")
endif()
run(${LBSIM} --threads 4 ${replay} --decisions ${DIR}/groups.jsonl -o ${DIR}/groups.json
    ${DIR}/trace.ndjson)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "replay in groups failed: ${err}")
endif()
require_same(${DIR}/ahead.json ${DIR}/one.json)
require_same(${DIR}/ahead.json ${DIR}/groups.json)
require_same(${DIR}/ahead.jsonl ${DIR}/groups.jsonl)
require_same(${DIR}/ahead.jsonl ${DIR}/one.jsonl)
require_same(${DIR}/ahead.jsonl ${DIR}/stdin.jsonl)
file(STRINGS ${DIR}/ahead.jsonl decisions)
list(LENGTH decisions count)
if(NOT count EQUAL 96000)
  message(FATAL_ERROR "expected 96000 decisions (4 strategies x 24000 arrivals), got ${count}")
endif()

# The same trace with a line broken near its end: the error names that
# line whichever way it was read, and nothing is written.
file(READ ${DIR}/trace.ndjson text)
string(LENGTH "${text}" length)
math(EXPR cut "${length} - 200")
string(SUBSTRING "${text}" 0 ${cut} head)
string(SUBSTRING "${text}" ${cut} -1 tail)
string(FIND "${tail}" "\n" newline)
math(EXPR newline "${newline} + 1")
string(SUBSTRING "${tail}" 0 ${newline} tail_head)
string(SUBSTRING "${tail}" ${newline} -1 tail_rest)
file(WRITE ${DIR}/broken.ndjson "${head}${tail_head}{\"t\": 1e999}\n${tail_rest}")
set(errors)
foreach(mode ahead one groups)
  set(prefix)
  set(threads)
  if(mode STREQUAL one)
    set(prefix taskset -c 0)
  elseif(mode STREQUAL groups)
    set(threads --threads 4)
  endif()
  run(${prefix} ${LBSIM} ${threads} ${replay} --decisions ${DIR}/broken-${mode}.jsonl
      -o ${DIR}/broken-${mode}.json ${DIR}/broken.ndjson)
  if(NOT status EQUAL 2)
    message(FATAL_ERROR "${mode}: expected exit status 2, got ${status}: ${err}")
  endif()
  if(EXISTS ${DIR}/broken-${mode}.jsonl OR EXISTS ${DIR}/broken-${mode}.json)
    message(FATAL_ERROR "${mode}: a failed replay wrote an output")
  endif()
  string(REPLACE "broken-${mode}" "broken-MODE" err "${err}")
  list(APPEND errors "${err}")
endforeach()
list(GET errors 0 ahead_error)
list(GET errors 1 one_error)
list(GET errors 2 groups_error)
if(NOT ahead_error STREQUAL one_error OR NOT ahead_error STREQUAL groups_error)
  message(FATAL_ERROR "the errors differ:\n${ahead_error}\n${one_error}\n${groups_error}")
endif()
if(NOT ahead_error MATCHES "broken.ndjson:[0-9]+: ")
  message(FATAL_ERROR "the error does not name the line: ${ahead_error}")
endif()
