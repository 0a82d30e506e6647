#!/usr/bin/env python3
"""Differential fidelity test: lbsim's decision logs must equal those of an
independent Python replay of the spec (tests/bench/python_replay.py) on
randomly generated valid traces, under the spec profile (--proxy spec; the
pinned Proxy versions have their own test, proxy_profiles_test.py), that
stress every rule: pool changes
(down, up, remove, re-registration), unknown and null loads, hints of every
shape and value type, equal times, zero and fractional durations, both
encodings, and non-default weights.

Usage: differential_test.py LBSIM_BINARY [COUNT] [FIRST_SEED]
"""

import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import python_replay  # noqa: E402

QUEUE_KEYS = python_replay.QUEUE_KEYS


def hint_value(rng):
    return rng.choice([
        rng.randint(0, 6), rng.randint(-3, 3), round(rng.uniform(0, 5), 2),
        rng.choice([0.1, 0.2, 0.3, 1e-3, 2.5e2, 1e17]), True, False, None,
        "3", {"nested": 1}, [1, 2]])


def random_hint(rng, ids):
    shape = rng.random()
    if shape < 0.35:
        return None
    if shape < 0.4:
        return rng.choice(["text", 7, [1], {"queue_depths": 3},
                           {"queue_depths": {"per_instance": []}}])
    per = {}
    for iid in rng.sample(ids, rng.randint(0, len(ids))):
        if rng.random() < 0.1:
            per[iid] = rng.choice([None, 5, "x"])
            continue
        per[iid] = {k: hint_value(rng) for k in rng.sample(QUEUE_KEYS, rng.randint(0, 4))}
    if rng.random() < 0.2:
        per["ghost-%d" % rng.randint(0, 3)] = {"queue_depth": 1}
    return {"queue_depths": {"per_instance": per}, "other": rng.randint(0, 9)}


def load_value(rng, integer):
    if rng.random() < 0.25:
        return None
    if integer:
        return rng.randint(0, 8)
    return rng.choice([0, 1, 2.5, 10, 33.3, 0.1])


def random_trace(rng):
    ids = ["i%d" % k for k in range(rng.randint(1, 6))]
    header = {"lbsim_trace": 1, "name": "random",
              "time_unit": rng.choice(["s", "ms"]), "instances": []}
    registered, alive = [], set()
    for iid in ids[: rng.randint(0, len(ids))]:
        inst = {"id": iid}
        if rng.random() < 0.7:
            inst["inflight"] = load_value(rng, True)
        if rng.random() < 0.5:
            inst["qps_1m"] = load_value(rng, False)
        if rng.random() < 0.2:
            inst["alive"] = False
        else:
            alive.add(iid)
        if rng.random() < 0.3:
            inst["weight"] = rng.choice([1, 2, 0.5])
        header["instances"].append(inst)
        registered.append(iid)

    events, t = [], 0
    for _ in range(rng.randint(5, 120)):
        if rng.random() < 0.6:
            t = t + rng.choice([0, 0, 1, 2, 0.5, 0.25, 0.1, 3])
            if rng.random() < 0.3:
                t = float(t)
        r = rng.random()
        if r < 0.55:
            e = {"t": t, "type": "arrival"}
            if rng.random() < 0.7:
                e["duration"] = rng.choice([0, 1, 2, 5, 0.5, 0.3, 10])
            if rng.random() < 0.2:
                e["request"] = "q%d" % rng.randint(0, 999)
            h = random_hint(rng, ids)
            if h is not None:
                e["hint"] = h
        elif r < 0.75 and registered:
            e = {"t": t, "type": "load", "instance": rng.choice(registered)}
            if rng.random() < 0.8:
                e["inflight"] = load_value(rng, True)
            if rng.random() < 0.4:
                e["qps_1m"] = load_value(rng, False)
        elif r < 0.85:
            iid = rng.choice(ids)
            e = {"t": t, "type": "up", "instance": iid}
            if rng.random() < 0.5:
                e["inflight"] = load_value(rng, True)
            if rng.random() < 0.3:
                e["qps_1m"] = load_value(rng, False)
            if iid not in registered:
                registered.append(iid)
            alive.add(iid)
        elif r < 0.95 and registered:
            iid = rng.choice(registered)
            e = {"t": t, "type": "down", "instance": iid}
            alive.discard(iid)
        elif registered:
            iid = rng.choice(registered)
            e = {"t": t, "type": "remove", "instance": iid}
            registered.remove(iid)
            alive.discard(iid)
        else:
            e = {"t": t, "type": "arrival"}
        if rng.random() < 0.05:
            e["extra_key"] = "ignored"
        events.append(e)
    return header, events


def write_trace(path, header, events, document):
    with open(path, "w", encoding="utf-8") as f:
        if document:
            json.dump(dict(header, events=events), f)
        else:
            f.write(json.dumps(header) + "\n")
            for e in events:
                f.write(json.dumps(e) + "\n")


def random_specs(rng):
    specs = ["rr", "ll"]
    if rng.random() < 0.5:
        keys = ["inflight", "qps_1m"] + QUEUE_KEYS
        params = ":".join("%s=%s" % (k, rng.choice(["0", "1", "0.5", "2", "0.01"]))
                          for k in rng.sample(keys, rng.randint(1, 4)))
        specs.append("ll:" + params)
    return specs


def main(argv):
    lbsim = argv[1]
    count = int(argv[2]) if len(argv) > 2 else 300
    first = int(argv[3]) if len(argv) > 3 else 1
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            rng = random.Random(seed)
            header, events = random_trace(rng)
            document = rng.random() < 0.5
            trace = os.path.join(tmp, "t%d.%s" % (seed, "json" if document else "ndjson"))
            write_trace(trace, header, events, document)
            specs = random_specs(rng)
            log = os.path.join(tmp, "d%d.jsonl" % seed)
            run = subprocess.run([lbsim, "--proxy", "spec", "-s", ",".join(specs), "--decisions", log,
                                  "--format", "json", trace],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print("seed %d: lbsim exit %d: %s" % (seed, run.returncode, run.stderr.strip()))
                failures += 1
                continue
            with open(log, encoding="utf-8") as f:
                got = f.read().splitlines()
            want = [line for strategy_log in python_replay.replay(trace, specs)
                    for line in strategy_log]
            if got != want:
                failures += 1
                for k, (g, w) in enumerate(zip(got + [""] * len(want), want + [""] * len(got))):
                    if g != w:
                        print("seed %d line %d:\n  lbsim:  %s\n  python: %s" % (seed, k + 1, g, w))
                        break
    print("%d passed, %d failed" % (count - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
