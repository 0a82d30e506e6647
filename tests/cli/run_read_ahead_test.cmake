# A replay reads a trace file on a second thread when it may use two CPUs,
# standard input too when it is redirected from a regular file, and with
# more threads splits its strategies into groups, each on a thread of its
# own. This runs the same replays on a generated trace of many read-ahead
# batches seven ways (read ahead, held to one CPU with taskset, from
# standard input redirected from the file, from the file gzipped the same
# way, from standard input that an earlier reader left part-way into the
# file (read from its start all the same), through a pipe, which is never
# read ahead, and in two groups with --threads 4) and requires
# byte-identical reports and decision logs, and the same error, exit status
# and absent outputs for a trace that breaks far into the file.
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
execute_process(COMMAND gzip -c ${DIR}/trace.ndjson OUTPUT_FILE ${DIR}/trace.ndjson.gz
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gzip failed")
endif()
run(${LBSIM} ${replay} --decisions ${DIR}/stdin-gz.jsonl -o ${DIR}/stdin-gz.json -
    INPUT_FILE ${DIR}/trace.ndjson.gz)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "replay from gzipped standard input failed: ${err}")
endif()
run(sh -c "head -c 1000 > /dev/null && exec \"$0\" \"$@\"" ${LBSIM} ${replay}
    --decisions ${DIR}/stdin-later.jsonl -o ${DIR}/stdin-later.json - INPUT_FILE ${DIR}/trace.ndjson)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "replay from standard input read part-way failed: ${err}")
endif()
execute_process(COMMAND cat ${DIR}/trace.ndjson
                COMMAND ${LBSIM} ${replay} --decisions ${DIR}/pipe.jsonl -o ${DIR}/pipe.json -
                RESULTS_VARIABLE statuses ERROR_VARIABLE err)
if(NOT statuses STREQUAL "0;0")
  message(FATAL_ERROR "replay through a pipe failed (${statuses}): ${err}")
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
foreach(way stdin stdin-gz stdin-later pipe)
  require_same(${DIR}/ahead.jsonl ${DIR}/${way}.jsonl)
  # The reports differ only in the trace's name.
  file(READ ${DIR}/${way}.json report)
  string(REPLACE "\"path\": \"-\"" "\"path\": \"${DIR}/trace.ndjson\"" report "${report}")
  file(READ ${DIR}/ahead.json ahead_report)
  if(NOT report STREQUAL ahead_report)
    message(FATAL_ERROR "${way}: the report differs from the file's")
  endif()
endforeach()
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
# From standard input, redirected (read ahead) or through a pipe (not): the
# same error, naming <stdin>.
string(REPLACE "${DIR}/broken.ndjson" "<stdin>" stdin_error "${ahead_error}")
run(${LBSIM} ${replay} --decisions ${DIR}/broken-MODE.jsonl -o ${DIR}/broken-MODE.json -
    INPUT_FILE ${DIR}/broken.ndjson)
if(NOT status EQUAL 2 OR NOT err STREQUAL stdin_error)
  message(FATAL_ERROR "stdin: expected exit status 2 and\n${stdin_error}got ${status}:\n${err}")
endif()
execute_process(COMMAND cat ${DIR}/broken.ndjson
                COMMAND ${LBSIM} ${replay} --decisions ${DIR}/broken-MODE.jsonl
                        -o ${DIR}/broken-MODE.json -
                RESULTS_VARIABLE statuses ERROR_VARIABLE err)
# (cat may or may not have written its last bytes when lbsim stops.)
list(GET statuses 1 status)
if(NOT status EQUAL 2 OR NOT err STREQUAL stdin_error)
  message(FATAL_ERROR "pipe: expected exit status 2 and\n${stdin_error}got ${status}:\n${err}")
endif()
if(EXISTS ${DIR}/broken-MODE.jsonl OR EXISTS ${DIR}/broken-MODE.json)
  message(FATAL_ERROR "a failed replay from standard input wrote an output")
endif()
