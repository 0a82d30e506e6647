#!/usr/bin/env python3
"""Peak memory of lbsim on inputs small to write but large to hold:
    peak_memory_test.py LBSIM DIR CASE
writes CASE's input into DIR, runs lbsim on it, and fails when the run does
not end as expected or its peak resident memory passes the case's bound.
The bounds are a few times what the run needs, and well under what the
unbounded behaviour each case guards against took."""
import os
import resource
import shutil
import subprocess
import sys

MIB = 1 << 20


def blocks_trace(path, arrivals, ids):
    """JSON Lines: `arrivals` arrivals of `ids` prefix block ids each."""
    blocks = ",".join(str(i) for i in range(ids))
    with open(path, "w") as f:
        f.write('{"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}\n')
        for k in range(arrivals):
            f.write('{"t": %d, "type": "arrival", "duration": 1, "prefix_blocks": [%s]}\n'
                    % (k, blocks))


def far_apart_trace(path, instances, last):
    """`instances` Instances, two arrivals at 0 and `last`: --window 1 keeps
    (last + 1) x instances window figures."""
    ids = ",".join('{"id": "i%05d"}' % k for k in range(instances))
    with open(path, "w") as f:
        f.write('{"lbsim_trace": 1, "instances": [%s]}\n' % ids)
        f.write('{"t": 0, "type": "arrival", "duration": 1}\n')
        f.write('{"t": %d, "type": "arrival", "duration": 1}\n' % last)


def engine_trace(path, instances, last):
    """`instances` Instances, two small engine requests at 0 and `last`."""
    ids = ",".join('{"id": "i%05d"}' % k for k in range(instances))
    with open(path, "w") as f:
        f.write('{"lbsim_trace": 1, "instances": [%s]}\n' % ids)
        for t in (0, last):
            f.write('{"t": %d, "type": "arrival", "input_tokens": 100, "output_tokens": 10}\n' % t)


# name: (writes the input, lbsim's arguments after the input's path is
# known, expected exit status, bound in MiB)
CASES = {
    # 400 arrivals of 50,000 block ids (400 KB each as ids): the read-ahead
    # ring once kept every slot's largest vector, about 160 MB here.
    "read-ahead after large arrivals": (
        lambda d: blocks_trace(os.path.join(d, "blocks.ndjson"), 400, 50_000),
        lambda d: ["-s", "rr,ll", os.path.join(d, "blocks.ndjson")], 0, 80),
    # The window figure limit (1,000,000) reached exactly, in a JSON report:
    # it was 16,000,000, which took 11 GB.
    "window figures at the limit, JSON": (
        lambda d: far_apart_trace(os.path.join(d, "far.ndjson"), 16, 62_499),
        lambda d: ["-s", "rr", "--window", "1", "-f", "json", "-o", os.path.join(d, "r.json"),
                   os.path.join(d, "far.ndjson")], 0, 1024),
    # 10,000 Instances and one arrival every 99,999 s: the windows hold
    # figures for one Instance, the report would list all 10,000 in each
    # (10^9 figures); refused before the report is built.
    "window figures of Instances without figures": (
        lambda d: far_apart_trace(os.path.join(d, "wide.ndjson"), 10_000, 99_999),
        lambda d: ["-s", "rr", "--window", "1", os.path.join(d, "wide.ndjson")], 2, 100),
    # Engine signals every ms at 256 Instances over 70 s: 17.9M values,
    # refused by a count cap of 16M once; each is published and dropped, so
    # memory stays that of the waiting ones.
    "engine signals past 16M values": (
        lambda d: engine_trace(os.path.join(d, "signals.ndjson"), 256, 70),
        lambda d: ["-s", "ll", "--engine", "llama-3.1-8b-h100", "--signal-interval", "0.001",
                   os.path.join(d, "signals.ndjson")], 0, 100),
}


def main(lbsim, out_dir, case):
    write, args, want_status, bound_mib = CASES[case]
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    write(out_dir)
    run = subprocess.run([lbsim] + args(out_dir), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    shutil.rmtree(out_dir, ignore_errors=True)
    if run.returncode != want_status:
        sys.exit(f"FAIL: exit {run.returncode}, expected {want_status}; stderr: {run.stderr}")
    if peak_mib > bound_mib:
        sys.exit(f"FAIL: peak resident memory {peak_mib:.0f} MiB, bound {bound_mib} MiB")
    print(f"peak resident memory {peak_mib:.0f} MiB (bound {bound_mib} MiB)")


if __name__ == "__main__":
    main(*sys.argv[1:4])
