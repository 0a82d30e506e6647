#pragma once

namespace lbsim {

// Parses the command line, runs the command and returns the exit status:
// 0 success, 1 a checked expectation failed, 2 usage or input error
// (one line on stderr), 3 internal error (a bug).
int RunCli(int argc, char** argv);

}  // namespace lbsim
