#pragma once

namespace lbsim {

// How many CPUs this process may run on: its affinity mask (taskset, a
// container's cpuset), else what the machine has. Work on a thread of its
// own (reading ahead, prefetching input) pays only with two or more.
unsigned UsableCpus();

}  // namespace lbsim
