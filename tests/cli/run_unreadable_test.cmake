# A trace lbsim may not read (mode 000): exit 2, the system's reason on one
# line, and no output written. Invoked by ctest as
#   cmake -DLBSIM=... -DTRACE=<a valid trace> -DDIR=<scratch dir> -P run_unreadable_test.cmake
# Root reads any file whatever its mode, so as root lbsim runs as the user
# nobody (setpriv), from a copy in a fresh folder under /tmp: the checkout
# may lie where nobody cannot go (a home folder of mode 700). When the file
# is readable all the same, the test says "SKIPPED:" (ctest then reports it
# skipped) rather than pass untested.
cmake_minimum_required(VERSION 3.25)

set(launcher)
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL "0")
  find_program(SETPRIV setpriv)
  if(NOT SETPRIV)
    message("SKIPPED: running as root and setpriv is not installed")
    return()
  endif()
  set(launcher ${SETPRIV} --reuid=65534 --regid=65534 --clear-groups)
  execute_process(COMMAND mktemp -d /tmp/lbsim-unreadable.XXXXXX OUTPUT_VARIABLE DIR
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  file(COPY_FILE "${LBSIM}" "${DIR}/lbsim")
  set(LBSIM "${DIR}/lbsim")
else()
  file(REMOVE_RECURSE "${DIR}")
endif()
file(MAKE_DIRECTORY "${DIR}/out")
file(CHMOD "${DIR}" "${DIR}/out" PERMISSIONS
     OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_WRITE GROUP_EXECUTE
     WORLD_READ WORLD_WRITE WORLD_EXECUTE)
file(CHMOD "${LBSIM}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
     WORLD_READ WORLD_EXECUTE)
set(trace "${DIR}/unreadable.json")
file(COPY_FILE "${TRACE}" "${trace}")
execute_process(COMMAND chmod 000 "${trace}" COMMAND_ERROR_IS_FATAL ANY)

execute_process(COMMAND ${launcher} cat "${trace}" RESULT_VARIABLE readable
                OUTPUT_QUIET ERROR_QUIET)
if(readable EQUAL 0)
  message("SKIPPED: this user can read a file of mode 000")
  if(launcher)
    file(REMOVE_RECURSE "${DIR}")
  endif()
  return()
endif()

set(report "${DIR}/out/report.json")
execute_process(
  COMMAND ${launcher} "${LBSIM}" --output "${report}" "${trace}"
  RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_VARIABLE out)
set(want "lbsim: error: ${trace}: cannot read trace: Permission denied\nlbsim: no output written (--output ${report})\n")
file(GLOB left "${DIR}/out/*" "${DIR}/out/.*")
if(launcher)
  file(REMOVE_RECURSE "${DIR}")
endif()
if(NOT status EQUAL 2 OR NOT err STREQUAL want OR left)
  message(FATAL_ERROR "exit ${status}, expected 2\n--- stderr ---\n${err}--- expected ---\n${want}"
                      "--- left in the output directory ---\n${left}")
endif()
