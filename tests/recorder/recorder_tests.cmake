# The Proxy recorder (recorder/lbsim_recorder): Python unittest classes,
# one ctest test each. Included from tests/CMakeLists.txt (needs Python3::Interpreter).

add_test(NAME "recorder: every event kind is recorded with the documented fields"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py EventFieldsTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: decisions, results and exceptions are the same with and without it"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py TransparencyTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: only the outermost select is a decision"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py NestedSelectTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: an empty pool in select_instance is a no_instances event"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py NoInstancesTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: a full disk drops events, leaves a lost event and hurts nothing"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py FullDiskTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: a full queue drops events and leaves a lost event"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py QueueOverflowTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: max_bytes ends the recording with lost and stop"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py MaxBytesTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: a failure inside the recorder is swallowed"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py InternalErrorTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: nothing of the request object is written"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py PrivacyTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: import hook, patching and uninstall"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py PatchingTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: a forked child records to its own {pid} file"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py ForkTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: python -m lbsim_recorder and the two-line start-up"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py RunnerTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: the Proxy commit comes from its .git without running git"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/recorder/recorder_test.py CommitDetectionTest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "recorder: the cost benchmark runs"
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/recorder/bench_recorder.py --requests 400 --runs 1
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
