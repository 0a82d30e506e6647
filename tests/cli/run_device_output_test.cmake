# An output path naming a device is written to, never replaced: as root,
# renaming a report over /dev/null would turn it into a regular file.
# Checked on a device node made for the test (root only: mknod), a copy of
# /dev/null, so a regression cannot harm the machine. Invoked by ctest as
#   cmake -DLBSIM=... -DTRACE=<a valid trace> -DDIR=<scratch dir> -P run_device_output_test.cmake
# Without root the test says "SKIPPED:" and ctest reports it skipped.
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(device "${DIR}/null-device")
set(device2 "${DIR}/null-device-2")
execute_process(COMMAND mknod "${device}" c 1 3 RESULT_VARIABLE made ERROR_QUIET)
execute_process(COMMAND mknod "${device2}" c 1 3 RESULT_VARIABLE made2 ERROR_QUIET)
if(NOT made EQUAL 0 OR NOT made2 EQUAL 0)
  message("SKIPPED: cannot make a device node here (mknod needs root)")
  return()
endif()
execute_process(
  COMMAND "${LBSIM}" -s rr,ll --output "${device}" --decisions "${device2}" "${TRACE}"
  RESULT_VARIABLE status ERROR_VARIABLE err)
execute_process(COMMAND stat -c %F "${device}" "${device2}" OUTPUT_VARIABLE kind
                OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REPLACE "\n" ", " kind "${kind}")
file(GLOB entries LIST_DIRECTORIES true "${DIR}/*" "${DIR}/.*")
list(LENGTH entries count)
set(want "character special file, character special file")
if(NOT status EQUAL 0 OR NOT kind STREQUAL want OR NOT count EQUAL 2)
  message(FATAL_ERROR "exit ${status} (expected 0); the outputs are: ${kind} (expected: ${want}); "
                      "${count} entries in ${DIR} (expected 2)\n${err}")
endif()
