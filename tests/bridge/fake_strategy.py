#!/usr/bin/env python3
"""A misbehaving external strategy for lbsim's exec tests.

Usage: fake_strategy.py MODE [PIDFILE]

Answers the first request well (the first candidate, reason "first") and
misbehaves from the second on, as MODE says: not_candidate, not_json,
not_object, bad_reason, wrong_seq, two_lines, crash (exit 3), close (closes
its output, keeps running), hang (never replies; also starts a grandchild
that sleeps). With PIDFILE it writes its own pid, and the grandchild's,
there, one per line, so that a test can check that none is left running.
"""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
pids = [os.getpid()]
if mode == "hang":
    pids.append(subprocess.Popen(["sleep", "300"]).pid)
if len(sys.argv) > 2:
    with open(sys.argv[2], "w") as f:
        f.write("".join("%d\n" % p for p in pids))

out = sys.stdout.buffer
for n, line in enumerate(sys.stdin.buffer, 1):
    request = json.loads(line)
    first = request["candidates"][0]["id"]
    reply = {"instance": first, "reason": "first"}
    if n >= 2:
        if mode == "not_candidate":
            reply["instance"] = "ghost"
        elif mode == "not_json":
            out.write(b"{instance: oops\n")
            out.flush()
            continue
        elif mode == "not_object":
            reply = [first]
        elif mode == "bad_reason":
            reply["reason"] = "Not A Word"
        elif mode == "wrong_seq":
            reply["seq"] = request["seq"] + 1
        elif mode == "two_lines":  # both lines in one write: they arrive together
            out.write((json.dumps(reply) + "\n").encode() * 2)
            out.flush()
            continue
        elif mode == "crash":
            sys.exit(3)
        elif mode == "close":
            out.close()
            time.sleep(300)
        elif mode == "hang":
            time.sleep(300)
    out.write((json.dumps(reply) + "\n").encode())
    out.flush()
