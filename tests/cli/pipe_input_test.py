#!/usr/bin/env python3
"""Traces from pipes and FIFOs replay exactly as from files.

Each case feeds a shipped trace (plain, gzip or zstd bytes) to lbsim through
standard input or a FIFO (what `lbsim <(cat t.ndjson)` hands it), without a
name that tells the encoding, and compares the decision log with the one of
the file itself. A temporary file lbsim makes for a document must not stay
behind in TMPDIR.

Usage: pipe_input_test.py LBSIM SOURCE_DIR WORK_DIR
"""

import os
import shutil
import subprocess
import sys
import threading


def run(lbsim, args, stdin_bytes=None, env=None):
    return subprocess.run([lbsim] + args, input=stdin_bytes, capture_output=True, env=env)


def decisions(lbsim, trace_arg, work, stdin_bytes=None, env=None, tag="x"):
    log = os.path.join(work, "decisions-%s.jsonl" % tag)
    if os.path.exists(log):
        os.remove(log)
    r = run(lbsim, ["-s", "rr,ll", "--decisions", log, "-o", os.path.join(work, "report.txt"),
                    trace_arg], stdin_bytes, env)
    if r.returncode != 0:
        raise AssertionError("%s: exit %d: %s" % (tag, r.returncode, r.stderr.decode()))
    with open(log, "rb") as f:
        return f.read()


def through_fifo(lbsim, data, work, env, tag):
    fifo = os.path.join(work, "fifo-" + tag)
    os.mkfifo(fifo)
    try:
        def feed():
            with open(fifo, "wb") as f:
                f.write(data)
        writer = threading.Thread(target=feed)
        writer.start()
        out = decisions(lbsim, fifo, work, env=env, tag=tag)
        writer.join()
        return out
    finally:
        os.remove(fifo)


def main(argv):
    lbsim, source, work = argv[1], argv[2], argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    tmpdir = os.path.join(work, "tmp")
    os.makedirs(tmpdir)
    env = dict(os.environ, TMPDIR=tmpdir)
    examples = os.path.join(source, "traces", "examples")
    compressed = os.path.join(source, "tests", "corpus", "compressed")
    cases = [
        ("stale_snapshot.ndjson", os.path.join(examples, "stale_snapshot.ndjson")),
        ("ties.json", os.path.join(examples, "ties.json")),
    ]
    bodies = {
        ("stale_snapshot.ndjson", "plain"): os.path.join(examples, "stale_snapshot.ndjson"),
        ("stale_snapshot.ndjson", "gzip"): os.path.join(compressed, "stale_snapshot.ndjson.gz"),
        ("stale_snapshot.ndjson", "zstd"): os.path.join(compressed, "stale_snapshot.ndjson.zst"),
        ("ties.json", "plain"): os.path.join(examples, "ties.json"),
        ("ties.json", "gzip"): os.path.join(compressed, "ties_document"),
    }
    checked = 0
    for name, path in cases:
        want = decisions(lbsim, path, work, tag="file")
        for (trace, kind), body in bodies.items():
            if trace != name:
                continue
            with open(body, "rb") as f:
                data = f.read()
            tag = "%s-%s" % (name, kind)
            got_stdin = decisions(lbsim, "-", work, stdin_bytes=data, env=env, tag=tag + "-stdin")
            got_fifo = through_fifo(lbsim, data, work, env, tag + "-fifo")
            for how, got in (("standard input", got_stdin), ("a FIFO", got_fifo)):
                if got != want:
                    print("%s (%s) through %s: the decision log differs from the file's"
                          % (name, kind, how))
                    return 1
                checked += 1
            left = os.listdir(tmpdir)
            if left:
                print("%s (%s): temporary files left in TMPDIR: %s" % (name, kind, left))
                return 1
    print("OK: %d pipe and FIFO replays equal the files'" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
