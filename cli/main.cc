#include "cli/cli.h"

int main(int argc, char** argv) { return lbsim::RunCli(argc, argv); }
