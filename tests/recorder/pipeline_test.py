#!/usr/bin/env python3
"""From a recording to a replay that checks itself (docs/record-proxy.md):
random traffic through the fake Proxy of tests/recorder/fake_proxy with the
recorder installed, `lbsim import --from cacheroute-record`, then a replay
of the strategy the Proxy ran, which must make every decision the Proxy
made. The fake's least_load is least inflight with round-robin ties, which
is the pinned least_load on traffic without queue hints and with qps_1m
weighted 0, so the replay runs under cacheroute@28e857c.

    python3 tests/recorder/pipeline_test.py LBSIM [SEEDS]

A negative control changes one recorded choice and expects the self-check
to name that decision.
"""
from __future__ import annotations

import contextvars
import json
import os
import random
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(HERE, "fake_proxy"), os.path.join(REPO, "recorder")]

import lbsim_recorder  # noqa: E402

COMMIT = "28e857c" + "0" * 33  # the pinned version whose pool the fake's follows


class Req:
    def __init__(self, rid):
        self.Request_ID = rid
        self.body = "prompt text that must not be recorded"


def record(path, seed, strategy_name):
    """Drives the fake Proxy; returns the choices it made, in order."""
    for name in [n for n in sys.modules if n == "proxy" or n.startswith("proxy.")]:
        del sys.modules[name]
    lbsim_recorder.install(path, commit=COMMIT)
    try:
        from proxy.proxy import App, select_instance
        from proxy.resource.instance_pool import InstancePool
        from proxy.strategy.factory import build_instance_strategy

        rng = random.Random(seed)
        clock = [1000.0]
        pool = InstancePool(ttl_s=10, clock=lambda: clock[0])
        app = App(pool, build_instance_strategy(strategy_name))
        ids = ["i%d" % i for i in range(5)]
        for iid in ids[:3]:
            pool.upsert(iid, "h", 80)
        choices, open_reqs = [], []
        for op in range(1500):
            r = rng.random()
            iid = rng.choice(ids)
            if r < 0.05:
                pool.upsert(iid, "h", 80)
            elif r < 0.15:
                pool.heartbeat(iid, qps_1m=rng.choice([None, rng.randint(0, 4) / 2]))
            elif r < 0.17:
                pool.remove(iid)
            elif r < 0.20:
                clock[0] += rng.choice([1, 4, 11])
            elif r < 0.45 and open_reqs:
                ctx, inst = open_reqs.pop(rng.randrange(len(open_reqs)))
                ctx.run(pool.end_request, inst)
            else:
                ctx = contextvars.copy_context()
                chosen = ctx.run(select_instance, app, Req("q%d" % op))
                choices.append(None if chosen is None else chosen.instance_id)
                if chosen is not None and ctx.run(pool.begin_request, chosen.instance_id):
                    open_reqs.append((ctx, chosen.instance_id))
        return choices
    finally:
        lbsim_recorder.uninstall()


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def replay(lbsim, trace, strategy):
    done = run([lbsim, "-s", strategy, "--format", "json", trace])
    if done.returncode != 0:
        raise AssertionError("replay failed: %s" % done.stderr)
    return json.loads(done.stdout)["strategies"][0]["proxy_choices"]


def main():
    lbsim = sys.argv[1]
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for strategy in ("least_load", "round_robin"):
            for seed in range(1, seeds + 1):
                rec = os.path.join(tmp, "%s-%d.rec" % (strategy, seed))
                trace = rec.replace(".rec", ".ndjson")
                choices = record(rec, seed, strategy)
                imported = run([lbsim, "import", "--from", "cacheroute-record", rec, "-o", trace])
                p = None
                if imported.returncode == 0:
                    p = replay(lbsim, trace, strategy)
                ok = (imported.returncode == 0 and "warning" not in imported.stderr
                      and "cacheroute@28e857c, strategy %s" % strategy in imported.stderr
                      and p["self_check"] and p["compared"] == len(choices)
                      and p["equal"] == p["compared"])
                print("%s %s seed %d: %s decisions, %s" % (
                    "ok  " if ok else "FAIL", strategy, seed, len(choices),
                    imported.stderr.strip() if not ok else "%d equal" % p["equal"]))
                if not ok:
                    failures += 1
                    if p:
                        print("  first difference: %s" % json.dumps(p["first_difference"]))
                    continue
                if seed != 1:
                    continue
                # Negative control: one recorded choice changed.
                lines = open(rec).read().splitlines()
                k = max(i for i, l in enumerate(lines) if '"chosen":"' in l)
                event = json.loads(lines[k])
                others = [c["id"] for c in event["candidates"] if c["id"] != event["chosen"]]
                if not others:
                    continue
                event["chosen"] = others[0]
                lines[k] = json.dumps(event)
                with open(rec, "w") as f:
                    f.write("\n".join(lines) + "\n")
                run([lbsim, "import", "--from", "cacheroute-record", rec, "-o", trace])
                p = replay(lbsim, trace, strategy)
                caught = p["equal"] == p["compared"] - 1 and p["first_difference"]["proxy"] == others[0]
                print("%s %s: a changed choice is caught (%d of %d equal)" % (
                    "ok  " if caught else "FAIL", strategy, p["equal"], p["compared"]))
                failures += not caught
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
