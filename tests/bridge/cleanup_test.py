#!/usr/bin/env python3
"""A hung or crashed exec strategy program stops the run with exit status 2,
and neither the program nor anything it started is left running.

Usage: cleanup_test.py LBSIM   (run from the source root)
"""

import os
import shlex
import subprocess
import sys
import tempfile
import time


def running(pid):
    """Alive and not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except FileNotFoundError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def main(argv):
    lbsim = argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for mode, want in [("hang", "no reply within 2 s"),
                           ("crash", "exited with status 3")]:
            pidfile = os.path.join(tmp, mode + ".pids")
            command = " ".join(shlex.quote(a) for a in
                               [sys.executable, "tests/bridge/fake_strategy.py", mode, pidfile])
            run = subprocess.run([lbsim, "-s", "exec:" + command, "--exec-timeout", "2",
                                  "traces/examples/steady_pool.json"],
                                 capture_output=True, text=True, timeout=60)
            with open(pidfile) as f:
                pids = [int(p) for p in f.read().split()]
            # SIGKILL takes effect asynchronously: give the kernel a moment.
            deadline = time.monotonic() + 5
            while any(running(p) for p in pids) and time.monotonic() < deadline:
                time.sleep(0.01)
            left = [p for p in pids if running(p)]
            ok = run.returncode == 2 and want in run.stderr and not left and pids
            print("%s: exit %d, %s; processes %s, still running %s"
                  % (mode, run.returncode, run.stderr.strip(), pids, left))
            for p in left:
                os.kill(p, 9)
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
