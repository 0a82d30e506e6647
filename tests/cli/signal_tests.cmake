# Interrupted runs (base/signal_cleanup.h): SIGINT, SIGTERM or SIGHUP mid-run
# removes every unfinished output and ends every exec program with its
# children, then lbsim exits with 128 + the signal number after one line on
# stderr; a reader that goes away (SIGPIPE, `--decisions - | head -1`) ends
# the run silently, also without leftovers. Each case makes lbsim block
# mid-run (on a pipe, a FIFO or an exec program) before the signal; see
# run_signal_test.py.
foreach(case replay-SIGINT replay-SIGTERM replay-SIGHUP gen import sweep check merge exec sigpipe)
  add_test(NAME "cli: signals: ${case}"
    COMMAND Python3::Interpreter ${CLI_DIR}/run_signal_test.py $<TARGET_FILE:lbsim>
            ${OUT}/signals ${case})
  set_tests_properties("cli: signals: ${case}" PROPERTIES TIMEOUT 120)
endforeach()
