# Installing lbsim elsewhere (docs/install.md): the Debian package CPack
# builds, the shell completions it installs, and the man page.

add_test(NAME "cli: shell completions complete in bash, zsh and fish; the man page names every option"
  COMMAND Python3::Interpreter ${CLI_DIR}/completions_test.py $<TARGET_FILE:lbsim>
          ${PROJECT_SOURCE_DIR}/docs/lbsim.1)
set_tests_properties("cli: shell completions complete in bash, zsh and fish; the man page names every option"
  PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME "cli: the Debian package holds lbsim, its man page and completions, and runs"
  COMMAND sh ${CLI_DIR}/package_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${OUT}/package)
set_tests_properties("cli: the Debian package holds lbsim, its man page and completions, and runs"
  PROPERTIES SKIP_RETURN_CODE 77)
