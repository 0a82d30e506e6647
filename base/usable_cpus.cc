#include "base/usable_cpus.h"

#include <sched.h>

#include <thread>

namespace lbsim {

unsigned UsableCpus() {
  cpu_set_t cpus;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0)
    return static_cast<unsigned>(CPU_COUNT(&cpus));
  return std::thread::hardware_concurrency();
}

}  // namespace lbsim
