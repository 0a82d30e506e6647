# Runs one lbsim command and checks what it did. Invoked by ctest as
#   cmake -DLBSIM=... -DARGS=a;b;c -DWORKDIR=... [checks] -P run_cli_test.cmake
# Checks (all optional except EXIT):
#   EXIT            expected exit status
#   STDOUT_GOLDEN   file whose bytes stdout must equal exactly
#   STDOUT_MATCH    regex stdout must match
#   STDERR_GOLDEN   file whose bytes stderr must equal exactly
#   STDERR_MATCH    regex stderr must match
#   STDERR_LINES    exact number of lines on stderr
#   STDIN_FILE      file fed to standard input
#   ABSENT          ;-list of paths that must not exist afterwards
#   FILE_GOLDEN     ;-list of PATH=GOLDEN pairs: file PATH must equal GOLDEN
#   CLEAN           ;-list of paths removed before the run
#   EMPTY_DIRS      ;-list of directories emptied before the run that must
#                   still be empty afterwards (no output, no temporary file)
# With LBSIM_UPDATE_GOLDEN=1 in the environment, a STDOUT_GOLDEN or
# FILE_GOLDEN that differs is rewritten with what lbsim wrote (and the test
# still fails): the way to refresh goldens after a deliberate change of
# output, to be read line by line in `git diff` before committing.
cmake_minimum_required(VERSION 3.25)

foreach(path IN LISTS CLEAN ABSENT)
  file(REMOVE "${path}")
endforeach()
foreach(pair IN LISTS FILE_GOLDEN)
  string(REGEX REPLACE "=.*" "" path "${pair}")
  file(REMOVE "${path}")
endforeach()
foreach(dir IN LISTS EMPTY_DIRS)
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
endforeach()

set(input_args)
if(DEFINED STDIN_FILE)
  set(input_args INPUT_FILE "${STDIN_FILE}")
endif()
execute_process(
  COMMAND "${LBSIM}" ${ARGS}
  WORKING_DIRECTORY "${WORKDIR}"
  ${input_args}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)

set(failures "")
if(NOT "${status}" STREQUAL "${EXIT}")
  string(APPEND failures "exit status ${status}, expected ${EXIT}\n")
endif()
if(DEFINED STDOUT_GOLDEN)
  file(READ "${STDOUT_GOLDEN}" want)
  if(NOT out STREQUAL want)
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/actual-stdout.txt" "${out}")
    string(APPEND failures "stdout differs from ${STDOUT_GOLDEN}\n")
    if("$ENV{LBSIM_UPDATE_GOLDEN}" STREQUAL "1")
      file(WRITE "${STDOUT_GOLDEN}" "${out}")
    endif()
  endif()
endif()
if(DEFINED STDOUT_MATCH AND NOT out MATCHES "${STDOUT_MATCH}")
  string(APPEND failures "stdout does not match /${STDOUT_MATCH}/\n")
endif()
if(DEFINED STDERR_GOLDEN)
  file(READ "${STDERR_GOLDEN}" want)
  if(NOT err STREQUAL want)
    string(APPEND failures "stderr differs from ${STDERR_GOLDEN}\n")
  endif()
endif()
if(DEFINED STDERR_MATCH AND NOT err MATCHES "${STDERR_MATCH}")
  string(APPEND failures "stderr does not match /${STDERR_MATCH}/\n")
endif()
if(DEFINED STDERR_LINES)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines n)
  if(NOT n EQUAL STDERR_LINES)
    string(APPEND failures "stderr has ${n} lines, expected ${STDERR_LINES}\n")
  endif()
endif()
foreach(path IN LISTS ABSENT)
  if(EXISTS "${path}")
    string(APPEND failures "${path} exists but must not\n")
  endif()
endforeach()
foreach(dir IN LISTS EMPTY_DIRS)
  file(GLOB left LIST_DIRECTORIES true "${dir}/*" "${dir}/.*")
  if(left)
    string(APPEND failures "${dir} is not empty: ${left}\n")
  endif()
endforeach()
foreach(pair IN LISTS FILE_GOLDEN)
  string(REGEX REPLACE "=.*" "" path "${pair}")
  string(REGEX REPLACE "^[^=]*=" "" golden "${pair}")
  if(NOT EXISTS "${path}")
    string(APPEND failures "${path} was not written\n")
  else()
    file(READ "${path}" got)
    file(READ "${golden}" want)
    if(NOT got STREQUAL want)
      string(APPEND failures "${path} differs from ${golden}\n")
      if("$ENV{LBSIM_UPDATE_GOLDEN}" STREQUAL "1")
        file(WRITE "${golden}" "${got}")
      endif()
    endif()
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "lbsim ${ARGS}\n${failures}--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
