# Runs lbsim where writing its output fails, and checks that it says so on
# one line, exits 2 and leaves nothing behind. Invoked by ctest as
#   cmake -DLBSIM=... -DARGS=a;b;c -DWORKDIR=... -DHOW=<how> -DDIR=<output dir>
#         -DSTDERR_MATCH=<regex> -P run_output_failure_test.cmake
# HOW is
#   file_size_limit  files may grow to at most 2 KiB (ulimit -f, SIGXFSZ
#                    ignored), so a longer write fails with EFBIG, as on a
#                    full disk
#   stdout_full      standard output is /dev/full
#   stdout_into      standard output appends to the file INTO (an input:
#                    lbsim must refuse it and leave it as it was)
#   stdio_into       the same, and standard input reads INTO
# DIR is made empty before the run and must be empty after it.
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
if(HOW STREQUAL "file_size_limit")
  set(script "trap '' XFSZ; ulimit -f 2 2>/dev/null || ulimit -f 4; exec \"$@\"")
elseif(HOW STREQUAL "stdout_full")
  set(script "exec \"$@\" > /dev/full")
elseif(HOW MATCHES "^std(out|io)_into$")
  set(script "exec \"$@\" >> \"${INTO}\"")
  if(HOW STREQUAL "stdio_into")
    string(APPEND script " < \"${INTO}\"")
  endif()
  file(SHA256 "${INTO}" into_before)
else()
  message(FATAL_ERROR "unknown HOW '${HOW}'")
endif()
execute_process(
  COMMAND bash -c "${script}" lbsim "${LBSIM}" ${ARGS}
  WORKING_DIRECTORY "${WORKDIR}"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)

set(failures "")
if(NOT status EQUAL 2)
  string(APPEND failures "exit status ${status}, expected 2\n")
endif()
if(NOT err MATCHES "${STDERR_MATCH}")
  string(APPEND failures "stderr does not match /${STDERR_MATCH}/\n")
endif()
if(DEFINED into_before)
  file(SHA256 "${INTO}" into_after)
  if(NOT into_after STREQUAL into_before)
    string(APPEND failures "${INTO} changed\n")
  endif()
endif()
file(GLOB left LIST_DIRECTORIES true "${DIR}/*" "${DIR}/.*")
if(left)
  string(APPEND failures "${DIR} is not empty: ${left}\n")
endif()
if(failures)
  message(FATAL_ERROR "lbsim ${ARGS} (${HOW})\n${failures}--- stderr ---\n${err}")
endif()
