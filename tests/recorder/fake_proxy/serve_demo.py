#!/usr/bin/env python3
"""A stand-in for a running Proxy, for docs/record-proxy.md: the fake Proxy
of this directory serves a seeded stream of requests as the real one does
(select_instance, begin_request, end_request when the response ends), with
heartbeats and one Instance that stops heartbeating and expires.

    python3 serve_demo.py [--strategy least_load|round_robin] [--requests N]

Time is simulated (the pool's TTL clock), so the same arguments make the
same decisions on every machine.
"""
import argparse
import contextvars
import heapq
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from proxy.proxy import App, select_instance  # noqa: E402
from proxy.resource.instance_pool import InstancePool  # noqa: E402
from proxy.strategy.factory import build_instance_strategy  # noqa: E402


class Request:
    def __init__(self, rid, prompt):
        self.Request_ID = rid
        self.prompt = prompt  # never recorded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategy", default="least_load")
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()

    rng = random.Random(7)
    now = [0.0]
    pool = InstancePool(ttl_s=30, clock=lambda: now[0])
    app = App(pool, build_instance_strategy(args.strategy))
    ids = ["gpu-1", "gpu-2", "gpu-3", "gpu-4"]
    for iid in ids:
        pool.upsert(iid, "10.0.0.%s" % iid[-1], 8000)
    ends = []  # (time, n, context, instance)
    served = {iid: 0 for iid in ids}
    next_heartbeat = 5.0
    for n in range(args.requests):
        now[0] += rng.expovariate(8.0)  # about 8 requests a second
        while ends and ends[0][0] <= now[0]:
            _, _, ctx, iid = heapq.heappop(ends)
            ctx.run(pool.end_request, iid)
        if now[0] >= next_heartbeat:
            next_heartbeat += 5.0
            # gpu-4 stops heartbeating after 20 s and expires 30 s later
            for iid in ids if now[0] < 20 else ids[:3]:
                pool.heartbeat(iid, qps_1m=round(rng.uniform(5, 9), 1))
        ctx = contextvars.copy_context()
        chosen = ctx.run(select_instance, app, Request("req-%d" % (n + 1), "a prompt"))
        if chosen is None:
            continue
        if ctx.run(pool.begin_request, chosen.instance_id):
            served[chosen.instance_id] += 1
            heapq.heappush(ends, (now[0] + rng.uniform(0.2, 1.5), n, ctx, chosen.instance_id))
    print("served %d requests: %s" % (sum(served.values()),
                                      ", ".join("%s %d" % kv for kv in served.items())))


if __name__ == "__main__":
    main()
