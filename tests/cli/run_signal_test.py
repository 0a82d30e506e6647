#!/usr/bin/env python3
"""Interrupted runs: a signal mid-run removes every unfinished output and
ends every exec program, and lbsim exits with 128 + the signal number.

    run_signal_test.py LBSIM SCRATCH_DIR CASE

Each case starts lbsim where it blocks (reading a pipe or a FIFO that this
script holds open, or waiting for an exec program's reply) once its
temporary outputs exist, so that the signal lands mid-run every time. Then
it checks the exit status, stderr, that the output directory holds nothing
lbsim made, and (exec) that the program and its children are dead.
"""

import os
import shlex
import signal
import subprocess
import sys
import time

LBSIM, SCRATCH, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
OUT = os.path.join(SCRATCH, CASE, "out")  # where lbsim writes
IN = os.path.join(SCRATCH, CASE, "in")    # inputs made here
HEADER = b'{"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}]}\n'
failures = []


def fail(what):
    failures.append(what)


def fresh(path):
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        os.remove(os.path.join(path, name))


def wait_for(condition, what, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    fail("timed out waiting for " + what)
    return False


def temporaries():
    return [n for n in os.listdir(OUT) if ".tmp." in n]


def dead(pid):
    """Gone, or a zombie (killed; the init of a container may be slow to reap)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def start(args, **kwargs):
    """Starts lbsim with stderr to a file (a pipe would stay open as long as
    any exec program lives)."""
    stderr = open(os.path.join(IN, "stderr"), "w+b")
    process = subprocess.Popen([LBSIM] + args, stderr=stderr, **kwargs)
    process.stderr_file = stderr
    return process


def interrupt(process, sig, keep=()):
    """Sends `sig`, then checks status, stderr and the output directory."""
    process.send_signal(sig)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        fail(f"lbsim did not exit on {sig.name}")
        return
    process.stderr_file.seek(0)
    err = process.stderr_file.read()
    if process.returncode != 128 + sig:
        fail(f"exit status {process.returncode}, expected {128 + sig} for {sig.name}")
    want = b"" if sig == signal.SIGPIPE else \
        f"lbsim: interrupted by {sig.name}; unfinished outputs removed\n".encode()
    if err != want:
        fail(f"stderr {err!r}, expected {want!r}")
    left = sorted(set(os.listdir(OUT)) - set(keep))
    if left:
        fail(f"left in {OUT}: {left}")


def blocked_on_stdin(args, sig):
    """lbsim reading a pipe that stays open after one line: it blocks."""
    p = start(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    p.stdin.write(HEADER)
    p.stdin.flush()
    if wait_for(lambda: temporaries(), "lbsim's temporary outputs"):
        interrupt(p, sig)
    p.stdin.close()


def blocked_on_fifo(args, fifo, sig, expect_temporaries=True):
    """lbsim opening a FIFO nobody writes yet: it blocks in open()."""
    os.mkfifo(fifo)
    p = start(args, stdout=subprocess.DEVNULL)
    if expect_temporaries:
        wait_for(lambda: temporaries(), "lbsim's temporary outputs")
    else:
        time.sleep(0.3)
    interrupt(p, sig)


def main():
    fresh(OUT)
    fresh(IN)
    replay_outputs = ["-q", "--output", f"{OUT}/report.json", "--decisions", f"{OUT}/d.jsonl"]
    if CASE in ("replay-SIGINT", "replay-SIGTERM", "replay-SIGHUP"):
        blocked_on_stdin(replay_outputs + ["-s", "rr,ll", "-"],
                         signal.Signals[CASE.split("-")[1]])
    elif CASE == "import":
        blocked_on_stdin(["import", "--from", "mooncake", "--instances", "2", "-o",
                          f"{OUT}/t.ndjson", "-"], signal.SIGTERM)
    elif CASE == "gen":
        # An endless trace: lbsim writes until the signal comes.
        p = start(["gen", "--arrivals", "1000000000000", "-o", f"{OUT}/t.ndjson"])
        if wait_for(lambda: temporaries(), "lbsim's temporary output"):
            interrupt(p, signal.SIGTERM)
    elif CASE == "sweep":
        blocked_on_fifo(["sweep", "-o", f"{OUT}/s.csv", f"{IN}/fifo.ndjson"],
                        f"{IN}/fifo.ndjson", signal.SIGTERM)
    elif CASE == "check":
        scenario = f"{IN}/s.json"
        with open(scenario, "w") as f:
            f.write('{"lbsim_scenario": 1, "name": "n", "trace": "fifo.ndjson", '
                    '"expect": [{"path": "round_robin.decisions", "min": 0}]}')
        blocked_on_fifo(["check", "--junit", f"{OUT}/j.xml", scenario], f"{IN}/fifo.ndjson",
                        signal.SIGINT)
    elif CASE == "merge":
        blocked_on_fifo(["merge", "-o", f"{OUT}/m.csv", f"{IN}/fifo.csv"], f"{IN}/fifo.csv",
                        signal.SIGHUP, expect_temporaries=False)
    elif CASE == "exec":
        # The program and a child of its own wait forever; lbsim waits for a reply.
        pids = f"{IN}/pids"
        trace = f"{IN}/t.ndjson"
        with open(trace, "wb") as f:
            f.write(HEADER + b'{"t": 0, "type": "arrival"}\n')
        tmp, done = shlex.quote(pids + ".tmp"), shlex.quote(pids)  # the build folder may hold spaces
        command = f"exec:sleep 1000 & echo $! > {tmp}; echo $$ >> {tmp}; " \
                  f"mv {tmp} {done}; sleep 1000"
        p = start(["-q", "--output", f"{OUT}/r.txt", "-s", command, trace])
        if wait_for(lambda: os.path.exists(pids), "the exec program's pids"):
            with open(pids) as f:
                children = [int(x) for x in f.read().split()]
            interrupt(p, signal.SIGTERM)
            if not wait_for(lambda: all(dead(pid) for pid in children), "the exec program's end",
                            5):
                for pid in children:  # ours to clean up now
                    if not dead(pid):
                        os.kill(pid, signal.SIGKILL)
    elif CASE == "sigpipe":
        # `lbsim ... --decisions - | head -1`: the reader goes away early.
        trace = f"{IN}/t.ndjson"
        subprocess.run([LBSIM, "gen", "--arrivals", "20000", "-o", trace], check=True)
        p = start(["-q", "-s", "rr,ll", "--decisions", "-", "--output", f"{OUT}/report.txt",
                   trace], stdout=subprocess.PIPE)
        if not p.stdout.readline().startswith(b'{"strategy":"round_robin","seq":1,'):
            fail("the first decision did not come")
        p.stdout.close()
        interrupt(p, signal.SIGPIPE)  # already raised by lbsim's own write
    else:
        sys.exit(f"unknown case {CASE}")
    if failures:
        sys.exit(f"{CASE}:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
