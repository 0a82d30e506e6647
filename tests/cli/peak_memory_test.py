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


# name: (writes the input, lbsim's arguments after the input's path is
# known, expected exit status, bound in MiB)
CASES = {
    # 400 arrivals of 50,000 block ids (400 KB each as ids): the read-ahead
    # ring once kept every slot's largest vector, about 160 MB here.
    "read-ahead after large arrivals": (
        lambda d: blocks_trace(os.path.join(d, "blocks.ndjson"), 400, 50_000),
        lambda d: ["-s", "rr,ll", os.path.join(d, "blocks.ndjson")], 0, 80),
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
