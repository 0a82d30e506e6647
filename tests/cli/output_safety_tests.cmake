# Safe outputs: a report or decision log appears only complete and only when
# the whole run succeeds; a run never overwrites its input, however the
# output is spelled; a failed run leaves nothing (and an existing file
# untouched) and names what it did not write, on a second stderr line after
# the one error line.
#
# The traces here are scratch copies (fixture "output_safety"); the fixture's
# cleanup fails when any of them, or an existing report, has changed.

set(SAFE ${OUT}/safety)
foreach(mode setup check)
  set(safety_${mode} ${CMAKE_COMMAND} -DDIR=${SAFE} -DSOURCE=${PROJECT_SOURCE_DIR} -DMODE=${mode}
      -P ${CLI_DIR}/output_safety_files.cmake)
endforeach()
add_test(NAME "cli: output safety: set up" COMMAND ${safety_setup})
add_test(NAME "cli: output safety: traces and existing files untouched" COMMAND ${safety_check})
set_tests_properties("cli: output safety: set up" PROPERTIES FIXTURES_SETUP output_safety)
set_tests_properties("cli: output safety: traces and existing files untouched"
  PROPERTIES FIXTURES_CLEANUP output_safety)

# lbsim_output_test(NAME <name> ARGS <arg>... EXIT <status> ...): an
# lbsim_cli_test that needs the fixture.
function(lbsim_output_test)
  cmake_parse_arguments(PARSE_ARGV 0 O "" "NAME" "")
  lbsim_cli_test(NAME "output safety: ${O_NAME}" ${O_UNPARSED_ARGUMENTS})
  set_tests_properties("cli: output safety: ${O_NAME}" PROPERTIES FIXTURES_REQUIRED output_safety)
endfunction()

# lbsim_refuses_output(NAME <name> FLAG <--output|--decisions> PATH <output> [TRACE <trace>])
# The output names the trace: refused before anything is read or written.
function(lbsim_refuses_output)
  cmake_parse_arguments(PARSE_ARGV 0 R "" "NAME;FLAG;PATH;TRACE;STDIN_FILE;NOTE" "")
  if(NOT DEFINED R_TRACE)
    set(R_TRACE ${SAFE}/trace.json)
  endif()
  set(stdin)
  if(DEFINED R_STDIN_FILE)
    set(stdin STDIN_FILE ${R_STDIN_FILE})
  endif()
  lbsim_regex_literal(line "${R_FLAG} ${R_PATH}: refusing to overwrite the input trace${R_NOTE}")
  lbsim_regex_literal(named "${R_FLAG} ${R_PATH}")
  lbsim_output_test(NAME "${R_NAME}" ARGS ${R_FLAG} ${R_PATH} ${R_TRACE} EXIT 2 STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: ${line}\nlbsim: no output written \\(${named}\\)\n$" ${stdin})
endfunction()

lbsim_refuses_output(NAME "--output is the trace" FLAG --output PATH ${SAFE}/trace.json)
lbsim_refuses_output(NAME "--decisions is the trace" FLAG --decisions PATH ${SAFE}/trace.json)
lbsim_refuses_output(NAME "--output is the trace, spelled with .."
  FLAG --output PATH ${SAFE}/../safety/./trace.json)
lbsim_refuses_output(NAME "--output is a symbolic link to the trace"
  FLAG --output PATH ${SAFE}/link.json)
lbsim_refuses_output(NAME "--decisions is a hard link of the trace"
  FLAG --decisions PATH ${SAFE}/hard.json)
lbsim_refuses_output(NAME "--output is the file standard input reads"
  FLAG --output PATH ${SAFE}/trace.ndjson TRACE - STDIN_FILE ${SAFE}/trace.ndjson
  NOTE " (standard input reads it)")

set(dir ${SAFE}/same)
lbsim_output_test(NAME "--output and --decisions spelled differently"
  ARGS --decisions ${dir}/x.jsonl --output ${dir}/./x.jsonl ${SAFE}/trace.json
  EXIT 2 STDERR_LINES 2 EMPTY_DIRS ${dir}
  STDERR_MATCH "^lbsim: error: --decisions and --output name the same file\nlbsim: no output written")

# Two outputs are one file also through a dangling symbolic link: one would
# be renamed over the other.
lbsim_output_test(NAME "--decisions is a dangling link to where --output goes"
  ARGS --output ${SAFE}/dangling-target.json --decisions ${SAFE}/dangling.jsonl ${SAFE}/trace.json
  EXIT 2 STDERR_LINES 2 ABSENT ${SAFE}/dangling-target.json
  STDERR_MATCH "^lbsim: error: --decisions and --output name the same file\nlbsim: no output written")
# A scenario's trace is an input of lbsim check too.
lbsim_output_test(NAME "check --junit is the trace a scenario names"
  ARGS check ${SAFE}/scenario.json --junit ${SAFE}/trace.json EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --junit ${SAFE}/trace.json: refusing to overwrite the input trace of ${SAFE}/scenario.json\nlbsim: no output written \\(--junit ${SAFE}/trace.json\\)\n$")
lbsim_output_test(NAME "check --junit through a link to a scenario's trace"
  ARGS check ${SAFE}/scenario.json --junit ${SAFE}/link.json EXIT 2 STDERR_LINES 2
  STDERR_MATCH "refusing to overwrite the input trace of ${SAFE}/scenario.json\n")

# An engine configuration is an input like the trace, for every output and
# every command that reads one.
function(lbsim_refuses_engine_output name)
  cmake_parse_arguments(PARSE_ARGV 1 E "" "MESSAGE" "ARGS")
  lbsim_output_test(NAME "${name}" ARGS ${E_ARGS} EXIT 2 STDERR_LINES 2
    STDERR_MATCH "^lbsim: error: ${E_MESSAGE}\nlbsim: no output written")
endfunction()
set(engine --engine ${SAFE}/engine.json)
lbsim_refuses_engine_output("--output is the engine configuration"
  ARGS ${engine} --output ${SAFE}/engine.json ${SAFE}/tokens.ndjson
  MESSAGE "--output ${SAFE}/engine.json: refusing to overwrite the input engine configuration")
lbsim_refuses_engine_output("--engine-log through a link to the engine configuration"
  ARGS ${engine} --engine-log ${SAFE}/engine-link.json --output ${SAFE}/engine-run.txt
       ${SAFE}/tokens.ndjson
  MESSAGE "--engine-log ${SAFE}/engine-link.json: refusing to overwrite the input engine configuration")
lbsim_refuses_engine_output("--decisions is the engine configuration, spelled with .."
  ARGS ${engine} --decisions ${SAFE}/../safety/engine.json --output ${SAFE}/engine-run.txt
       ${SAFE}/tokens.ndjson
  MESSAGE "--decisions ${SAFE}/../safety/engine.json: refusing to overwrite the input engine configuration")
lbsim_refuses_engine_output("--request-log is the engine configuration"
  ARGS ${engine} --proxy-queue --request-log ${SAFE}/engine.json --output ${SAFE}/engine-run.txt
       ${SAFE}/tokens.ndjson
  MESSAGE "--request-log ${SAFE}/engine.json: refusing to overwrite the input engine configuration")
lbsim_refuses_engine_output("sweep --output is the engine configuration"
  ARGS sweep ${engine} --vary sim.signal_interval=0,1 --output ${SAFE}/engine.json
       ${SAFE}/tokens.ndjson
  MESSAGE "--output ${SAFE}/engine.json: refusing to overwrite the input engine configuration")
lbsim_refuses_engine_output("check --junit is a scenario's engine configuration"
  ARGS check ${SAFE}/engine-scenario.json --junit ${SAFE}/engine.json
  MESSAGE "--junit ${SAFE}/engine.json: refusing to overwrite the input engine configuration of ${SAFE}/engine-scenario.json")

# A symbolic link to itself is refused, and stays (the fixture checks it).
lbsim_output_test(NAME "--output is a symbolic link to itself"
  ARGS --output ${SAFE}/loop ${SAFE}/trace.json EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: ${SAFE}/loop: cannot write output: Too many levels of symbolic links\nlbsim: no output written \\(--output ${SAFE}/loop\\)\n$")

set(dir ${SAFE}/is-a-directory)
lbsim_output_test(NAME "--output is a directory"
  ARGS --output ${dir} ${SAFE}/trace.json EXIT 2 STDERR_LINES 2 EMPTY_DIRS ${dir}
  STDERR_MATCH "^lbsim: error: ${dir}: cannot write output: is a directory\n")
set(dir ${SAFE}/missing-directory)
lbsim_output_test(NAME "--decisions in a directory that does not exist"
  ARGS --decisions ${dir}/no/such/dir/d.jsonl ${SAFE}/trace.json EXIT 2 STDERR_LINES 2
  EMPTY_DIRS ${dir}
  STDERR_MATCH "^lbsim: error: ${dir}/no/such/dir/d.jsonl: cannot write output: No such file or directory\n")

# A failed run leaves an existing file as it was (the fixture checks it).
lbsim_output_test(NAME "a failed run keeps the existing report"
  ARGS --output ${SAFE}/existing-report.txt tests/corpus/bad/t_out_of_order.json
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "\nlbsim: no output written \\(--output ${SAFE}/existing-report.txt\\)\n$")

# A symbolic link is followed: the file it names gets the report, the link stays.
lbsim_output_test(NAME "--output through a symbolic link"
  ARGS -s rr,ll --format csv --output ${SAFE}/report-link.csv ${SAFE}/trace.json
  EXIT 0 STDERR_LINES 0 FILE_GOLDEN ${SAFE}/report-target.csv=${GOLDEN}/ties.csv)

# Names under /dev are written to, not replaced: /dev/stdout is standard output.
lbsim_output_test(NAME "--decisions /dev/stdout"
  ARGS -s rr,ll --decisions /dev/stdout --output ${SAFE}/dev-stdout-report.txt ${SAFE}/trace.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/ties.decisions.jsonl
  CLEAN ${SAFE}/dev-stdout-report.txt)

# "-" is standard output, held back until the run succeeds, and only one
# output may go there.
set(dir ${SAFE}/dash)
lbsim_output_test(NAME "--decisions - with the report in a file"
  ARGS -s rr,ll --format csv --decisions - --output ${SAFE}/dash-report.csv ${SAFE}/trace.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/ties.decisions.jsonl
  FILE_GOLDEN ${SAFE}/dash-report.csv=${GOLDEN}/ties.csv CLEAN ${SAFE}/dash-report.csv)
lbsim_output_test(NAME "--decisions - on a failed run writes nothing to standard output"
  ARGS -s rr,ll --decisions - --output ${dir}/failed/report.txt tests/corpus/bad/t_out_of_order.json
  EXIT 2 STDERR_LINES 2 STDOUT_MATCH "^$" EMPTY_DIRS ${dir}/failed
  STDERR_MATCH "\nlbsim: no output written \\(--output ${dir}/failed/report.txt, --decisions -\\)\n$")
lbsim_output_test(NAME "--decisions - with the report on standard output"
  ARGS --decisions - ${SAFE}/trace.json EXIT 2 STDERR_LINES 2 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: --decisions -: the report already goes to standard output; give --output FILE\nlbsim: no output written \\(--decisions -\\)\n$")
lbsim_output_test(NAME "--window-csv - with the report on standard output"
  ARGS --window 1 --window-csv - --output - ${SAFE}/trace.json EXIT 2 STDERR_LINES 2
  STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: --window-csv -: the report already goes to standard output; give --output FILE\n")
lbsim_output_test(NAME "--decisions - and --window-csv - together"
  ARGS --window 1 --window-csv - --decisions - --output ${dir}/both/r.txt ${SAFE}/trace.json
  EXIT 2 STDERR_LINES 2 STDOUT_MATCH "^$" EMPTY_DIRS ${dir}/both
  STDERR_MATCH "^lbsim: error: --decisions - and --window-csv -: only one of them can go to standard output\n")
lbsim_cli_test(NAME "whatif window csv on standard output"
  ARGS -s rr --slots 1 --window 2 --format csv --output ${OUT}/whatif_k1_dash.csv
       --window-csv - tests/cli/whatif/two_instances_k1.json
  EXIT 0 STDERR_LINES 0 STDOUT_GOLDEN ${GOLDEN}/whatif_k1.windows.csv
  FILE_GOLDEN ${OUT}/whatif_k1_dash.csv=${GOLDEN}/whatif_k1.csv)

add_test(NAME "cli: output safety: a device is written to, not replaced"
  COMMAND ${CMAKE_COMMAND} -DLBSIM=$<TARGET_FILE:lbsim> -DTRACE=${EXAMPLES}/ties.json
          -DDIR=${OUT}/device-output -P ${CLI_DIR}/run_device_output_test.cmake)
set_tests_properties("cli: output safety: a device is written to, not replaced"
  PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")

# Write failures (a full disk): nothing is put in place, not even the output
# that was written in full, and standard output's failure is an error too.
function(lbsim_write_failure name how match)
  cmake_parse_arguments(PARSE_ARGV 3 W "" "DIR;INTO" "ARGS")
  add_test(NAME "cli: output safety: ${name}"
    COMMAND ${CMAKE_COMMAND} -DLBSIM=$<TARGET_FILE:lbsim> -DWORKDIR=${PROJECT_SOURCE_DIR}
            -DHOW=${how} -DDIR=${W_DIR} -DINTO=${W_INTO} "-DARGS=${W_ARGS}"
            "-DSTDERR_MATCH=${match}" -P ${CLI_DIR}/run_output_failure_test.cmake)
  if(DEFINED W_INTO)
    set_tests_properties("cli: output safety: ${name}" PROPERTIES FIXTURES_REQUIRED output_safety)
  endif()
endfunction()
set(dir ${OUT}/write-failure/decisions)
lbsim_write_failure("decision log too large for the disk" file_size_limit
  "^lbsim: error: ${dir}/decisions.jsonl: cannot write output: File too large\nlbsim: no output written \\(--output ${dir}/report.csv, --decisions ${dir}/decisions.jsonl\\)\n$"
  DIR ${dir}
  ARGS -s rr,ll --format csv --output ${dir}/report.csv --decisions ${dir}/decisions.jsonl
       traces/examples/ties.json)
set(dir ${OUT}/write-failure/report)
lbsim_write_failure("report too large for the disk" file_size_limit
  "^lbsim: error: ${dir}/report.json: cannot write output: File too large\nlbsim: no output written \\(--output ${dir}/report.json\\)\n$"
  DIR ${dir} ARGS -s rr,ll --format json --output ${dir}/report.json traces/examples/ties.json)
lbsim_write_failure("standard output is full" stdout_full
  "^lbsim: error: standard output: cannot write the report: No space left on device\n$"
  DIR ${OUT}/write-failure/stdout ARGS traces/examples/ties.json)
set(dir ${OUT}/write-failure/decisions-stdout)
lbsim_write_failure("standard output is full for --decisions -" stdout_full
  "^lbsim: error: standard output: cannot write output: No space left on device\nlbsim: no output written \\(--output ${dir}/report.txt, --decisions -\\)\n$"
  DIR ${dir} ARGS -s rr,ll --decisions - --output ${dir}/report.txt traces/examples/ties.json)

# Every command's standard output is checked: a full one is exit 2, with the
# reason, whatever the command prints.
set(FULL "No space left on device\n$")
set(dir ${OUT}/write-failure/stdout-commands)
foreach(case
    "check|^lbsim: error: standard output: cannot write the results: ${FULL}|check|tests/check/results/a_passing.json"
    "strategies|^lbsim: error: standard output: cannot write the listing: ${FULL}|strategies"
    "proxies|^lbsim: error: standard output: cannot write the listing: ${FULL}|proxies"
    "--list-strategies|^lbsim: error: standard output: cannot write the listing: ${FULL}|--list-strategies"
    "--help|^lbsim: error: standard output: cannot write output: ${FULL}|--help"
    "check --help|^lbsim: error: standard output: cannot write output: ${FULL}|check|--help"
    "--version|^lbsim: error: standard output: cannot write output: ${FULL}|--version"
    "diff|^lbsim: error: standard output: cannot write the comparison: ${FULL}|diff|tests/diff/queue_hints.ll.json|tests/diff/queue_hints.ll_qps0.json"
    "import|^lbsim: error: standard output: cannot write output: ${FULL}|import|--from|mooncake|--instances|2|traces/import_samples/mooncake_sample.jsonl"
    "gen|^lbsim: error: standard output: cannot write output: ${FULL}|gen|--arrivals|3"
    "sweep|^lbsim: error: standard output: cannot write output: ${FULL}|sweep|traces/examples/ties.json"
    "merge|^lbsim: error: standard output: cannot write output: ${FULL}|merge|tests/cli/golden/sweep.csv")
  string(REPLACE "|" ";" parts "${case}")
  list(POP_FRONT parts name match)
  lbsim_write_failure("standard output is full for ${name}" stdout_full "${match}"
    DIR ${dir} ARGS ${parts})
endforeach()

# No command writes its standard output into one of its inputs
# (`lbsim ... >> INPUT`): refused before anything is read, the input as it was.
set(dir ${OUT}/write-failure/stdout-into-input)
foreach(case
    "replay|trace|${SAFE}/trace.json|${SAFE}/trace.json"
    "gen|spec|${SAFE}/spec.json|gen|${SAFE}/spec.json"
    "check|trace of ${SAFE}/scenario.json|${SAFE}/trace.json|check|${SAFE}/scenario.json"
    "diff|report|${SAFE}/report.json|diff|${SAFE}/report.json|tests/diff/queue_hints.ll_qps0.json"
    "sweep|trace|${SAFE}/trace.json|sweep|${SAFE}/trace.json"
    "merge|slice|${SAFE}/slice.csv|merge|${SAFE}/slice.csv")
  string(REPLACE "|" ";" parts "${case}")
  list(POP_FRONT parts name kind into)
  lbsim_regex_literal(line "standard output is ${into}, the input ${kind}: refusing to write over it")
  set(match "^lbsim: error: ${line}\n$")
  lbsim_write_failure("standard output into the input of ${name}" stdout_into "${match}"
    DIR ${dir} INTO ${into} ARGS ${parts})
endforeach()
lbsim_write_failure("standard output into the file standard input reads" stdio_into
  "^lbsim: error: standard output is the file standard input reads: refusing to write over it\n$"
  DIR ${dir} INTO ${SAFE}/trace.ndjson ARGS -)
