# lbsim check: the shipped scenario library is the regression gate.

# Every acceptance criterion of the least_load request, and the hazards, hold.
lbsim_cli_test(NAME "check scenarios library"
  ARGS check scenarios/
  EXIT 0 STDOUT_MATCH "\nlbsim check: [0-9]+ scenarios, [0-9]+ expectations: [0-9]+ passed, 0 failed\n$")
