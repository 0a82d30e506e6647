# Fixture of the output-safety tests: a scratch copy of two example traces,
# names that lead to them (a symbolic and a hard link), an output reached
# through a symbolic link, and an existing report a failed run must keep.
#   cmake -DDIR=<dir> -DSOURCE=<source dir> -DMODE=setup|check -P output_safety_files.cmake
# Also copies of a gen spec, a report and a sweep, inputs of other commands,
# and an engine configuration with a trace and a scenario that use it.
# MODE=check (the fixture's cleanup) fails when one of them, a trace or the
# existing report changed.
cmake_minimum_required(VERSION 3.25)

set(previous "a report from an earlier run\n")
set(copies "trace.json=traces/examples/ties.json" "trace.ndjson=traces/examples/stale_snapshot.ndjson"
    "spec.json=tests/cli/whatif/gen_small.json" "report.json=tests/diff/queue_hints.ll.json"
    "slice.csv=tests/cli/golden/sweep.csv" "engine.json=tests/cli/engine/small_engine.json"
    "tokens.ndjson=tests/cli/engine/three_requests.ndjson")
if(MODE STREQUAL "setup")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
  foreach(pair IN LISTS copies)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 copy)
    list(GET pair 1 original)
    file(COPY_FILE "${SOURCE}/${original}" "${DIR}/${copy}")
  endforeach()
  file(CREATE_LINK trace.json "${DIR}/link.json" SYMBOLIC)
  file(CREATE_LINK "${DIR}/trace.json" "${DIR}/hard.json")
  file(CREATE_LINK report-target.csv "${DIR}/report-link.csv" SYMBOLIC)
  file(WRITE "${DIR}/existing-report.txt" "${previous}")
  # A link to the engine configuration, and a link to itself.
  file(CREATE_LINK engine.json "${DIR}/engine-link.json" SYMBOLIC)
  file(CREATE_LINK loop "${DIR}/loop" SYMBOLIC)
  # A link to where another output will be made.
  file(CREATE_LINK dangling-target.json "${DIR}/dangling.jsonl" SYMBOLIC)
  # A scenario of trace.json, for lbsim check.
  file(WRITE "${DIR}/scenario.json" [=[{"lbsim_scenario": 1, "name": "ties", "trace": "trace.json",
 "expect": [{"path": "round_robin.decisions", "eq": 11}]}
]=])
  # A scenario whose engine is engine.json.
  file(WRITE "${DIR}/engine-scenario.json" [=[{"lbsim_scenario": 1, "name": "engine", "trace": "tokens.ndjson",
 "options": {"engine": "engine.json"}, "expect": [{"path": "round_robin.decisions", "eq": 3}]}
]=])
elseif(MODE STREQUAL "check")
  set(failures "")
  foreach(pair IN LISTS copies)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 copy)
    list(GET pair 1 original)
    file(READ "${DIR}/${copy}" got)
    file(READ "${SOURCE}/${original}" want)
    if(NOT got STREQUAL want)
      string(APPEND failures "${DIR}/${copy} changed\n")
    endif()
  endforeach()
  file(READ "${DIR}/existing-report.txt" got)
  if(NOT got STREQUAL previous)
    string(APPEND failures "${DIR}/existing-report.txt changed\n")
  endif()
  if(NOT IS_SYMLINK "${DIR}/dangling.jsonl" OR EXISTS "${DIR}/dangling-target.json")
    string(APPEND failures "${DIR}/dangling.jsonl is no longer a dangling symbolic link\n")
  endif()
  foreach(link engine-link.json loop)
    if(NOT IS_SYMLINK "${DIR}/${link}")
      string(APPEND failures "${DIR}/${link} is no longer a symbolic link\n")
    endif()
  endforeach()
  if(NOT IS_SYMLINK "${DIR}/report-link.csv")
    string(APPEND failures "${DIR}/report-link.csv is no longer a symbolic link\n")
  endif()
  if(failures)
    message(FATAL_ERROR "${failures}")
  endif()
else()
  message(FATAL_ERROR "MODE must be setup or check")
endif()
