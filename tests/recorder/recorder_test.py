#!/usr/bin/env python3
"""Tests of the Proxy recorder (recorder/lbsim_recorder) against the fake
Proxy in tests/recorder/fake_proxy.

    python3 tests/recorder/recorder_test.py [-v] [TestClass.test_name]

from the repository root (any directory works). Standard library only.
"""
from __future__ import annotations

import contextvars
import errno
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types
import unittest

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RECORDER_DIR = os.path.join(REPO, "recorder")
FAKE_DIR = os.path.join(HERE, "fake_proxy")
for _p in (FAKE_DIR, RECORDER_DIR):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import lbsim_recorder  # noqa: E402
from lbsim_recorder import commit as rec_commit  # noqa: E402
from lbsim_recorder import encoding  # noqa: E402

SHA = "0123456789abcdef0123456789abcdef01234567"
SECRET = "SECRET-PROMPT-7f3a9c"
HEADER_KEYS = ["lbsim_record", "recorder", "clock", "start_ns", "start_unix",
               "proxy_commit", "python", "pid"]


def purge_proxy():
    for name in list(sys.modules):
        if name == "proxy" or name.startswith("proxy."):
            del sys.modules[name]


def _reject_constant(name):
    raise ValueError("non-JSON constant %s" % name)


def read_rec(path):
    """(header, events): every line strict JSON (no NaN/Infinity)."""
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")
    assert text.endswith("\n"), "recording does not end with a newline"
    rows = [json.loads(line, parse_constant=_reject_constant) for line in text.splitlines()]
    return rows[0], rows[1:]


def kinds(events, kind):
    return [e for e in events if e["ev"] == kind]


class Req:
    """A fake Proxy request carrying things that must never be recorded."""

    def __init__(self, rid):
        self.Request_ID = rid
        self.Prompt = types.SimpleNamespace(text=SECRET + " prompt")
        self.body = {"messages": [{"role": "user", "content": SECRET}]}
        self.headers = {"authorization": "Bearer " + SECRET}

    def __repr__(self):
        return "Req(%s)" % SECRET

    __str__ = __repr__


class RecorderCase(unittest.TestCase):
    def setUp(self):
        lbsim_recorder.uninstall()
        purge_proxy()
        self.tmp = tempfile.mkdtemp(prefix="lbsim-rec-test-")
        self.path = os.path.join(self.tmp, "proxy.rec")

    def tearDown(self):
        lbsim_recorder.uninstall()
        purge_proxy()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def install(self, **kw):
        kw.setdefault("commit", SHA)
        target = kw.pop("target", self.path)
        self.assertTrue(lbsim_recorder.install(target, **kw))

    def finish(self):
        lbsim_recorder.uninstall()
        return read_rec(self.path)

    @staticmethod
    def fake():
        from proxy.proxy import App, select_instance
        from proxy.resource.instance_pool import InstancePool
        from proxy.strategy.factory import build_instance_strategy
        from proxy.strategy.least_load import LeastLoadStrategy
        from proxy.strategy.round_robin import RoundRobinStrategy
        return types.SimpleNamespace(App=App, select_instance=select_instance,
                                     InstancePool=InstancePool, build=build_instance_strategy,
                                     LeastLoad=LeastLoadStrategy, RoundRobin=RoundRobinStrategy)


# --------------------------------------------------------------------------
class EventFieldsTest(RecorderCase):
    def test_header_and_every_event_kind(self):
        self.install()
        f = self.fake()
        clock = [1000.0]
        pool = f.InstancePool(ttl_s=7, clock=lambda: clock[0])
        pool.upsert("a", "h", 1, weight=2.5)
        pool.upsert("b", "h", 2)
        self.assertTrue(pool.heartbeat("a", qps_1m=0.5).ok)
        self.assertTrue(pool.heartbeat("b", inflight=4).ok)
        self.assertFalse(pool.heartbeat("nope", qps_1m=1.0).ok)
        self.assertFalse(pool.heartbeat("a", fingerprint="mismatch").ok)
        self.assertTrue(pool.report_resource_snapshot("a", {"cpu": 1}))
        self.assertFalse(pool.report_resource_snapshot("zz", {}))
        qd = {"per_instance": {"a": {"prepare_queue_depth": 1, "predicted_total_backlog_ms": 2.5}}}
        app = f.App(pool, f.build("ll"), queue_snapshot=lambda: qd)
        ctx = contextvars.copy_context()
        chosen = ctx.run(f.select_instance, app, Req("r1"))
        self.assertEqual(chosen.instance_id, "a")
        self.assertTrue(ctx.run(pool.begin_request, "a"))
        self.assertTrue(ctx.run(pool.end_request, "a"))
        self.assertFalse(pool.begin_request("ghost"))
        self.assertTrue(pool.remove("b"))
        self.assertFalse(pool.remove("b"))
        empty = f.App(f.InstancePool(ttl_s=3), f.build("rr"))
        self.assertIsNone(f.select_instance(empty, Req(42)))
        header, events = self.finish()

        self.assertEqual(list(header), HEADER_KEYS)
        self.assertEqual(header["lbsim_record"], 1)
        self.assertEqual(header["recorder"], "lbsim_recorder 1")
        self.assertEqual(header["clock"], "monotonic_ns")
        self.assertEqual(header["proxy_commit"], SHA)
        self.assertEqual(header["pid"], os.getpid())
        self.assertIsInstance(header["start_ns"], int)
        self.assertIsInstance(header["start_unix"], float)
        self.assertEqual(header["python"], "%d.%d.%d" % sys.version_info[:3])

        ns = [e["ns"] for e in events]
        self.assertEqual(ns, sorted(ns), "events out of order")
        self.assertTrue(all(isinstance(n, int) and n >= header["start_ns"] for n in ns))
        strip = [{k: v for k, v in e.items() if k != "ns"} for e in events]
        for e in events:
            self.assertEqual(list(e)[:2], ["ev", "ns"])
        expected = [
            {"ev": "pool", "ttl_s": 7},
            {"ev": "register", "instance": "a", "weight": 2.5, "inflight": 0, "qps_1m": None},
            {"ev": "register", "instance": "b", "weight": 1.0, "inflight": 0, "qps_1m": None},
            {"ev": "heartbeat", "instance": "a", "ok": True, "inflight": 0, "qps_1m": 0.5},
            {"ev": "heartbeat", "instance": "b", "ok": True, "inflight": 4, "qps_1m": None},
            {"ev": "heartbeat", "instance": "nope", "ok": False},
            {"ev": "heartbeat", "instance": "a", "ok": False},
            {"ev": "refresh", "instance": "a", "ok": True},
            {"ev": "refresh", "instance": "zz", "ok": False},
            {"ev": "decision", "request": "r1", "strategy": "LeastLoadStrategy",
             "candidates": [{"id": "a", "weight": 2.5, "inflight": 0, "qps_1m": 0.5},
                            {"id": "b", "weight": 1.0, "inflight": 4, "qps_1m": None}],
             "queue_depths": qd, "chosen": "a"},
            {"ev": "begin", "instance": "a", "ok": True, "request": "r1"},
            {"ev": "end", "instance": "a", "ok": True, "request": "r1"},
            {"ev": "begin", "instance": "ghost", "ok": False, "request": None},
            {"ev": "remove", "instance": "b", "ok": True},
            {"ev": "remove", "instance": "b", "ok": False},
            {"ev": "pool", "ttl_s": 3},
            {"ev": "no_instances", "request": "42"},
            {"ev": "stop"},
        ]
        self.assertEqual(strip, expected)
        # key order as documented
        self.assertEqual(list(kinds(events, "decision")[0]),
                         ["ev", "ns", "request", "strategy", "candidates", "queue_depths", "chosen"])
        self.assertEqual(list(kinds(events, "register")[0]),
                         ["ev", "ns", "instance", "weight", "inflight", "qps_1m"])
        self.assertEqual(list(kinds(events, "heartbeat")[0]),
                         ["ev", "ns", "instance", "ok", "inflight", "qps_1m"])
        self.assertEqual(list(kinds(events, "begin")[0]), ["ev", "ns", "instance", "ok", "request"])

    def test_heartbeat_returning_bool(self):
        self.install()
        f = self.fake()
        f.InstancePool.heartbeat_returns_bool = True
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        self.assertIs(pool.heartbeat("a", qps_1m=2.0), True)
        self.assertIs(pool.heartbeat("b"), False)
        _, events = self.finish()
        hb = [{k: v for k, v in e.items() if k != "ns"} for e in kinds(events, "heartbeat")]
        self.assertEqual(hb, [{"ev": "heartbeat", "instance": "a", "ok": True, "inflight": 0, "qps_1m": 2.0},
                              {"ev": "heartbeat", "instance": "b", "ok": False}])

    def test_decision_error_and_hint_shapes(self):
        self.install()
        f = self.fake()
        rr = f.RoundRobin()
        with self.assertRaises(RuntimeError) as cm:
            rr.select([], hint={"request": Req("e1"), "queue_depths": None})
        self.assertEqual(str(cm.exception), "no instances")
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        inst = pool.list()
        rr.select(inst)                                   # no hint
        rr.select(inst, {"request": Req(None)})           # positional hint, no queue_depths
        rr.select(instances=inst, hint=Req("old-style"))  # req_obj as hint (older Proxy)
        _, events = self.finish()
        d = kinds(events, "decision")
        self.assertEqual(len(d), 4)
        self.assertEqual(list(d[0]), ["ev", "ns", "request", "strategy", "candidates", "queue_depths", "error"])
        self.assertEqual(d[0]["error"], "RuntimeError: no instances")
        self.assertIsNone(d[0]["queue_depths"])
        self.assertEqual(d[0]["request"], "e1")
        self.assertEqual(d[0]["candidates"], [])
        self.assertNotIn("queue_depths", d[1])
        self.assertIsNone(d[1]["request"])
        self.assertNotIn("queue_depths", d[2])
        self.assertIsNone(d[2]["request"])
        self.assertEqual(d[3]["request"], "old-style")
        self.assertEqual([x["chosen"] for x in d[1:]], ["a", "a", "a"])

    def test_nonfinite_floats_are_strings(self):
        self.install()
        f = self.fake()
        pool = f.InstancePool()
        pool.upsert("a", "h", 1, weight=float("inf"))
        pool.heartbeat("a", qps_1m=float("nan"))
        f.RoundRobin().select(pool.list(), hint={"queue_depths": {"x": float("-inf"), "y": [1.5, float("nan")]}})
        _, events = self.finish()
        self.assertEqual(kinds(events, "register")[0]["weight"], "inf")
        self.assertEqual(kinds(events, "heartbeat")[0]["qps_1m"], "nan")
        d = kinds(events, "decision")[0]
        self.assertEqual(d["candidates"][0]["weight"], "inf")
        self.assertEqual(d["candidates"][0]["qps_1m"], "nan")
        self.assertEqual(d["queue_depths"], {"x": "-inf", "y": [1.5, "nan"]})

    def test_snapshot_changed_in_place_after_select_is_recorded_as_it_was(self):
        # The default copies queue_depths at the decision: a Proxy that
        # reused its snapshot dict and changed it later must not rewrite
        # what the strategy saw.
        for mode, expect_then in (("copy", True), ("reference", False)):
            purge_proxy()
            self.path = os.path.join(self.tmp, "%s.rec" % mode)
            self.install(queue_depths=mode)
            f = self.fake()
            pool = f.InstancePool()
            pool.upsert("a", "h", 1)
            snapshot = {"per_instance": {"a": {"active_prepare": 1}}}
            f.RoundRobin().select(pool.list(), hint={"queue_depths": snapshot})
            snapshot["per_instance"]["a"]["active_prepare"] = 9
            snapshot["per_instance"]["b"] = {"active_prepare": 5}
            _, events = self.finish()
            seen = kinds(events, "decision")[0]["queue_depths"]
            then = {"per_instance": {"a": {"active_prepare": 1}}}
            self.assertEqual(seen == then, expect_then, (mode, seen))

    def test_fast_encoder_matches_reference_encoding(self):
        odd = [("a", 1.0, 0, None), ("b", float("nan"), True, float("-inf")),
               ("c\u00e9\"\n", 2, 10 ** 30, 0.1), (7, None, None, 1e300)]
        for qd in ({"per_instance": {"a": {"k": 1}}}, None, {"x": float("inf")}):
            for chosen, error in (("a", None), (None, "RuntimeError: x\u2603")):
                ev = ("decision", 12, "r", "S", odd, True, qd, chosen, error)
                self.assertEqual(encoding.event_line(ev).decode(),
                                 encoding.dumps(encoding.event_dict(ev)) + "\n")
        for ev in (("begin", 1, "a", True, None), ("end", 2, "\u00e9", False, "r")):
            self.assertEqual(encoding.event_line(ev).decode(),
                             encoding.dumps(encoding.event_dict(ev)) + "\n")


# --------------------------------------------------------------------------
def scripted_traffic(seed, strategy_name, n_ops=1500):
    """Random traffic on the fake Proxy; returns every observable outcome."""
    from proxy.proxy import App, select_instance
    from proxy.resource.instance_pool import InstancePool
    from proxy.strategy.factory import build_instance_strategy

    rng = random.Random(seed)
    clock = [5000.0]
    pool = InstancePool(ttl_s=10, clock=lambda: clock[0])
    qd_state = {}

    def snapshot():
        return {"per_instance": {k: dict(v) for k, v in qd_state.items()}}

    app = App(pool, build_instance_strategy(strategy_name), queue_snapshot=snapshot)
    ids = ["i%d" % i for i in range(6)]
    outcomes = []
    open_reqs = []
    for op in range(n_ops):
        r = rng.random()
        iid = rng.choice(ids)
        if r < 0.08:
            it = pool.upsert(iid, "h", 80, weight=rng.choice([1.0, 2.0]))
            outcomes.append(("upsert", it.instance_id, it.weight, it.load.inflight))
        elif r < 0.25:
            res = pool.heartbeat(iid, inflight=rng.choice([None, rng.randint(0, 3)]),
                                 qps_1m=rng.choice([None, rng.randint(0, 4) / 2]))
            outcomes.append(("heartbeat", res.ok))
        elif r < 0.28:
            outcomes.append(("remove", pool.remove(iid)))
        elif r < 0.32:
            clock[0] += rng.choice([1, 3, 11])
            outcomes.append(("tick", clock[0]))
        elif r < 0.35:
            qd_state[iid] = {"prepare_queue_depth": rng.randint(0, 2)}
        elif r < 0.45 and open_reqs:
            ctx, inst = open_reqs.pop(rng.randrange(len(open_reqs)))
            outcomes.append(("end", ctx.run(pool.end_request, inst)))
        else:
            ctx = contextvars.copy_context()
            chosen = ctx.run(select_instance, app, Req("q%d" % op))
            cid = None if chosen is None else chosen.instance_id
            outcomes.append(("select", cid))
            if chosen is not None:
                outcomes.append(("begin", ctx.run(pool.begin_request, cid)))
                open_reqs.append((ctx, cid))
    # a select that raises inside the strategy (no candidates)
    try:
        app.state.instance_strategy.select([], hint={"request": Req("x")})
        outcomes.append(("raise", None))
    except Exception as e:  # noqa: BLE001
        outcomes.append(("raise", type(e).__name__, str(e)))
    return outcomes


class TransparencyTest(RecorderCase):
    def test_same_choices_and_results_with_and_without(self):
        for strategy in ("ll", "rr"):
            for seed in (1, 2):
                purge_proxy()
                plain = scripted_traffic(seed, strategy)
                purge_proxy()
                self.install()
                recorded = scripted_traffic(seed, strategy)
                self.assertEqual(lbsim_recorder.stats()["recorder_errors"], 0)
                header, events = self.finish()
                self.assertEqual(plain, recorded, "%s seed %d" % (strategy, seed))
                choices = [o[1] for o in recorded if o[0] == "select"]
                self.assertGreater(len([c for c in choices if c is not None]), 300)
                decisions = kinds(events, "decision")
                # one decision per select that reached the strategy, same choice
                self.assertEqual([d.get("chosen") for d in decisions[:-1]],
                                 [c for c in choices if c is not None])
                self.assertEqual(decisions[-1]["error"], "RuntimeError: no instances")
                self.assertEqual(len(kinds(events, "no_instances")),
                                 len([c for c in choices if c is None]))
                # begin/end carry the request of their own decision
                by_req = {d["request"]: d["chosen"] for d in decisions[:-1]}
                for e in kinds(events, "begin") + kinds(events, "end"):
                    self.assertEqual(by_req[e["request"]], e["instance"])
                purge_proxy()


class NestedSelectTest(RecorderCase):
    def test_inner_round_robin_is_not_a_decision(self):
        self.install()
        f = self.fake()
        pool = f.InstancePool()
        for i in "abcd":
            pool.upsert(i, "h", 1)
        ll = f.LeastLoad()
        picks = [ll.select(pool.list(), hint={"request": Req(n)}).instance_id for n in range(8)]
        self.assertEqual(picks, list("abcdabcd"))   # all tied: the inner rr decides

        class Sub(f.LeastLoad):
            def select(self, instances, hint=None):
                return super().select(instances, hint)
        self.assertEqual(Sub().select(pool.list()).instance_id, "a")
        _, events = self.finish()
        d = kinds(events, "decision")
        self.assertEqual(len(d), 9)
        self.assertEqual({x["strategy"] for x in d[:8]}, {"LeastLoadStrategy"})
        self.assertEqual(d[8]["strategy"], "Sub")
        self.assertEqual([x["chosen"] for x in d[:8]], picks)

    def test_guard_is_per_thread(self):
        self.install()
        f = self.fake()
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        inside = threading.Event()
        release = threading.Event()

        class Slow(f.RoundRobin):
            def select(self, instances, hint=None):
                inside.set()
                release.wait(5)
                return super().select(instances, hint)
        t = threading.Thread(target=lambda: Slow().select(pool.list()))
        t.start()
        self.assertTrue(inside.wait(5))
        f.RoundRobin().select(pool.list())           # another thread mid-select
        release.set()
        t.join(5)
        _, events = self.finish()
        self.assertEqual(sorted(d["strategy"] for d in kinds(events, "decision")),
                         ["RoundRobinStrategy", "Slow"])


class NoInstancesTest(RecorderCase):
    def test_no_instances_only_from_select_instance(self):
        self.install()
        f = self.fake()
        from proxy.proxy import not_select_instance
        clock = [100.0]
        pool = f.InstancePool(ttl_s=5, clock=lambda: clock[0])
        app = f.App(pool, f.build("rr"))
        self.assertIsNone(f.select_instance(app, Req("r-empty")))
        self.assertEqual(not_select_instance(app), [])         # other caller: no event
        pool.upsert("a", "h", 1)
        self.assertEqual(f.select_instance(app, Req("r-ok")).instance_id, "a")
        clock[0] += 6                                          # TTL expiry
        self.assertIsNone(f.select_instance(app, Req("r-expired")))
        self.assertEqual(len(pool.list(include_dead=True)), 1)

        def select_instance(app, other_name):                  # right name, no req_obj
            return app.state.instance_pool.list(include_dead=False)
        self.assertEqual(select_instance(app, Req("zzz")), [])
        _, events = self.finish()
        no = [(e["ev"], e["request"]) for e in events if e["ev"] in ("no_instances", "decision")]
        self.assertEqual(no, [("no_instances", "r-empty"), ("decision", "r-ok"),
                              ("no_instances", "r-expired"), ("no_instances", None)])


# --------------------------------------------------------------------------
class FailingFile(io.RawIOBase):
    """A binary file whose writes fail with ENOSPC while .full is set."""

    def __init__(self):
        super().__init__()
        self.full = False
        self.data = bytearray()
        self.calls = 0

    def writable(self):
        return True

    def write(self, b):
        self.calls += 1
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.data += bytes(b)
        return len(b)


class FullDiskTest(RecorderCase):
    def test_enospc_then_recovery_writes_lost(self):
        ff = FailingFile()
        self.install(target=ff, flush_interval=0.01)
        f = self.fake()
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        lbsim_recorder.flush()
        ff.full = True
        picks = []
        for n in range(50):
            picks.append(f.RoundRobin().select(pool.list(), hint={"request": Req(n)}).instance_id)
            self.assertTrue(pool.begin_request("a"))
        lbsim_recorder.flush()
        self.assertEqual(picks, ["a"] * 50)
        self.assertEqual(lbsim_recorder.stats()["write_failed"], 100)
        ff.full = False
        pool.remove("a")
        lbsim_recorder.uninstall()
        lines = [json.loads(x) for x in ff.data.decode().splitlines()]
        self.assertEqual(lines[0]["lbsim_record"], 1)
        evs = [x["ev"] for x in lines[1:]]
        self.assertEqual(evs, ["pool", "register", "lost", "remove", "stop"])
        lost = lines[3]
        self.assertEqual(lost["events"], 100)
        self.assertTrue(lost["reason"].startswith("write failed: ENOSPC"), lost["reason"])

    def test_header_retried_until_the_disk_takes_it(self):
        ff = FailingFile()
        ff.full = True
        self.install(target=ff, flush_interval=3600)
        f = self.fake()
        pool = f.InstancePool()
        lbsim_recorder.flush()
        ff.full = False
        pool.upsert("a", "h", 1)
        lbsim_recorder.uninstall()
        lines = [json.loads(x) for x in ff.data.decode().splitlines()]
        self.assertIn("lbsim_record", lines[0])
        self.assertEqual([x["ev"] for x in lines[1:]], ["lost", "register", "stop"])
        self.assertEqual(lines[1]["events"], 1)

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_dev_full(self):
        def traffic():
            f = self.fake()
            pool = f.InstancePool()
            for i in range(5):
                pool.upsert("i%d" % i, "h", 1)
            ll = f.LeastLoad()
            picks, ends = [], []
            for n in range(200):
                c = ll.select(pool.list(), hint={"request": Req(n)})
                picks.append((c.instance_id, pool.begin_request(c.instance_id)))
                if n % 3 == 0:
                    ends.append(pool.end_request(picks[n // 2][0]))
            return picks, ends
        plain = traffic()
        purge_proxy()
        self.install(target="/dev/full", flush_interval=0.01)
        recorded = traffic()
        time.sleep(0.05)
        lbsim_recorder.flush()
        s = lbsim_recorder.stats()
        self.assertGreaterEqual(s["write_failed"], 400)
        self.assertEqual(s["written_events"], 0)
        lbsim_recorder.uninstall()
        self.assertEqual(recorded, plain)
        self.assertEqual(len(set(p[0] for p in plain[0])), 5)

    def test_closed_file(self):
        bio = io.BytesIO()
        self.install(target=bio, flush_interval=3600)
        f = self.fake()
        f.InstancePool().upsert("a", "h", 1)
        bio.close()
        lbsim_recorder.flush()
        self.assertEqual(lbsim_recorder.stats()["write_failed"], 2)


class QueueOverflowTest(RecorderCase):
    def test_full_queue_drops_and_marks_the_gap(self):
        self.install(max_queue=10, flush_interval=3600)
        f = self.fake()
        pool = f.InstancePool()                       # 1 event
        for i in range(30):                           # 9 fit, 21 dropped
            pool.upsert("i%d" % i, "h", 1)
        self.assertEqual(lbsim_recorder.stats()["queue_full"], 21)
        lbsim_recorder.flush()
        pool.remove("i0")
        header, events = self.finish()
        evs = [e["ev"] for e in events]
        self.assertEqual(evs, ["pool"] + ["register"] * 9 + ["lost", "remove", "stop"])
        self.assertEqual(events[10]["events"], 21)
        self.assertEqual(events[10]["reason"], "queue full")
        self.assertEqual([e["instance"] for e in events[1:10]], ["i%d" % i for i in range(9)])


class MaxBytesTest(RecorderCase):
    def test_stops_with_lost_and_stop(self):
        self.install(max_bytes=2000, flush_interval=3600)
        f = self.fake()
        pool = f.InstancePool()
        for i in range(40):
            pool.upsert("i%d" % i, "h", 1)
        lbsim_recorder.flush()
        self.assertEqual(lbsim_recorder.stats()["max_bytes"] > 0, True)
        pool.upsert("late", "h", 1)                   # after the stop: not recorded
        self.assertEqual(f.RoundRobin().select(pool.list()).instance_id, "i0")
        _, events = self.finish()
        self.assertLessEqual(os.path.getsize(self.path), 2000)
        self.assertEqual([e["ev"] for e in events[-2:]], ["lost", "stop"])
        self.assertEqual(events[-2]["reason"], "max_bytes")
        written = len(kinds(events, "register"))
        self.assertEqual(written + events[-2]["events"], 40)
        self.assertNotIn("late", [e.get("instance") for e in events])


class InternalErrorTest(RecorderCase):
    def test_broken_instance_is_swallowed(self):
        self.install()
        f = self.fake()

        calls = []

        class Weird:
            instance_id = "w"

            @property
            def weight(self):
                raise KeyError("weight exploded")

        class Counting(f.RoundRobin):
            def select(self, instances, hint=None):
                calls.append((list(instances), hint))
                return super().select(instances, hint)

        w = Weird()
        hint = {"request": Req("r9")}
        self.assertIs(Counting().select([w], hint), w)
        self.assertEqual(len(calls), 1)                # the original ran exactly once
        self.assertIs(calls[0][0][0], w)
        self.assertIs(calls[0][1], hint)
        self.assertEqual(lbsim_recorder.stats()["recorder_errors"], 1)
        _, events = self.finish()
        self.assertEqual(kinds(events, "decision"), [])
        lost = kinds(events, "lost")
        self.assertEqual([(x["events"], x["reason"]) for x in lost], [(1, "recorder error: KeyError")])

    def test_instance_without_load_is_unknown_load(self):
        self.install()
        f = self.fake()
        bare = types.SimpleNamespace(instance_id="bare")
        self.assertIs(f.LeastLoad().select([bare]), bare)
        _, events = self.finish()
        d = kinds(events, "decision")[0]
        self.assertEqual(d["candidates"], [{"id": "bare", "weight": None, "inflight": None, "qps_1m": None}])

    def test_unserialisable_queue_depths_and_generator_candidates(self):
        self.install()
        f = self.fake()
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        rr = f.RoundRobin()
        self.assertEqual(rr.select(pool.list(), {"queue_depths": {"obj": object(), 3: {1, 2}}}).instance_id, "a")
        # a generator must reach the strategy unconsumed (it then sees no instances)
        with self.assertRaises(TypeError):
            rr.select(x for x in pool.list())
        _, events = self.finish()
        d = kinds(events, "decision")
        self.assertEqual(d[0]["queue_depths"], {"obj": "<object>", "3": [1, 2]})
        self.assertEqual(len(d), 1)
        self.assertEqual(kinds(events, "lost")[0]["reason"], "recorder error: TypeError")


class PrivacyTest(RecorderCase):
    def test_request_contents_never_written(self):
        self.install()
        f = self.fake()
        pool = f.InstancePool()
        for i in "abc":
            pool.upsert(i, "h", 1)
        app = f.App(pool, f.build("ll"), queue_snapshot=lambda: {"per_instance": {}})
        for n in range(20):
            ctx = contextvars.copy_context()
            c = ctx.run(f.select_instance, app, Req("rid-%d" % n))
            ctx.run(pool.begin_request, c.instance_id)
            ctx.run(pool.end_request, c.instance_id)
        f.RoundRobin().select(pool.list(), hint=Req("old"))
        self.finish()
        with open(self.path, encoding="utf-8") as fh:
            text = fh.read()
        self.assertNotIn(SECRET, text)
        self.assertNotIn("Bearer", text)
        self.assertNotIn("messages", text)
        self.assertIn("rid-19", text)


# --------------------------------------------------------------------------
class PatchingTest(RecorderCase):
    def test_import_hook_patches_modules_imported_later(self):
        self.install()
        self.assertNotIn("proxy.strategy.least_load", sys.modules)
        from proxy.strategy.least_load import LeastLoadStrategy
        from proxy.strategy.round_robin import RoundRobinStrategy
        from proxy.resource.instance_pool import InstancePool
        self.assertTrue(hasattr(LeastLoadStrategy.__dict__["select"], "__lbsim_wrapped__"))
        self.assertTrue(hasattr(RoundRobinStrategy.__dict__["select"], "__lbsim_wrapped__"))
        for name in ("__init__", "upsert", "heartbeat", "report_resource_snapshot", "remove",
                     "begin_request", "end_request", "list"):
            self.assertTrue(hasattr(InstancePool.__dict__[name], "__lbsim_wrapped__"), name)
        # a strategy module nothing had imported yet
        from proxy.strategy.first_alive import FirstAliveStrategy
        self.assertTrue(hasattr(FirstAliveStrategy.__dict__["select"], "__lbsim_wrapped__"))
        # the loader is the original one again
        mod = sys.modules["proxy.strategy.first_alive"]
        self.assertEqual(type(mod.__loader__).__name__, "SourceFileLoader")
        # a subclass created anywhere later
        from proxy.strategy.base import BaseInstanceStrategy

        class Elsewhere(BaseInstanceStrategy):
            def select(self, instances, hint=None):
                return instances[-1]
        self.assertTrue(hasattr(Elsewhere.__dict__["select"], "__lbsim_wrapped__"))
        pool = InstancePool()
        pool.upsert("a", "h", 1)
        pool.upsert("b", "h", 1)
        self.assertEqual(FirstAliveStrategy().select(pool.list()).instance_id, "a")
        self.assertEqual(Elsewhere().select(pool.list()).instance_id, "b")
        _, events = self.finish()
        self.assertEqual([d["strategy"] for d in kinds(events, "decision")],
                         ["FirstAliveStrategy", "Elsewhere"])

    def test_modules_imported_before_install(self):
        f = self.fake()
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        self.assertFalse(hasattr(f.LeastLoad.__dict__["select"], "__lbsim_wrapped__"))
        self.install()
        self.assertTrue(hasattr(f.LeastLoad.__dict__["select"], "__lbsim_wrapped__"))
        pool.heartbeat("a", qps_1m=1.0)
        f.LeastLoad().select(pool.list())
        _, events = self.finish()
        self.assertEqual([e["ev"] for e in events], ["heartbeat", "decision", "stop"])

    def test_uninstall_restores_originals(self):
        f = self.fake()
        from proxy.strategy.base import BaseInstanceStrategy
        before = {(cls, name): cls.__dict__.get(name)
                  for cls in (f.InstancePool, f.LeastLoad, f.RoundRobin, BaseInstanceStrategy)
                  for name in ("__init__", "upsert", "heartbeat", "report_resource_snapshot",
                               "remove", "begin_request", "end_request", "list", "select",
                               "__init_subclass__")}
        metapath = list(sys.meta_path)
        self.install()
        self.assertNotEqual(f.InstancePool.__dict__["upsert"], before[(f.InstancePool, "upsert")])
        self.assertIn("__init_subclass__", BaseInstanceStrategy.__dict__)
        self.assertTrue(lbsim_recorder.uninstall())
        after = {key: key[0].__dict__.get(key[1]) for key in before}
        self.assertEqual(after, before)
        self.assertEqual(sys.meta_path, metapath)
        self.assertFalse(lbsim_recorder.installed())
        # nothing recorded any more, behaviour the same
        size = os.path.getsize(self.path)
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        self.assertEqual(f.LeastLoad().select(pool.list()).instance_id, "a")
        self.assertEqual(os.path.getsize(self.path), size)
        self.assertFalse(lbsim_recorder.uninstall())

    def test_abstract_select_stays_abstract(self):
        self.install()
        from proxy.strategy.base import BaseInstanceStrategy

        class NoSelect(BaseInstanceStrategy):
            pass
        with self.assertRaises(TypeError):
            NoSelect()
        with self.assertRaises(TypeError):
            BaseInstanceStrategy()


class ForkTest(RecorderCase):
    @unittest.skipUnless(hasattr(os, "fork"), "no fork")
    def test_pid_template_gives_a_forked_child_its_own_file(self):
        template = os.path.join(self.tmp, "proxy-{pid}.rec")
        self.install(target=template)
        f = self.fake()
        pool = f.InstancePool()
        pool.upsert("a", "h", 1)
        pid = os.fork()
        if pid == 0:                                   # the child: record, then leave
            try:
                f.RoundRobin().select(pool.list(), hint={"request": Req("child")})
                lbsim_recorder.uninstall()
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        f.RoundRobin().select(pool.list(), hint={"request": Req("parent")})
        lbsim_recorder.uninstall()
        ph, pe = read_rec(template.replace("{pid}", str(os.getpid())))
        ch, ce = read_rec(template.replace("{pid}", str(pid)))
        self.assertEqual((ph["pid"], ch["pid"]), (os.getpid(), pid))
        self.assertEqual([e["request"] for e in kinds(pe, "decision")], ["parent"])
        self.assertEqual([e["request"] for e in kinds(ce, "decision")], ["child"])
        self.assertEqual([e["ev"] for e in ce], ["decision", "stop"])


# --------------------------------------------------------------------------
def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([RECORDER_DIR, FAKE_DIR] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("LBSIM_RECORD", None)
    env.pop("LBSIM_RECORD_COMMIT", None)
    return env


SCRIPT = r'''
import sys, types
from proxy.resource.instance_pool import InstancePool
from proxy.strategy.factory import build_instance_strategy
from proxy.proxy import App, select_instance
print("argv", sys.argv[1:], __name__)
pool = InstancePool(30)
for i in "abc":
    pool.upsert(i, "h", 1)
app = App(pool, build_instance_strategy("ll"))
for n in range(int(sys.argv[1])):
    c = select_instance(app, types.SimpleNamespace(Request_ID=n))
    pool.begin_request(c.instance_id)
sys.exit(int(sys.argv[2]))
'''


class RunnerTest(RecorderCase):
    def _check(self, rec, n):
        header, events = read_rec(rec)
        self.assertEqual(header["proxy_commit"], SHA)
        self.assertEqual(len(kinds(events, "decision")), n)
        self.assertEqual(len(kinds(events, "begin")), n)
        self.assertEqual(events[-1]["ev"], "stop")

    def test_script_and_module_and_env(self):
        script = os.path.join(self.tmp, "drive.py")
        with open(script, "w") as fh:
            fh.write(SCRIPT)
        rec = os.path.join(self.tmp, "a.rec")
        p = subprocess.run([sys.executable, "-m", "lbsim_recorder", "--out", rec, "--commit", SHA,
                            "--", script, "7", "3"], env=_env(), cwd=self.tmp,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("argv ['7', '3'] __main__", p.stdout)
        self._check(rec, 7)

        # -m MODULE, and LBSIM_RECORD standing in for --out
        pkg = os.path.join(self.tmp, "drivepkg")
        os.mkdir(pkg)
        open(os.path.join(pkg, "__init__.py"), "w").close()
        shutil.copy(script, os.path.join(pkg, "run.py"))
        rec2 = os.path.join(self.tmp, "b.rec")
        env = _env()
        env["LBSIM_RECORD"] = rec2
        env["LBSIM_RECORD_COMMIT"] = SHA
        p = subprocess.run([sys.executable, "-m", "lbsim_recorder", "-m", "drivepkg.run", "4", "0"],
                           env=env, cwd=self.tmp, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("argv ['4', '0'] __main__", p.stdout)
        self._check(rec2, 4)

    def test_no_output_given_is_an_error(self):
        p = subprocess.run([sys.executable, "-m", "lbsim_recorder", "-m", "json.tool", "--help"],
                           env=_env(), cwd=self.tmp, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("LBSIM_RECORD", p.stderr)

    def test_two_line_startup_and_atexit(self):
        rec = os.path.join(self.tmp, "c.rec")
        code = ("import lbsim_recorder; lbsim_recorder.install(%r, commit=%r)\n" % (rec, SHA)
                + SCRIPT.replace("sys.argv[1]", "'5'").replace("sys.exit(int(sys.argv[2]))", ""))
        p = subprocess.run([sys.executable, "-c", code], env=_env(), cwd=self.tmp,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self._check(rec, 5)


class CommitDetectionTest(RecorderCase):
    def make_checkout(self, head, loose=None, packed=None, gitfile=False):
        root = tempfile.mkdtemp(dir=self.tmp)
        gitdir = os.path.join(root, ".git")
        if gitfile:
            gitdir = os.path.join(self.tmp, "elsewhere-%s" % os.path.basename(root))
            with open(os.path.join(root, ".git"), "w") as fh:
                fh.write("gitdir: %s\n" % gitdir)
        os.makedirs(os.path.join(gitdir, "refs", "heads"))
        with open(os.path.join(gitdir, "HEAD"), "w") as fh:
            fh.write(head + "\n")
        for ref, sha in (loose or {}).items():
            path = os.path.join(gitdir, *ref.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(sha + "\n")
        if packed:
            with open(os.path.join(gitdir, "packed-refs"), "w") as fh:
                fh.write("# pack-refs with: peeled fully-peeled sorted\n")
                for ref, sha in packed.items():
                    fh.write("%s %s\n" % (sha, ref))
                    fh.write("^%s\n" % ("f" * 40))
        pkg = os.path.join(root, "src", "proxy")
        os.makedirs(pkg)
        return pkg

    def detect(self, pkg):
        old = sys.modules.get("proxy")
        mod = types.ModuleType("proxy")
        mod.__path__ = [pkg]
        sys.modules["proxy"] = mod
        try:
            return rec_commit.detect_commit()
        finally:
            if old is None:
                del sys.modules["proxy"]
            else:
                sys.modules["proxy"] = old

    def setUp(self):
        super().setUp()
        self._env = os.environ.pop("LBSIM_RECORD_COMMIT", None)

    def tearDown(self):
        if self._env is not None:
            os.environ["LBSIM_RECORD_COMMIT"] = self._env
        super().tearDown()

    def test_detached_head(self):
        self.assertEqual(self.detect(self.make_checkout(SHA)), SHA)

    def test_loose_ref(self):
        sha = "a" * 40
        pkg = self.make_checkout("ref: refs/heads/main", loose={"refs/heads/main": sha},
                                 packed={"refs/heads/main": "b" * 40})
        self.assertEqual(self.detect(pkg), sha)

    def test_packed_ref_through_gitdir_file(self):
        sha = "c" * 40
        pkg = self.make_checkout("ref: refs/heads/feature/x", packed={"refs/heads/other": "d" * 40,
                                                                       "refs/heads/feature/x": sha},
                                 gitfile=True)
        self.assertEqual(self.detect(pkg), sha)

    def test_unresolvable_and_env(self):
        pkg = self.make_checkout("ref: refs/heads/missing")
        self.assertIsNone(self.detect(pkg))
        os.environ["LBSIM_RECORD_COMMIT"] = "E" * 40
        try:
            self.assertEqual(self.detect(pkg), "e" * 40)
        finally:
            del os.environ["LBSIM_RECORD_COMMIT"]
        self.assertIsNone(self.detect(os.path.join(self.tmp, "no", "git", "here")))

    def test_header_uses_detection(self):
        sha = "9" * 40
        pkg = self.make_checkout("ref: refs/heads/main", packed={"refs/heads/main": sha})
        mod = types.ModuleType("proxy")
        mod.__path__ = [pkg]
        sys.modules["proxy"] = mod
        self.assertTrue(lbsim_recorder.install(self.path))
        del sys.modules["proxy"]
        header, _ = self.finish()
        self.assertEqual(header["proxy_commit"], sha)


if __name__ == "__main__":
    unittest.main()
