# Hostile and broken input, end to end through the CLI.
#
# Every input lbsim must refuse is replayed with a report and a decision log
# requested, and must give exit status 2 and exactly two lines on stderr:
#   lbsim: error: <file><where>: <field and what was expected>
#   lbsim: no output written (--output ..., --decisions ...)
# leaving its output directory empty (no report, no log, no temporary file).
# <where> is ":LINE" (JSON Lines), ": events[INDEX]" or ": header" (JSON
# document), or ":LINE:COLUMN" for a JSON syntax error in a document. Syntax
# errors are pinned up to the position; the parser's own wording follows.
#
# Every input that is valid, however odd, must replay (exit 0, nothing on
# stderr), most of them to the very decisions of the clean example they
# were made from.
#
# The corpus: tests/corpus/bad/ (refused), tests/corpus/odd/ (accepted), and
# inputs too large to commit, written at test time by
# tests/corpus/make_large_inputs.py.

find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(BAD tests/corpus/bad)
set(ODD tests/corpus/odd)
set(HOSTILE_OUT ${OUT}/hostile)
set(LARGE ${HOSTILE_OUT}/large)

# Sets `var` to `text` as a CMake regex matching exactly that text. Square
# brackets become '.', which matches them too: an unbalanced bracket would
# stop CMake from splitting the test's argument list at the next ';'.
function(lbsim_regex_literal var text)
  string(REGEX REPLACE "([+.*?()^$|\\{}])" "\\\\\\1" escaped "${text}")
  string(REGEX REPLACE "[][]" "." escaped "${escaped}")
  set(${var} "${escaped}" PARENT_SCOPE)
endfunction()

# lbsim_refuses(NAME <case> INPUT <path> MESSAGE <text> | MESSAGE_START <text>
#               [SHOWN_AS <path>] [STDIN_FILE <file>] [FIXTURE <name>] [ARGS <arg>...])
# The first stderr line must be "lbsim: error: " SHOWN_AS (default INPUT)
# followed by exactly MESSAGE, or by MESSAGE_START and anything.
function(lbsim_refuses)
  cmake_parse_arguments(PARSE_ARGV 0 R "" "NAME;INPUT;MESSAGE;MESSAGE_START;SHOWN_AS;STDIN_FILE;FIXTURE"
                        "ARGS")
  string(MAKE_C_IDENTIFIER "${R_NAME}" id)
  set(dir ${HOSTILE_OUT}/${id})
  if(NOT DEFINED R_SHOWN_AS)
    set(R_SHOWN_AS "${R_INPUT}")
  endif()
  if(DEFINED R_MESSAGE)
    lbsim_regex_literal(first "${R_SHOWN_AS}${R_MESSAGE}")
  else()
    lbsim_regex_literal(first "${R_SHOWN_AS}${R_MESSAGE_START}")
    string(APPEND first "[^\n]*")
  endif()
  set(outputs --output ${dir}/report.json --decisions ${dir}/decisions.jsonl)
  lbsim_regex_literal(named "--output ${dir}/report.json, --decisions ${dir}/decisions.jsonl")
  set(stdin)
  if(DEFINED R_STDIN_FILE)
    set(stdin STDIN_FILE ${R_STDIN_FILE})
  endif()
  set_property(GLOBAL APPEND PROPERTY lbsim_pinned_inputs "${R_INPUT}")
  lbsim_cli_test(NAME "hostile: ${R_NAME}"
    ARGS -s rr,ll ${outputs} ${R_ARGS} ${R_INPUT}
    EXIT 2 STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: ${first}\nlbsim: no output written \\(${named}\\)\n$"
    EMPTY_DIRS ${dir} ${stdin})
  if(DEFINED R_FIXTURE)
    set_tests_properties("cli: hostile: ${R_NAME}" PROPERTIES FIXTURES_REQUIRED ${R_FIXTURE})
  endif()
endfunction()

# lbsim_bad(FILE <corpus file> MESSAGE|MESSAGE_START <text after the path>)
function(lbsim_bad file kind text)
  lbsim_refuses(NAME "${file}" INPUT ${BAD}/${file} ${kind} "${text}")
endfunction()

# lbsim_accepts(NAME <case> INPUT <path> [DECISIONS_GOLDEN <file>] [STDOUT_MATCH <re>]
#               [FIXTURE <name>] [ARGS <arg>...])
# Exit 0 and nothing on stderr; with DECISIONS_GOLDEN, `-s rr,ll`'s decision
# log must equal that file.
function(lbsim_accepts)
  cmake_parse_arguments(PARSE_ARGV 0 A "" "NAME;INPUT;DECISIONS_GOLDEN;STDOUT_MATCH;FIXTURE" "ARGS")
  string(MAKE_C_IDENTIFIER "${A_NAME}" id)
  set(log ${HOSTILE_OUT}/${id}.decisions.jsonl)
  set(checks)
  if(DEFINED A_DECISIONS_GOLDEN)
    list(APPEND checks FILE_GOLDEN ${log}=${A_DECISIONS_GOLDEN})
  endif()
  if(DEFINED A_STDOUT_MATCH)
    list(APPEND checks STDOUT_MATCH "${A_STDOUT_MATCH}")
  endif()
  set_property(GLOBAL APPEND PROPERTY lbsim_pinned_inputs "${A_INPUT}")
  lbsim_cli_test(NAME "hostile: ${A_NAME}"
    ARGS -s rr,ll --decisions ${log} ${A_ARGS} ${A_INPUT}
    EXIT 0 STDERR_LINES 0 CLEAN ${log} ${checks})
  if(DEFINED A_FIXTURE)
    set_tests_properties("cli: hostile: ${A_NAME}" PROPERTIES FIXTURES_REQUIRED ${A_FIXTURE})
  endif()
endfunction()

set(NOT_A_NUMBER_GE_0 "expected a finite number >= 0")
set(INFLIGHT "expected an integer >= 0 (at most 2^53) or null")
set(QPS "expected a finite number >= 0 or null")
set(WEIGHT "expected a finite number > 0")
set(ID "expected a non-empty string (an Instance id)")
set(TYPES "expected one of up, down, remove, load, arrival")
set(VERSION "expected the integer 1 (trace format version)")

# --- Empty, whitespace-only, truncated -------------------------------------
# (Empty files, a JSON Lines header with "events", an unknown type and
# out-of-order JSON Lines are in bad_input_tests.cmake.)
lbsim_bad(whitespace_only.ndjson MESSAGE ": empty trace: expected a header line {\"lbsim_trace\": 1, ...}")
lbsim_bad(whitespace_only.json MESSAGE ": empty trace: expected a JSON object {\"lbsim_trace\": 1, ..., \"events\": [...]}")
lbsim_bad(truncated_header.ndjson MESSAGE_START ":1: invalid JSON at column 56: ")
lbsim_bad(truncated_event.ndjson MESSAGE_START ":4: invalid JSON at column 22: ")
lbsim_bad(truncated_header.json MESSAGE_START ":3:42: invalid JSON: ")
lbsim_bad(truncated_events.json MESSAGE_START ":6:1: invalid JSON: ")
lbsim_bad(truncated_close.json MESSAGE_START ":6:1: invalid JSON: ")

# --- Not JSON, binary, encodings ---------------------------------------------
lbsim_bad(not_json.ndjson MESSAGE_START ":1: invalid JSON at column 2: ")
lbsim_bad(not_json.json MESSAGE_START ":1:1: invalid JSON: ")
lbsim_bad(binary.ndjson MESSAGE_START ":1: invalid JSON at column 1: ")
lbsim_bad(binary.json MESSAGE_START ":1:1: invalid JSON: ")
lbsim_bad(nul_in_string.ndjson MESSAGE_START ":2: invalid JSON at column 42: ")
lbsim_bad(invalid_utf8_name.ndjson MESSAGE_START ":1: invalid JSON at column 33: ")
lbsim_bad(invalid_utf8_id.json MESSAGE_START ":1:47: invalid JSON: ")
lbsim_bad(lone_surrogate.ndjson MESSAGE_START ":2: invalid JSON at column 49: ")
lbsim_bad(utf16.json MESSAGE
  ": UTF-16 (little-endian) text (it starts with that byte order mark); lbsim reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8")
lbsim_bad(bom_mid_stream.ndjson MESSAGE
  ":3: invalid JSON: a byte order mark (U+FEFF) is allowed only at the start of the file")
# The error line shows invalid bytes as escapes, never raw.
lbsim_cli_test(NAME "hostile: invalid UTF-8 is shown escaped"
  ARGS ${BAD}/invalid_utf8_name.ndjson EXIT 2 STDERR_LINES 1 STDERR_MATCH "caf\\\\xe9")

# --- Top-level shape ---------------------------------------------------------
lbsim_bad(top_level_array.json MESSAGE ": expected a JSON object at the top level of a trace document")
lbsim_bad(top_level_string.json MESSAGE ": expected a JSON object at the top level of a trace document")
lbsim_bad(top_level_array.ndjson MESSAGE_START ":1: header: expected the header object, got [")
lbsim_bad(two_documents.json MESSAGE_START ":2:1: invalid JSON: ")
lbsim_bad(events_missing.json MESSAGE ": header: field \"events\": expected an array of events, but it is missing")
lbsim_bad(events_object.json MESSAGE ": header: field \"events\": expected an array of events, got an object")
lbsim_bad(events_twice.json MESSAGE ": field \"events\": appears twice in the document")
lbsim_bad(event_array.ndjson MESSAGE ":3: expected an event object, got [1,2]")
lbsim_bad(event_scalar.json MESSAGE ": events[1]: expected an event object, got 1")

# --- lbsim_trace -------------------------------------------------------------
lbsim_bad(version_missing.ndjson MESSAGE ":1: header: field \"lbsim_trace\": ${VERSION}, but it is missing")
lbsim_bad(version_string.json MESSAGE ": header: field \"lbsim_trace\": ${VERSION}, got \"1\"")
lbsim_bad(version_float.ndjson MESSAGE ":1: header: field \"lbsim_trace\": ${VERSION}, got 1.0")
lbsim_bad(version_null.json MESSAGE ": header: field \"lbsim_trace\": ${VERSION}, got null")
lbsim_bad(version_huge.ndjson MESSAGE
  ":1: header: field \"lbsim_trace\": ${VERSION}, got 1.8446744073709552e+19")
lbsim_bad(version_future.json MESSAGE
  ": header: field \"lbsim_trace\": unsupported trace format version 2; this lbsim reads version 1")
lbsim_bad(version_negative.ndjson MESSAGE
  ":1: header: field \"lbsim_trace\": unsupported trace format version -1; this lbsim reads version 1")

# --- Header fields and header Instances --------------------------------------
lbsim_bad(time_unit_us.json MESSAGE ": header: field \"time_unit\": expected \"s\" or \"ms\", got \"us\"")
lbsim_bad(name_number.ndjson MESSAGE ":1: header: field \"name\": expected a string, got 7")
lbsim_bad(instances_object.json MESSAGE
  ": header: field \"instances\": expected an array of Instance objects, got {\"id\":\"inst-a\"}")
lbsim_bad(instance_not_object.ndjson MESSAGE
  ":1: header: instances[0]: expected an Instance object, got \"inst-a\"")
lbsim_bad(instance_id_missing.json MESSAGE ": header: instances[1]: field \"id\": ${ID}, but it is missing")
lbsim_bad(instance_id_empty.ndjson MESSAGE ":1: header: instances[0]: field \"id\": ${ID}, got \"\"")
lbsim_bad(instance_id_number.json MESSAGE ": header: instances[0]: field \"id\": ${ID}, got 7")
lbsim_bad(instance_id_duplicate.ndjson MESSAGE
  ":1: header: instances[2]: field \"id\": expected a unique Instance id, got \"inst-a\" again")
lbsim_bad(instance_weight_zero.json MESSAGE ": header: instances[0]: field \"weight\": ${WEIGHT}, got 0")
lbsim_bad(instance_weight_negative.ndjson MESSAGE ":1: header: instances[0]: field \"weight\": ${WEIGHT}, got -1")
lbsim_bad(instance_weight_string.json MESSAGE ": header: instances[0]: field \"weight\": ${WEIGHT}, got \"2\"")
lbsim_bad(instance_weight_bool.ndjson MESSAGE ":1: header: instances[0]: field \"weight\": ${WEIGHT}, got true")
lbsim_bad(instance_inflight_fraction.json MESSAGE
  ": header: instances[0]: field \"inflight\": ${INFLIGHT}, got 1.5")
lbsim_bad(instance_inflight_negative.ndjson MESSAGE
  ":1: header: instances[0]: field \"inflight\": ${INFLIGHT}, got -1")
lbsim_bad(instance_inflight_1e30.json MESSAGE
  ": header: instances[0]: field \"inflight\": ${INFLIGHT}, got 1e+30")
lbsim_bad(instance_inflight_2p53_plus_1.ndjson MESSAGE
  ":1: header: instances[0]: field \"inflight\": ${INFLIGHT}, got 9007199254740993")
lbsim_bad(instance_qps_negative.json MESSAGE ": header: instances[0]: field \"qps_1m\": ${QPS}, got -0.5")
lbsim_bad(instance_qps_string.ndjson MESSAGE ":1: header: instances[0]: field \"qps_1m\": ${QPS}, got \"10\"")
lbsim_bad(instance_alive_string.json MESSAGE
  ": header: instances[0]: field \"alive\": expected true or false, got \"yes\"")

# --- Every event: t and type -------------------------------------------------
lbsim_bad(t_missing.ndjson MESSAGE ":3: field \"t\": ${NOT_A_NUMBER_GE_0}, but it is missing")
lbsim_bad(t_string.json MESSAGE ": events[1]: field \"t\": ${NOT_A_NUMBER_GE_0}, got \"1\"")
lbsim_bad(t_bool.ndjson MESSAGE ":3: field \"t\": ${NOT_A_NUMBER_GE_0}, got true")
lbsim_bad(t_null.ndjson MESSAGE ":3: field \"t\": ${NOT_A_NUMBER_GE_0}, got null")
lbsim_bad(t_negative.json MESSAGE ": events[0]: field \"t\": ${NOT_A_NUMBER_GE_0}, got -1")
# 1e400 is past the double range; NaN and Infinity are not JSON.
lbsim_bad(t_1e400.ndjson MESSAGE_START ":3: invalid JSON at column 11: ")
lbsim_bad(t_nan.json MESSAGE_START ":5:11: invalid JSON: ")
lbsim_bad(t_infinity.ndjson MESSAGE_START ":3: invalid JSON at column 7: ")
lbsim_bad(t_minus_infinity.json MESSAGE_START ":4:12: invalid JSON: ")
# Times are doubles: an integer past 2^53, or an arrival's integer end past
# it, would not be Python's exact integer; a fraction or exponent is a double
# in both (tests/corpus/odd/times_near_2p53.ndjson).
set(EXACT_ONLY "(lbsim adds times as doubles, exact only that far")
lbsim_bad(t_integer_past_2p53.ndjson MESSAGE
  ":3: field \"t\": expected an integer of at most 2^53 ${EXACT_ONLY}; write a fraction or an exponent to take the nearest double), got 9007199254740993")
lbsim_bad(t_integer_past_2p64.json MESSAGE
  ": events[0]: field \"t\": expected an integer of at most 2^53 ${EXACT_ONLY}; write a fraction or an exponent to take the nearest double), got 100000000000000000000000")
lbsim_bad(duration_end_past_2p53.ndjson MESSAGE
  ":2: field \"duration\": expected t + duration of at most 2^53 when both are integers ${EXACT_ONLY}), got 9007199254740991 + 2")
lbsim_bad(ttft_end_past_2p53.ndjson MESSAGE
  ":2: field \"ttft\": expected t + ttft of at most 2^53 when both are integers ${EXACT_ONLY}), got 9007199254740000 + 993")
lbsim_bad(t_out_of_order.json MESSAGE
  ": events[2]: field \"t\": expected a time >= 2 (events must be in non-decreasing t), got 1.5")
lbsim_bad(type_missing.ndjson MESSAGE ":3: field \"type\": ${TYPES}, but it is missing")
lbsim_bad(type_wrong_case.ndjson MESSAGE ":3: field \"type\": ${TYPES}, got \"Arrival\"")
lbsim_bad(type_number.json MESSAGE ": events[0]: field \"type\": ${TYPES}, got 4")

# --- up ----------------------------------------------------------------------
lbsim_bad(up_instance_missing.ndjson MESSAGE ":2: field \"instance\": ${ID}, but it is missing")
lbsim_bad(up_instance_empty.json MESSAGE ": events[0]: field \"instance\": ${ID}, got \"\"")
lbsim_bad(up_instance_number.ndjson MESSAGE ":2: field \"instance\": ${ID}, got 3")
lbsim_bad(up_weight_zero.json MESSAGE ": events[0]: field \"weight\": ${WEIGHT}, got 0")
lbsim_bad(up_weight_negative.ndjson MESSAGE ":2: field \"weight\": ${WEIGHT}, got -2")
lbsim_bad(up_weight_string.json MESSAGE ": events[0]: field \"weight\": ${WEIGHT}, got \"1\"")
lbsim_bad(up_weight_1e400.ndjson MESSAGE_START ":2: invalid JSON at column 60: ")
lbsim_bad(up_inflight_fraction.json MESSAGE ": events[0]: field \"inflight\": ${INFLIGHT}, got 0.5")
lbsim_bad(up_inflight_string.ndjson MESSAGE ":2: field \"inflight\": ${INFLIGHT}, got \"2\"")
lbsim_bad(up_inflight_bool.json MESSAGE ": events[0]: field \"inflight\": ${INFLIGHT}, got false")
lbsim_bad(up_inflight_1e30.ndjson MESSAGE ":2: field \"inflight\": ${INFLIGHT}, got 1e+30")
lbsim_bad(up_qps_negative.json MESSAGE ": events[0]: field \"qps_1m\": ${QPS}, got -3")
lbsim_bad(up_qps_bool.ndjson MESSAGE ":2: field \"qps_1m\": ${QPS}, got true")

# --- down, remove ------------------------------------------------------------
lbsim_bad(down_instance_missing.json MESSAGE ": events[1]: field \"instance\": ${ID}, but it is missing")
lbsim_bad(down_unregistered.ndjson MESSAGE
  ":3: field \"instance\": expected a registered Instance, got \"inst-z\" (never registered)")
lbsim_bad(down_after_remove.ndjson MESSAGE
  ":4: field \"instance\": expected a registered Instance, got \"inst-b\" (it was removed)")
lbsim_bad(remove_unregistered.json MESSAGE
  ": events[1]: field \"instance\": expected a registered Instance, got \"inst-z\" (never registered)")
lbsim_bad(remove_instance_number.ndjson MESSAGE ":2: field \"instance\": ${ID}, got 1")

# --- load --------------------------------------------------------------------
lbsim_bad(load_unregistered.json MESSAGE
  ": events[0]: field \"instance\": expected a registered Instance, got \"inst-z\" (never registered)")
lbsim_bad(load_instance_missing.json MESSAGE ": events[0]: field \"instance\": ${ID}, but it is missing")
lbsim_bad(load_inflight_fraction.ndjson MESSAGE ":2: field \"inflight\": ${INFLIGHT}, got 2.5")
lbsim_bad(load_inflight_negative.json MESSAGE ": events[0]: field \"inflight\": ${INFLIGHT}, got -4")
lbsim_bad(load_inflight_1e30.ndjson MESSAGE ":2: field \"inflight\": ${INFLIGHT}, got 1e+30")
lbsim_bad(load_inflight_string.json MESSAGE ": events[0]: field \"inflight\": ${INFLIGHT}, got \"3\"")
lbsim_bad(load_qps_string.ndjson MESSAGE ":2: field \"qps_1m\": ${QPS}, got \"high\"")
lbsim_bad(load_qps_negative.json MESSAGE ": events[0]: field \"qps_1m\": ${QPS}, got -1e-09")
lbsim_bad(load_qps_1e400.ndjson MESSAGE_START ":2: invalid JSON at column 62: ")
# The parser gives no line and column for a number overflow: the event or
# header field stands in.
lbsim_bad(t_1e400.json MESSAGE ": events[1]: invalid JSON: number overflow parsing '1e400'")
lbsim_bad(weight_1e400_header.json MESSAGE
  ": header: field \"instances\": invalid JSON: number overflow parsing '1e400'")

# --- arrival -----------------------------------------------------------------
lbsim_bad(arrival_request_number.ndjson MESSAGE ":3: field \"request\": expected a string (request id), got 17")
lbsim_bad(arrival_duration_negative.ndjson MESSAGE ":2: field \"duration\": ${NOT_A_NUMBER_GE_0}, got -0.001")
lbsim_bad(arrival_duration_string.json MESSAGE ": events[0]: field \"duration\": ${NOT_A_NUMBER_GE_0}, got \"5\"")
lbsim_bad(arrival_duration_bool.ndjson MESSAGE ":2: field \"duration\": ${NOT_A_NUMBER_GE_0}, got true")
lbsim_bad(arrival_duration_null.json MESSAGE ": events[0]: field \"duration\": ${NOT_A_NUMBER_GE_0}, got null")
lbsim_bad(arrival_duration_1e400.ndjson MESSAGE_START ":2: invalid JSON at column 45: ")

# --- Paths that are not readable trace files ---------------------------------
lbsim_refuses(NAME "nonexistent path" INPUT tests/corpus/no-such-trace.json
  MESSAGE ": cannot read trace: No such file or directory")
lbsim_refuses(NAME "directory" INPUT ${BAD} ARGS --trace-format lines
  MESSAGE ": cannot read trace: is a directory")
# A file that opens but fails to read: /proc/self/mem at offset 0 is unmapped.
lbsim_refuses(NAME "read error, JSON Lines" INPUT /proc/self/mem ARGS --trace-format lines
  MESSAGE ": cannot read trace: Input/output error")
lbsim_refuses(NAME "read error, document" INPUT /proc/self/mem ARGS --trace-format document
  MESSAGE ": cannot read trace: Input/output error")
# Standard input is shown as <stdin>.
lbsim_refuses(NAME "truncated JSON Lines on stdin" INPUT - SHOWN_AS "<stdin>"
  STDIN_FILE ${PROJECT_SOURCE_DIR}/${BAD}/truncated_event.ndjson
  MESSAGE_START ":4: invalid JSON at column 22: ")
# Unreadable for lack of permission: see run_unreadable_test.cmake.
add_test(NAME "cli: hostile: unreadable trace"
  COMMAND ${CMAKE_COMMAND} -DLBSIM=$<TARGET_FILE:lbsim> -DTRACE=${EXAMPLES}/ties.json
          -DDIR=${HOSTILE_OUT}/unreadable -P ${CLI_DIR}/run_unreadable_test.cmake)
set_tests_properties("cli: hostile: unreadable trace" PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")

# --- Valid but odd: replayed, to the clean example's decisions ---------------
lbsim_accepts(NAME "UTF-8 byte order mark, JSON Lines" INPUT ${ODD}/bom_stale_snapshot.ndjson
  DECISIONS_GOLDEN ${GOLDEN}/stale_snapshot.decisions.jsonl)
lbsim_accepts(NAME "UTF-8 byte order mark, document" INPUT ${ODD}/bom_ties.json
  DECISIONS_GOLDEN ${GOLDEN}/ties.decisions.jsonl)
lbsim_accepts(NAME "CRLF, blank and whitespace lines, no final newline"
  INPUT ${ODD}/crlf_blank_lines_stale_snapshot.ndjson
  DECISIONS_GOLDEN ${GOLDEN}/stale_snapshot.decisions.jsonl)
lbsim_accepts(NAME "unknown header and event keys" INPUT ${ODD}/unknown_keys_ties.json
  DECISIONS_GOLDEN ${GOLDEN}/ties.decisions.jsonl)
lbsim_accepts(NAME "events before the header keys" INPUT ${ODD}/events_first_ties.json
  DECISIONS_GOLDEN ${GOLDEN}/ties.decisions.jsonl)
lbsim_accepts(NAME "ids spelled with unicode escapes" INPUT ${ODD}/escaped_ids_ties.json
  DECISIONS_GOLDEN ${GOLDEN}/ties.decisions.jsonl)
lbsim_accepts(NAME "hints of shapes that carry nothing" INPUT ${ODD}/odd_hints_all_unknown.json
  DECISIONS_GOLDEN ${GOLDEN}/all_unknown.decisions.jsonl)
lbsim_accepts(NAME "header only" INPUT ${ODD}/header_only.ndjson
  ARGS --format json STDOUT_MATCH "\"events\": 0,[ \n]*\"arrivals\": 0,.*\"decisions\": 0,")
lbsim_accepts(NAME "nesting at the limit" INPUT ${ODD}/hint_nesting_512.ndjson)
lbsim_accepts(NAME "ids of 4096 bytes" INPUT ${ODD}/id_4096_bytes.ndjson)
lbsim_accepts(NAME "inflight 2^53" INPUT ${ODD}/inflight_2p53.ndjson)
lbsim_accepts(NAME "times near the double maximum" INPUT ${ODD}/extreme_times.ndjson)
lbsim_accepts(NAME "integer times up to 2^53, doubles past it" INPUT ${ODD}/times_near_2p53.ndjson)
# Ids and names that would drive a terminal are shown escaped in the table.
string(ASCII 27 escape)
string(ASCII 7 bell)
lbsim_accepts(NAME "control characters in ids" INPUT ${ODD}/control_char_ids.ndjson
  STDOUT_MATCH "^[^${escape}${bell}]*red\\\\u001b.31m[^${escape}${bell}]*two\\\\nlines[^${escape}${bell}]*$")
# Ids a spreadsheet would run as formulas are CSV text cells ('=..., '@...);
# a plain number stays a number.
lbsim_accepts(NAME "formula ids in CSV" INPUT ${ODD}/formula_ids.ndjson ARGS -s rr --format csv
  STDOUT_MATCH "\n[^\n]*,'=1\\+2,[^\n]*\n[^\n]*,'@SUM.A1.,[^\n]*\n[^\n]*3.12,-3,[^\n]*\n")

# --- Inputs too large to commit ----------------------------------------------
add_test(NAME "cli: hostile: write large inputs"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/corpus/make_large_inputs.py ${LARGE})
set_tests_properties("cli: hostile: write large inputs" PROPERTIES FIXTURES_SETUP hostile_large)

set(NESTING ": nesting deeper than the limit of 512 levels")
lbsim_refuses(NAME "hint nested 513 deep, JSON Lines" INPUT ${BAD}/hint_nesting_513.ndjson
  MESSAGE ":2${NESTING}")
lbsim_refuses(NAME "hint nested 513 deep, document" INPUT ${BAD}/hint_nesting_513.json
  MESSAGE ": events[0]${NESTING}")
lbsim_refuses(NAME "header value nested 513 deep" INPUT ${BAD}/header_nesting_513.json
  MESSAGE ": header: field \"x\"${NESTING}")
lbsim_refuses(NAME "hint nested 200000 deep, JSON Lines" INPUT ${LARGE}/deep_hint_200000.ndjson
  FIXTURE hostile_large MESSAGE ":2${NESTING}")
lbsim_refuses(NAME "hint nested 200000 deep, document" INPUT ${LARGE}/deep_hint_200000.json
  FIXTURE hostile_large MESSAGE ": events[1]${NESTING}")
lbsim_refuses(NAME "200000 unclosed objects" INPUT ${LARGE}/deep_unclosed_200000.ndjson
  FIXTURE hostile_large MESSAGE ":2${NESTING}")

set(LONG_LINE ": line is longer than the limit of 64 MiB")
lbsim_refuses(NAME "line of 64 MiB + 1 byte" INPUT ${LARGE}/line_64MiB_plus_1.ndjson
  FIXTURE hostile_large MESSAGE ":3${LONG_LINE}")
lbsim_refuses(NAME "line without end" INPUT ${LARGE}/line_endless.ndjson
  FIXTURE hostile_large MESSAGE ":2${LONG_LINE}")
lbsim_accepts(NAME "line of exactly 64 MiB" INPUT ${LARGE}/line_64MiB.ndjson FIXTURE hostile_large)
lbsim_refuses(NAME "document event of 65 MiB" INPUT ${LARGE}/event_65MiB.json
  FIXTURE hostile_large MESSAGE ": events[1]: longer than the limit of 64 MiB of JSON text")
lbsim_accepts(NAME "document event of 32 MiB" INPUT ${LARGE}/event_32MiB.json FIXTURE hostile_large)

set(VALUES ": more than the limit of 1000000 JSON values")
lbsim_refuses(NAME "1000001 values in one event, JSON Lines" INPUT ${LARGE}/values_1000001.ndjson
  FIXTURE hostile_large MESSAGE ":2${VALUES}")
lbsim_refuses(NAME "1000001 values in one event, document" INPUT ${LARGE}/values_1000001.json
  FIXTURE hostile_large MESSAGE ": events[0]${VALUES}")
lbsim_accepts(NAME "1000000 values in one event" INPUT ${LARGE}/values_1000000.ndjson
  FIXTURE hostile_large)

lbsim_accepts(NAME "10000 Instances" INPUT ${LARGE}/instances_10000.ndjson FIXTURE hostile_large)
lbsim_refuses(NAME "10001st Instance by up" INPUT ${LARGE}/instances_10001.ndjson
  FIXTURE hostile_large MESSAGE
  ":3: field \"instance\": expected at most 10000 distinct Instance ids in a trace (the limit), got a new one, \"one-too-many\"")
lbsim_refuses(NAME "10001 Instances in the header" INPUT ${LARGE}/instances_10001_header.json
  FIXTURE hostile_large MESSAGE_START
  ": header: field \"instances\": expected at most 10000 Instances (the limit), got [")

lbsim_refuses(NAME "instance id of 4097 bytes" INPUT ${BAD}/instance_id_too_long.ndjson
  MESSAGE_START
  ":1: header: instances[0]: field \"id\": expected an Instance id of at most 4096 bytes (the limit), got \"iii")
lbsim_refuses(NAME "request id of 4097 bytes" INPUT ${BAD}/arrival_request_too_long.json
  MESSAGE_START
  ": events[0]: field \"request\": expected a request id of at most 4096 bytes (the limit), got \"rrr")

set(IN_FLIGHT
  ":1000002: field \"duration\": more than the limit of 1000000 requests in flight at once (routed, not yet completed) in strategy run rr")
lbsim_refuses(NAME "1000001 requests in flight" INPUT ${LARGE}/in_flight_1000001.ndjson
  FIXTURE hostile_large MESSAGE "${IN_FLIGHT}")
# With the service model most of them wait for a slot: they count too.
lbsim_refuses(NAME "1000001 requests in flight, waiting for a slot"
  INPUT ${LARGE}/in_flight_1000001.ndjson ARGS --slots 1
  FIXTURE hostile_large MESSAGE "${IN_FLIGHT}")

# 65 strategy runs (rr,ll and 63 more): refused before the trace is read.
set(many_runs rr)
foreach(i RANGE 2 63)
  string(APPEND many_runs ",rr")
endforeach()
set(dir ${HOSTILE_OUT}/65_strategy_runs)
lbsim_cli_test(NAME "hostile: 65 strategy runs"
  ARGS -s rr,ll -s ${many_runs} --output ${dir}/report.json ${EXAMPLES}/ties.json
  EXIT 2 STDERR_LINES 2 EMPTY_DIRS ${dir}
  STDERR_MATCH "^lbsim: error: 65 strategy runs requested. one replay takes at most 64 \\(the limit\\)\nlbsim: no output written \\(--output ${dir}/report.json\\)\n$")

# Every corpus file is pinned by a test above: a file added without one
# stops the configuration.
get_property(pinned GLOBAL PROPERTY lbsim_pinned_inputs)
file(GLOB corpus RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${BAD}/* ${PROJECT_SOURCE_DIR}/${ODD}/*)
foreach(file IN LISTS corpus)
  if(NOT file IN_LIST pinned)
    message(FATAL_ERROR "${file}: a corpus input without a test in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
endforeach()
