#!/usr/bin/env python3
"""Bridge parity: the decision log of lbsim running the Proxy-style Python
strategies (strategies/external/proxy_strategies.py) through exec:COMMAND
must be byte-identical to the log of the built-in strategy, except for the
`strategy` field (an exec strategy logs "exec").

Usage:
  parity_test.py LBSIM TRACE...        every trace with rr and ll
  parity_test.py LBSIM --random N      N random traces (the fidelity test's
                                       generator), ll also with random weights
"""

import os
import random
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROXY = os.path.join(ROOT, "strategies", "external", "proxy_strategies.py")
sys.path.insert(0, os.path.join(ROOT, "tests", "fidelity"))


def decision_log(lbsim, specs, trace, tmp):
    """The decision log of one run of `specs` (each its own -s), split into
    one list of lines per strategy."""
    log = os.path.join(tmp, "decisions.jsonl")
    # The Python strategies follow the spec profile's contract.
    args = [lbsim, "--proxy", "spec"]
    for spec in specs:
        args += ["-s", spec]
    run = subprocess.run(args + ["--decisions", log, "--output",
                                 os.path.join(tmp, "report.txt"), trace],
                         capture_output=True)
    if run.returncode != 0:
        raise RuntimeError("%s: exit %d: %s"
                           % (" ".join(args), run.returncode, run.stderr.decode().strip()))
    with open(log, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    # Strategies log in command-line order, one line per arrival each.
    per = len(lines) // len(specs)
    return [lines[k * per:(k + 1) * per] for k in range(len(specs))]


def compare(lbsim, trace, cases, tmp):
    """`cases`: (built-in spec, canonical name, proxy_strategies.py args).
    Runs the built-ins in one lbsim run and their bridged twins in another
    (their programs start in parallel); returns the differences found."""
    want = decision_log(lbsim, [spec for spec, _, _ in cases], trace, tmp)
    bridged = []
    for _, _, proxy_args in cases:
        command = " ".join(shlex.quote(a) for a in [sys.executable, PROXY] + proxy_args)
        bridged.append("exec:" + command)
    got = decision_log(lbsim, bridged, trace, tmp)
    problems = []
    for (spec, canonical, proxy_args), w, g in zip(cases, want, got):
        # The only normalisation: the exec strategy's name in the strategy field.
        g = [line.replace(b'{"strategy":"exec",', b'{"strategy":"%s",' % canonical.encode())
             for line in g]
        if not w or not all(line.startswith(b'{"strategy":"%s",' % canonical.encode())
                            for line in w):
            problems.append("%s, %s: unexpected built-in log %r" % (trace, spec, w[:1]))
            continue
        if g == w:
            continue
        for n, (gl, wl) in enumerate(zip(g + [b""], w + [b""]), 1):
            if gl != wl:
                problems.append("%s, %s vs proxy_strategies.py %s, decision %d:\n"
                                "  built-in: %s\n  bridge:   %s"
                                % (trace, spec, " ".join(proxy_args), n,
                                   wl.decode().strip(), gl.decode().strip()))
                break
    return problems


def example_cases(traces):
    for trace in traces:
        yield trace, [("round_robin", "round_robin", ["round_robin"]),
                      ("least_load", "least_load", ["least_load"])]


def random_cases(count, tmp):
    import differential_test
    keys = ["inflight", "qps_1m"] + differential_test.QUEUE_KEYS
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        header, events = differential_test.random_trace(rng)
        document = rng.random() < 0.5
        trace = os.path.join(tmp, "t%d.%s" % (seed, "json" if document else "ndjson"))
        differential_test.write_trace(trace, header, events, document)
        weights = ["%s=%s" % (k, rng.choice(["0", "1", "0.5", "2", "0.01"]))
                   for k in rng.sample(keys, rng.randint(1, 4))]
        yield trace, [("rr", "round_robin", ["rr"]),
                      ("ll", "least_load", ["ll"]),
                      ("ll:" + ":".join(weights), "least_load",
                       ["least-load"] + ["--weight=" + w for w in weights])]


def main(argv):
    lbsim = argv[1]
    failures = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        if argv[2] == "--random":
            cases = random_cases(int(argv[3]), tmp)
        else:
            cases = example_cases(argv[2:])
        for trace, trace_cases in cases:
            checked += len(trace_cases)
            for problem in compare(lbsim, trace, trace_cases, tmp):
                failures += 1
                print(problem)
    print("%d logs identical, %d differ" % (checked - failures, failures))
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
