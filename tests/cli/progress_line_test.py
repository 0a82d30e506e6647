#!/usr/bin/env python3
"""The replay's progress line: shown on a terminal once a replay has taken a
second, and not under TERM=dumb (whose terminal would show its "\\r" and
erase escape raw), nor with -q.

Usage: progress_line_test.py LBSIM

lbsim reads the trace from a pipe that stalls for 1.5 s early on, with
standard error on a pseudo-terminal.
"""

import os
import pty
import subprocess
import sys
import time

LBSIM = sys.argv[1]
HEADER = b'{"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}\n'
# After the stall, 2 MiB: the reader reports its progress every MiB.
BEFORE = b"".join(b'{"t": %d, "type": "arrival"}\n' % t for t in range(1000))
AFTER = b"".join(b'{"t": %d, "type": "arrival"}\n' % t for t in range(1000, 80000))


def stderr_of(term, *args):
    """What lbsim writes to its terminal standard error under TERM=term."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": term}
    run = subprocess.Popen([LBSIM, "-s", "ll", *args, "-"], stdin=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stderr=follower, env=env)
    os.close(follower)
    run.stdin.write(HEADER + BEFORE)
    run.stdin.flush()
    time.sleep(1.5)
    run.stdin.write(AFTER)
    run.stdin.close()
    out = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    if run.wait() != 0:
        sys.exit(f"lbsim exited {run.returncode} under TERM={term}: {out!r}")
    return out


failures = []
shown = stderr_of("xterm")
if b"MiB processed" not in shown or b"\x1b[K" not in shown:
    failures.append(f"TERM=xterm: expected a progress line, got {shown!r}")
for term, args in (("dumb", ()), ("xterm", ("-q",))):
    quiet = stderr_of(term, *args)
    if quiet:
        failures.append(f"TERM={term} {' '.join(args)}: expected nothing on standard error, "
                        f"got {quiet!r}")
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
