#!/usr/bin/env python3
"""Cost of the recorder per request (decision + begin_request + end_request).

16 Instances in the pool, a queue_depths hint of 16 Instances x 9 keys built
fresh for every request (as the Proxy's queue_pressure_snapshot does; built in
every mode, so the differences are the recorder's), least_load. Modes: no
recorder, recorder copying queue_depths (default), keeping a reference to it, or
serialising queue_depths on the request path ("json"). For each mode two
numbers, from batches of 200 requests each followed by one writer flush (the
writer thread's cadence at ~4000 requests/s): "request path", the requests'
own time, and "writer", the time the writer takes to serialise and write
their events, per request (CPU in the same process, under the same GIL: with
the live writer thread it is spread over the requests in GIL slices).
Median of --runs.

    python3 recorder/bench_recorder.py [--requests N] [--runs K]
        [--proxy-root DIR]   # a directory holding a `proxy` package; default
                             # the fake one in tests/recorder/fake_proxy. A
                             # CacheRoute checkout works too (its proxy/__init__
                             # is not run; core/ likewise).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import types

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import lbsim_recorder  # noqa: E402

KEYS = ("prepare_queue_depth", "ready_queue_depth", "active_prepare", "active_ready",
        "pending_prefill_count", "active_decode_count", "next_slot_ready_in_ms",
        "prefill_free_in_ms", "predicted_total_backlog_ms")


def stub_packages(root):
    """Make `proxy` (and `core`) importable from root without running their
    __init__ (which in CacheRoute starts the whole FastAPI app)."""
    for name in ("proxy", "core"):
        d = os.path.join(root, name)
        if os.path.isdir(d) and name not in sys.modules:
            m = types.ModuleType(name)
            m.__path__ = [d]
            sys.modules[name] = m
    sys.path.insert(0, root)


def snapshot_factory(ids, rng):
    base = {i: [rng.randint(0, 3) for _ in KEYS] for i in ids}

    def snap():
        per = {}
        for i, vals in base.items():
            item = {k: v for k, v in zip(KEYS[:4], vals[:4])}
            item.update({"pending_prefill_count": vals[4], "active_decode_count": vals[5],
                         "next_slot_ready_in_ms": float(vals[6]), "prefill_free_in_ms": float(vals[7]),
                         "predicted_total_backlog_ms": float(max(vals[6], vals[7]))})
            per[i] = item
        return {"prepare_queue_depth": 0, "ready_queue_depth": 0, "per_instance": per}
    return snap


def run_once(mode, n, out_dir, batch=200):
    from proxy.resource.instance_pool import InstancePool
    from proxy.strategy.least_load import LeastLoadStrategy

    if mode != "off":
        lbsim_recorder.install(os.path.join(out_dir, "bench-%s.rec" % mode),
                               commit="0" * 40, queue_depths=mode, max_queue=10 ** 7,
                               flush_interval=3600)
    try:
        pool = InstancePool(3600)
        ids = ["inst-%02d" % i for i in range(16)]
        for i in ids:
            pool.upsert(i, "10.0.0.1", 8000)
        strategy = LeastLoadStrategy()
        snap = snapshot_factory(ids, random.Random(7))
        instances = pool.list(include_dead=False)
        req = types.SimpleNamespace(Request_ID=0, body="x" * 100)
        select, begin, end = strategy.select, pool.begin_request, pool.end_request
        t_req = t_writer = 0.0
        r = 0
        while r < n:
            # batches of `batch` requests, then the writer's turn, as the
            # writer thread would take them every flush_interval
            t0 = time.perf_counter()
            for r in range(r, min(n, r + batch)):
                req.Request_ID = r
                chosen = select(instances, hint={"request": req, "queue_depths": snap()})
                begin(chosen.instance_id)
                end(chosen.instance_id)
            r += 1
            t1 = time.perf_counter()
            if mode != "off":
                lbsim_recorder.flush()
            t_req += t1 - t0
            t_writer += time.perf_counter() - t1
    finally:
        if mode != "off":
            lbsim_recorder.uninstall()
    return t_req / n * 1e6, t_writer / n * 1e6


def snapshot_only(n):
    ids = ["inst-%02d" % i for i in range(16)]
    snap = snapshot_factory(ids, random.Random(7))
    t0 = time.perf_counter()
    for _ in range(n):
        snap()
    return (time.perf_counter() - t0) / n * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--proxy-root", default=os.path.join(REPO, "tests", "recorder", "fake_proxy"))
    args = ap.parse_args()
    stub_packages(os.path.abspath(args.proxy_root))
    modes = ("off", "copy", "reference", "json")
    res = {m: ([], []) for m in modes}
    with tempfile.TemporaryDirectory() as tmp:
        run_once("off", 2000, tmp)            # warm up imports and caches
        for _ in range(args.runs):
            for m in modes:
                loop, total = run_once(m, args.requests, tmp)
                res[m][0].append(loop)
                res[m][1].append(total)
    print("proxy package: %s" % sys.modules["proxy"].__path__[0])
    print("%d requests x %d runs, 16 Instances, queue_depths 16 x 9 keys; us/request, median"
          % (args.requests, args.runs))
    print("(building the queue_depths hint, included in every mode: %.2f us)"
          % snapshot_only(args.requests))
    off = statistics.median(res["off"][0])
    for m in modes:
        loop = statistics.median(res[m][0])
        writer = statistics.median(res[m][1])
        if m == "off":
            print("  %-10s request path %7.2f" % (m, loop))
        else:
            print("  %-10s request path %7.2f (+%.2f)   writer %6.2f   recorder total +%.2f"
                  % (m, loop, loop - off, writer, loop - off + writer))


if __name__ == "__main__":
    main()
