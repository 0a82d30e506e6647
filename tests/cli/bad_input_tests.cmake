# Bad input: exit status 2, one line on stderr naming the file, the line or
# events[i], the field and what was expected (then, when output files were
# named, a line saying none was written), nothing on stdout, and no output
# file (nor any temporary file) left behind.

set(BAD ${CLI_DIR}/bad)

# lbsim_bad_input(FILE MESSAGE): replays tests/cli/bad/FILE with both
# strategies, a report file and a decision log, and expects the error line
# "lbsim: error: tests/cli/bad/FILE" followed by MESSAGE (a regex), then the
# line naming the two files not written.
function(lbsim_bad_input file message)
  set(dir ${OUT}/bad-${file})
  lbsim_cli_test(NAME "bad input ${file}"
    ARGS -s rr,ll --output ${dir}/report.txt --decisions ${dir}/decisions.jsonl tests/cli/bad/${file}
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: tests/cli/bad/${file}${message}\nlbsim: no output written \\(--output ${dir}/report.txt, --decisions ${dir}/decisions.jsonl\\)\n$"
    ABSENT ${dir}/report.txt ${dir}/decisions.jsonl
    EMPTY_DIRS ${dir})
endfunction()

# Header.
lbsim_bad_input(missing_version.json
  ": header: field \"lbsim_trace\": expected the integer 1 \\(trace format version\\), but it is missing")
lbsim_bad_input(future_version.ndjson
  ":1: header: field \"lbsim_trace\": unsupported trace format version 2; this lbsim reads version 1")
lbsim_bad_input(duplicate_id.json
  ": header: instances\\[2\\]: field \"id\": expected a unique Instance id, got \"inst-a\" again")
lbsim_bad_input(bad_time_unit.ndjson
  ":1: header: field \"time_unit\": expected \"s\" or \"ms\", got \"minutes\"")
lbsim_bad_input(no_events.json
  ": header: field \"events\": expected an array of events, but it is missing")
lbsim_bad_input(events_in_lines_header.ndjson
  ":1: header: field \"events\": not allowed in a JSON Lines header \\(events follow it one per line\\)")

# Events.
lbsim_bad_input(missing_t.json
  ": events\\[0\\]: field \"t\": expected a finite number >= 0, but it is missing")
lbsim_bad_input(out_of_order.ndjson
  ":4: field \"t\": expected a time >= 2 \\(events must be in non-decreasing t\\), got 1.5")
lbsim_bad_input(unknown_type.json
  ": events\\[2\\]: field \"type\": expected one of up, down, remove, load, arrival, got \"restart\"")
lbsim_bad_input(unregistered.ndjson
  ":3: field \"instance\": expected a registered Instance, got \"inst-z\" \\(never registered\\)")
lbsim_bad_input(removed_then_down.json
  ": events\\[2\\]: field \"instance\": expected a registered Instance, got \"inst-b\" \\(it was removed\\)")
lbsim_bad_input(fractional_inflight.json
  ": events\\[1\\]: field \"inflight\": expected an integer >= 0 \\(at most 2\\^53\\) or null, got 2.5")
lbsim_bad_input(string_duration.ndjson
  ":2: field \"duration\": expected a finite number >= 0, got \"2\"")
lbsim_bad_input(bool_qps.ndjson
  ":2: field \"qps_1m\": expected a finite number >= 0 or null, got true")

# Syntax, emptiness, limits.
lbsim_bad_input(invalid_json.ndjson
  ":3: invalid JSON at column 28: syntax error while parsing object key - unexpected '}'; expected string literal")
lbsim_bad_input(empty.ndjson
  ": empty trace: expected a header line {\"lbsim_trace\": 1, \\.\\.\\.}")
# (A lone bracket would upset CMake's list handling: '.' stands for '['.)
lbsim_bad_input(empty.json
  ": empty trace: expected a JSON object {\"lbsim_trace\": 1, ..., \"events\": .....}")
lbsim_bad_input(too_deep.json
  ": events\\[1\\]: nesting deeper than the limit of 512 levels")

# An error on the last of 2002 lines, after 2000 decisions per strategy
# were already logged: still no partial decision log or report.
lbsim_bad_input(late_error.ndjson
  ":2002: field \"inflight\": expected an integer >= 0 \\(at most 2\\^53\\) or null, got -1")

# The report on standard output: nothing is printed before the error.
# JSON Lines in a file named .json (what gen -o t.json wrote before it
# wrote documents): the error says what it looks like and how to read it.
lbsim_bad_input(json_lines_named.json ":2:1: invalid JSON: syntax error while parsing value - unexpected '{'; expected end of input \\(this looks like JSON Lines, one event a line: name the file \\.ndjson or \\.jsonl, or pass --trace-format lines\\)")
lbsim_cli_test(NAME "bad input prints no report"
  ARGS -s rr,ll --format json tests/cli/bad/late_error.ndjson
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/cli/bad/late_error.ndjson:2002: field \"inflight\"")

# Standard input is named <stdin> in messages.
lbsim_cli_test(NAME "bad input on stdin"
  ARGS -s ll --output ${OUT}/bad-stdin/report.txt -
  STDIN_FILE ${BAD}/out_of_order.ndjson
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: <stdin>:4: field \"t\": expected a time >= 2"
  ABSENT ${OUT}/bad-stdin/report.txt
  EMPTY_DIRS ${OUT}/bad-stdin)

# A trace that does not exist or is a directory.
lbsim_cli_test(NAME "bad input missing file"
  ARGS --output ${OUT}/bad-missing/report.txt tests/cli/bad/no_such_trace.json
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: tests/cli/bad/no_such_trace.json: cannot read trace: No such file or directory\nlbsim: no output written \\(--output ${OUT}/bad-missing/report.txt\\)\n$"
  EMPTY_DIRS ${OUT}/bad-missing)
lbsim_cli_test(NAME "bad input directory"
  ARGS --trace-format lines tests/cli/bad
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/cli/bad: cannot read trace: is a directory\n$")
