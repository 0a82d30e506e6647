"""An independent model of lbsim's LLM engine (docs/engine.md), written from
that page's rules alone: the request, admission, event order, step,
step-end, allocation/eviction and completion rules; the figures; the
signals and the merge rule; and the engine log. Comments quote the section
each piece implements as [EM: section].

It replays a trace whose Instances are all registered in its header and
stay alive (the shapes engine_differential_test.py generates) through one
strategy, round_robin or least_load as the latest Proxy runs them (taken
from proxy_profiles_test.py, itself written from proxy-versions.md).

Standard library only; runs on Python 3.11.
"""

import heapq
import math
import os
import struct
import sys
from collections import OrderedDict, deque

sys.path.insert(0, os.path.dirname(__file__))
import proxy_profiles_test as pv  # noqa: E402

MASK = (1 << 64) - 1
# [EM: The rules, Event order]: classes at equal times.
COMPLETION_CLASS, METRIC_CLASS, TRACE_CLASS, STEP_CLASS = 0, 1, 2, 3

# [EM: The Proxy's signals]: the seven keys, in least_load's order.
SIGNAL_KEYS = (
    "active_prepare",
    "active_ready",
    "prepare_queue_depth",
    "ready_queue_depth",
    "pending_prefill_count",
    "active_decode_count",
    "predicted_total_backlog_ms",
)


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def jitter_unit(seed, snapshot, instance):
    """[what-if.md: Stale metrics] a uniform [0, 1) from (seed, k, Instance) alone."""
    h = splitmix64(splitmix64(splitmix64(seed) ^ snapshot) ^ instance)
    return (h >> 11) * 2.0 ** -53


def ceil_div(a, b):
    return -(-a // b)


class Histogram:
    """[EM: Figures] buckets 1/256 of a power of two wide (a double's bits >> 44),
    each with its count and largest value; percentile = the largest value of the
    bucket holding the nearest-rank value; count, max and mean exact."""

    def __init__(self):
        self.buckets = {}  # bits >> 44 -> [count, max]
        self.count = 0
        self.sum = 0.0
        self.max = 0.0

    def add(self, v):
        key = struct.unpack("<Q", struct.pack("<d", v))[0] >> 44
        b = self.buckets.setdefault(key, [0, 0.0])
        b[0] += 1
        b[1] = max(b[1], v)
        self.count += 1
        self.sum += v
        self.max = max(self.max, v)

    def merge(self, other):
        for key, (n, m) in other.buckets.items():
            b = self.buckets.setdefault(key, [0, 0.0])
            b[0] += n
            b[1] = max(b[1], m)
        self.count += other.count
        self.sum += other.sum
        self.max = max(self.max, other.max)

    def percentile(self, p):
        rank = (p * self.count + 99) // 100
        seen = 0
        for key in sorted(self.buckets):
            seen += self.buckets[key][0]
            if seen >= rank:
                return self.buckets[key][1]
        return self.max

    def summary(self):
        if self.count == 0:
            return None
        return {
            "count": self.count,
            "p50": self.percentile(50),
            "p90": self.percentile(90),
            "p99": self.percentile(99),
            "max": self.max,
            "mean": self.sum / self.count,
        }


class Level:
    """A stepping level: the area under it (level x time, added at each change
    while the level is not 0) and its peak."""

    def __init__(self):
        self.level = 0
        self.peak = 0
        self.since = 0.0
        self.area = 0.0

    def set(self, t, level):
        stretch = (self.since, t, self.level)
        if self.level != 0:
            self.area += self.level * (t - self.since)
        self.since = t
        self.level = level
        self.peak = max(self.peak, level)
        return stretch


def window_index(t, w):
    k = math.floor(t / w)
    while (k + 1) * w <= t:
        k += 1
    while k * w > t:
        k -= 1
    return k


class Cache:
    """[EM: Allocation and eviction] N blocks; private blocks plus U per resident
    unit are in use; unreferenced units stay resident, evictable, released order."""

    def __init__(self, blocks, unit_blocks):
        self.n = blocks
        self.u = unit_blocks
        self.private = 0
        self.refs = {}  # resident unit -> references
        self.evictable = OrderedDict()  # least recently released first
        self.evictions = 0

    def used(self):
        return self.private + len(self.refs) * self.u

    def available(self):
        return self.n - self.used() + len(self.evictable) * self.u

    def held(self):
        return self.used() - len(self.evictable) * self.u

    def allocate(self, k):
        if k > self.available():
            return False
        while self.n - self.used() < k:
            unit, _ = self.evictable.popitem(last=False)
            del self.refs[unit]
            self.evictions += 1
        self.private += k
        return True

    def ref(self, unit):
        if self.refs[unit] == 0:
            del self.evictable[unit]
        self.refs[unit] += 1

    def unref(self, unit):
        self.refs[unit] -= 1
        if self.refs[unit] == 0:
            self.evictable[unit] = True

    def publish(self, unit):
        self.refs[unit] = 1
        self.private -= self.u


class Request:
    def __init__(self, seq, arrival, i, o, units):
        self.seq = seq
        self.arrival = arrival
        self.i = i
        self.o = o
        self.k = i  # known tokens
        self.c = 0  # computed
        self.g = 0  # made
        self.units = units
        self.holds = [False] * len(units)
        self.held = 0
        self.private = 0
        self.next_unit = 0
        self.n = 0
        self.enqueued = None
        self.scheduled = None
        self.first_step = None
        self.first_out = None
        self.last_step = None
        self.hit_tokens = 0
        self.prefill_tokens = 0
        self.preemptions = 0


class Engine:
    """One Instance's engine.  [EM: The rules]"""

    def __init__(self, cfg, p):
        self.cfg = cfg
        self.b = cfg["block_tokens"]
        self.p = p
        self.cache = Cache(cfg["kv_blocks"], p // self.b)
        self.waiting = deque()
        self.running = []
        self.busy = False
        self.steps = 0
        self.batch = []
        self.preempted = []
        self.prefill = self.decode = 0
        self.step_start = 0.0
        self.step_speed = 1.0
        self.preparing = 0
        self.preparing_tokens = 0
        self.pending = 0
        self.decoding = 0
        self.chunked = 0  # prompt chunks cut short by the budget

    def release(self, r):
        for j in reversed(range(len(r.units))):  # deepest unit first
            if r.holds[j]:
                r.holds[j] = False
                self.cache.unref(r.units[j])
        self.cache.private -= r.private
        r.private = 0
        r.held = 0

    def preempt_last(self):
        v = self.running.pop()
        self.release(v)
        v.c = 0
        v.next_unit = 0
        v.preemptions += 1
        self.waiting.appendleft(v)
        self.preempted.append(v)
        return v

    def form(self, s):
        """[EM: A step] 1. running, 2. waiting (no preemption), 3. the batch."""
        self.batch, self.preempted = [], []
        budget = self.cfg["max_batched_tokens"]
        i = 0
        while i < len(self.running) and budget > 0:
            r = self.running[i]
            n = min(r.k - r.c, budget)
            stop = False
            while True:
                need = ceil_div(r.c + n - r.held * self.p, self.b) - r.private
                if self.cache.allocate(need):
                    r.private += need
                    break
                if self.preempt_last() is r:
                    stop = True
                    break
            if stop:
                break
            r.n = n
            budget -= n
            self.batch.append(r)
            i += 1
        if not self.preempted:
            while self.waiting and len(self.running) < self.cfg["max_running"] and budget > 0:
                r = self.waiting[0]
                usable = min(len(r.units), (r.k - 1) // self.p)
                h = 0
                while h < usable and r.units[h] in self.cache.refs:
                    h += 1
                n = min(r.k - h * self.p, budget)
                need = ceil_div(n, self.b)
                # Without evicting its own cached units: those now evictable stay
                # (a prompt may name a unit twice).
                revived = len({r.units[j] for j in range(h) if self.cache.refs[r.units[j]] == 0})
                if need > self.cache.available() - revived * self.cache.u:
                    break
                for j in range(h):
                    self.cache.ref(r.units[j])
                    r.holds[j] = True
                r.held = h
                assert self.cache.allocate(need)
                r.private = need
                r.c = h * self.p
                r.next_unit = h
                r.n = n
                if r.scheduled is None:
                    r.scheduled = s
                    r.hit_tokens = h * self.p
                self.waiting.popleft()
                self.running.append(r)
                budget -= n
                self.batch.append(r)
        self.prefill = self.decode = 0
        for r in self.batch:
            if r.c + r.n < r.k:
                self.chunked += 1
            if r.g > 0 and r.k - r.c == 1:
                self.decode += r.n
            else:
                self.prefill += r.n
        return bool(self.batch)

    def finish(self, e):
        """[EM: A step's end]; returns (made a token, finished), in batch order."""
        tokens, finished = [], []
        for r in self.batch:
            if not (r.g > 0 and r.k - r.c == 1):
                r.prefill_tokens += r.n
            r.c += r.n
            r.n = 0
            while r.next_unit < len(r.units) and (r.next_unit + 1) * self.p <= r.c:
                j = r.next_unit
                r.next_unit += 1
                if r.units[j] in self.cache.refs:
                    continue
                self.cache.publish(r.units[j])
                r.private -= self.cache.u
                r.holds[j] = True
                r.held += 1
            if r.c != r.k:
                continue
            if r.g < r.o:
                r.g += 1
                r.k += 1
                tokens.append(r)
            if r.g == r.o:
                finished.append(r)
        if finished:
            done = set(id(r) for r in finished)
            self.running = [r for r in self.running if id(r) not in done]
            for r in finished:
                self.release(r)
        return tokens, finished


class Run:
    """One strategy run over a static pool.  `opts`: time_unit, prefix_block_tokens,
    speeds (by id), signal (interval, delay, jitter) or None, seed, window or None."""

    def __init__(self, header, cfg, strategy, opts):
        self.cfg = cfg
        self.ids = [inst["id"] for inst in header["instances"]]
        self.index = {iid: k for k, iid in enumerate(self.ids)}
        self.speed = [inst.get("speed", 1) for inst in header["instances"]]
        self.u = 1e-3 if header.get("time_unit", "s") == "ms" else 1e-6
        b = cfg["block_tokens"]
        self.p = header.get("prefix_block_tokens", b)
        assert self.p % b == 0
        self.pool = {iid: pv.Instance(inst.get("inflight"), inst.get("qps_1m"), True)
                     for iid, inst in zip(self.ids, header["instances"])}
        profile = pv.resolve_profile("latest")
        if strategy == "rr":
            self.strategy = pv.RoundRobinStrategy(profile, "3.12")
        else:
            self.strategy = pv.LeastLoadWeighted(profile, "3.12")
        self.name = "round_robin" if strategy == "rr" else "least_load"
        self.engines = [Engine(cfg, self.p) for _ in self.ids]
        self.events = []  # (time, class, seq, kind, instance, arg)
        self.seq = 0
        self.opts = opts
        self.log = []
        self.decisions = []
        # Figures per Instance.
        n = len(self.ids)
        self.counters = [dict(served=0, rejected=0, preemptions=0, preempted_requests=0,
                              input=0, prefix_hit=0, prefill=0, decode=0, output=0, steps=0,
                              busy=0.0) for _ in range(n)]
        self.hists = [{k: Histogram() for k in ("queue_delay", "ttft", "tpot", "e2e", "itl")}
                      for _ in range(n)]
        self.batch_level = [Level() for _ in range(n)]
        self.kv_level = [Level() for _ in range(n)]
        self.outstanding = [Level() for _ in range(n)]
        self.window = opts.get("window")
        self.cells = {}  # (window, instance) -> dict
        self.first_window = None
        # Signals: [EM: The Proxy's signals] the stale-metrics machinery.
        self.signal = opts.get("signal")
        self.metric = []  # (time, class, seq, kind, number, instance)
        self.metric_seq = 0
        self.snapshots = {}
        self.seen = {}  # instance -> (snapshot number, values)
        self.started = False
        self.span_start = self.span_end = 0.0

    # -- events ------------------------------------------------------------
    def push(self, time, cls, kind, instance, arg=None):
        heapq.heappush(self.events, (time, cls, self.seq, kind, instance, arg))
        self.seq += 1

    def push_metric(self, time, kind, number, instance):
        heapq.heappush(self.metric, (time, METRIC_CLASS, self.metric_seq, kind, number, instance))
        self.metric_seq += 1

    def run_before(self, key):
        while True:
            candidates = []
            if self.events and self.events[0][:2] < key:
                candidates.append(("internal", self.events[0][:3]))
            if self.metric and self.metric[0][:2] < key:
                candidates.append(("metric", self.metric[0][:3]))
            if not candidates:
                return
            which = min(candidates, key=lambda c: c[1][:2])[0]
            if which == "internal":
                self.run_internal()
            else:
                self.run_metric()

    def run_internal(self):
        time, cls, _, kind, i, arg = heapq.heappop(self.events)
        if kind == "completion":
            self.complete(i, time)
        elif kind == "enqueue":
            eng = self.engines[i]
            eng.preparing -= 1
            eng.preparing_tokens -= arg.i
            self.enqueue(i, arg, time)
        elif kind == "start":
            self.start_step(i, time)
        else:
            self.end_step(i, time)

    # -- windows -----------------------------------------------------------
    def cell(self, k, i):
        return self.cells.setdefault((k, i), dict(output=0, batch=0.0, kv=0.0, ttft_sum=0.0,
                                                  ttft_count=0))

    def add_area(self, i, stretch, field):
        start, end, level = stretch
        if not self.window or not (end > start) or level == 0:
            return
        w = self.window
        for k in range(window_index(start, w), window_index(end, w) + 1):
            lo = max(start, k * w)
            hi = min(end, (k + 1) * w)
            if hi > lo:
                self.cell(k, i)[field] += level * (hi - lo)

    def set_batch(self, i, t, level):
        self.add_area(i, self.batch_level[i].set(t, level), "batch")

    def set_kv(self, i, t, level):
        self.add_area(i, self.kv_level[i].set(t, level), "kv")

    # -- the engine --------------------------------------------------------
    def enqueue(self, i, r, time):
        """[EM: Admission] joins the back; an idle engine schedules a step start."""
        eng = self.engines[i]
        eng.waiting.append(r)
        if not eng.busy:
            eng.busy = True
            self.push(time, STEP_CLASS, "start", i)

    def start_step(self, i, s):
        eng = self.engines[i]
        if not eng.form(s):
            eng.busy = False
            return
        c = self.counters[i]
        c["preemptions"] += len(eng.preempted)
        v = self.speed[i]
        b = self.cfg["beta_us"]
        dt = (b[0] + b[1] * eng.prefill + b[2] * eng.decode) / v * self.u
        eng.step_start = s
        eng.step_speed = v
        eng.steps += 1
        self.set_batch(i, s, len(eng.batch))
        self.set_kv(i, s, eng.cache.held())
        self.push(s + dt, COMPLETION_CLASS, "end", i)

    def end_step(self, i, e):
        eng = self.engines[i]
        c = self.counters[i]
        c["steps"] += 1
        c["busy"] += e - eng.step_start
        c["prefill"] += eng.prefill
        c["decode"] += eng.decode
        self.log.append({
            "type": "step", "strategy": self.name, "instance": self.ids[i], "step": eng.steps,
            "start": eng.step_start, "end": e, "prefill_tokens": eng.prefill,
            "decode_tokens": eng.decode, "batch": [[r.seq, r.n] for r in eng.batch],
            "preempted": [r.seq for r in eng.preempted], "kv_blocks": eng.cache.held()})
        tokens, finished = eng.finish(e)
        post = self.cfg["alpha_us"][2] / eng.step_speed * self.u
        c["output"] += len(tokens)
        if self.window and tokens:
            self.cell(window_index(e, self.window), i)["output"] += len(tokens)
        h = self.hists[i]
        for r in tokens:
            if r.g == 1:
                eng.pending -= 1
                eng.decoding += 1
                r.first_step = e
                r.first_out = e + post
                h["ttft"].add(r.first_out - r.arrival)
                if self.window:
                    cell = self.cell(window_index(r.first_out, self.window), i)
                    cell["ttft_sum"] += r.first_out - r.arrival
                    cell["ttft_count"] += 1
            else:
                h["itl"].add(e - r.last_step + post)
            r.last_step = e
        for r in finished:
            # BLIS: token k reaches the client k x alpha[2] after its step.
            self.served(i, r, e + max(r.o, 1) * post, post)
        self.set_batch(i, e, 0)
        self.set_kv(i, e, eng.cache.held())
        if eng.waiting or eng.running:
            self.push(e, STEP_CLASS, "start", i)
        else:
            eng.busy = False

    def served(self, i, r, end, post):
        eng = self.engines[i]
        if r.o == 0:
            eng.pending -= 1
        else:
            eng.decoding -= 1
        c = self.counters[i]
        c["served"] += 1
        if r.preemptions > 0:
            c["preempted_requests"] += 1
        c["input"] += r.i
        c["prefix_hit"] += r.hit_tokens
        h = self.hists[i]
        h["queue_delay"].add(r.scheduled - r.arrival)
        h["e2e"].add(end - r.arrival)
        if r.o >= 2:
            h["tpot"].add((r.last_step - r.first_step) / (r.o - 1) + post)
        self.log_request(i, r, r.first_out, end, False)
        self.push(end, COMPLETION_CLASS, "completion", i)

    def log_request(self, i, r, first, end, rejected):
        self.log.append({
            "type": "request", "strategy": self.name, "request": r.seq, "instance": self.ids[i],
            "arrival": r.arrival, "enqueued": None if rejected else r.enqueued,
            "scheduled": r.scheduled, "first_token": first, "end": end, "input_tokens": r.i,
            "output_tokens": r.o, "prefix_hit_tokens": r.hit_tokens,
            "prefill_tokens": r.prefill_tokens, "preemptions": r.preemptions,
            "rejected": rejected})

    # -- the Proxy ---------------------------------------------------------
    def complete(self, i, t):
        """[PV: The pool] the completion sets max(0, (inflight or 0) - 1)."""
        inst = self.pool[self.ids[i]]
        inst.inflight = max(0, (inst.inflight or 0) - 1)
        self.outstanding[i].set(t, self.outstanding[i].level - 1)
        self.span_end = max(self.span_end, t)

    def signals(self, i):
        """[EM: The Proxy's signals] the seven values of Instance i now."""
        eng = self.engines[i]
        owed = eng.preparing_tokens
        for r in list(eng.waiting) + eng.running:
            if r.g == 0:
                owed += r.k - r.c
        b = self.cfg["beta_us"]
        backlog = (b[0] * eng.pending + b[1] * owed) / self.speed[i] / 1000.0
        return [float(eng.preparing), float(len(eng.running)), 0.0, float(len(eng.waiting)),
                float(eng.pending), float(eng.decoding), backlog]

    def run_metric(self):
        """[what-if.md: Stale metrics] snapshots at start + k S, publications D (+ jitter) later."""
        time, _, _, kind, number, instance = heapq.heappop(self.metric)
        interval, delay, jitter = self.signal
        if kind == "snapshot":
            values = [self.signals(i) for i in range(len(self.ids))]
            if jitter > 0:
                for i in range(len(self.ids)):
                    self.push_metric(time + delay + jitter * jitter_unit(self.opts["seed"], number, i),
                                     "publish", number, i)
            else:
                self.push_metric(time + delay, "publish", number, None)
            self.snapshots[number] = values
            self.push_metric(self.span_start + number * interval, "snapshot", number + 1, None)
            return
        values = self.snapshots[number]
        for i in (range(len(self.ids)) if instance is None else [instance]):
            if self.seen.get(i, (0, None))[0] < number:
                self.seen[i] = (number, values[i])

    def hint_for(self, hint):
        """[EM: What an arrival sees] published values replace the seven keys."""
        if not self.signal:
            return hint
        per = {}
        for iid in self.ids:
            entry = None
            if isinstance(hint, dict):
                depths = hint.get("queue_depths")
                if isinstance(depths, dict) and isinstance(depths.get("per_instance"), dict):
                    e = depths["per_instance"].get(iid)
                    entry = dict(e) if isinstance(e, dict) else None
            i = self.index[iid]
            if i in self.seen:
                entry = dict(entry or {})
                for key, value in zip(SIGNAL_KEYS, self.seen[i][1]):
                    entry[key] = value
            if entry is not None:
                per[iid] = entry
        return {"queue_depths": {"per_instance": per}}

    # -- the replay --------------------------------------------------------
    def arrival(self, e, seq):
        t = e["t"]
        if not self.started:
            self.started = True
            self.span_start = self.span_end = t
            if self.window:
                self.first_window = window_index(t, self.window)
            if self.signal:
                self.push_metric(t, "snapshot", 1, None)
        key = (t, TRACE_CLASS)
        self.run_before(key)
        self.span_end = max(self.span_end, t)
        candidates = list(self.ids)
        chosen, reason = self.strategy.select(candidates, self.pool, self.hint_for(e.get("hint")))
        self.decisions.append((seq, chosen, reason))
        i = self.index[chosen]
        inst = self.pool[chosen]
        inst.inflight = (inst.inflight or 0) + 1
        self.outstanding[i].set(t, self.outstanding[i].level + 1)
        eng = self.engines[i]
        cfg = self.cfg
        big = cfg["kv_blocks"] * cfg["block_tokens"]
        ii = max(e["input_tokens"], 1)
        o = e["output_tokens"]
        m = min(len(e.get("prefix_blocks", [])), ii // self.p)
        r = Request(seq, t, ii, o, list(e.get("prefix_blocks", []))[:m])
        if ii + o > big:
            self.counters[i]["rejected"] += 1
            self.log_request(i, r, None, t, True)
            self.complete(i, t)
            return
        eng.pending += 1
        a = cfg["alpha_us"]
        pre = (a[0] + a[1] * ii) / self.speed[i] * self.u
        r.enqueued = t + pre
        if pre > 0:
            eng.preparing += 1
            eng.preparing_tokens += ii
            self.push(r.enqueued, COMPLETION_CLASS, "enqueue", i, r)
        else:
            self.enqueue(i, r, t)

    def finish_run(self):
        while self.events:
            self.run_internal()
        end = self.span_end
        for i in range(len(self.ids)):
            self.outstanding[i].set(end, self.outstanding[i].level)
        for i in range(len(self.ids)):
            self.add_area(i, self.batch_level[i].set(end, self.batch_level[i].level), "batch")
        for i in range(len(self.ids)):
            self.add_area(i, self.kv_level[i].set(end, self.kv_level[i].level), "kv")

    # -- figures -----------------------------------------------------------
    def figures(self):
        """[EM: Figures] per Instance and over all, as the JSON report writes them."""
        span = self.span_end - self.span_start
        seconds = span * (1e-3 if self.u == 1e-3 else 1.0)
        blocks = self.cfg["kv_blocks"]

        def ratio(a, b):
            return a / b if b > 0 else None

        def fig(c, h, batch_area, batch_peak, kv_area, kv_peak):
            return {
                "served": c["served"], "rejected": c["rejected"], "preemptions": c["preemptions"],
                "preempted_requests": c["preempted_requests"],
                "tokens": {"input": c["input"], "prefix_hit": c["prefix_hit"],
                           "prefill_computed": c["prefill"], "decode": c["decode"],
                           "output": c["output"]},
                "prefix_hit_rate": ratio(c["prefix_hit"], c["input"]),
                "queue_delay": h["queue_delay"].summary(), "ttft": h["ttft"].summary(),
                "tpot": h["tpot"].summary(), "itl": h["itl"].summary(), "e2e": h["e2e"].summary(),
                "throughput": {"output_tokens_per_s": ratio(c["output"], seconds),
                               "tokens_per_s": ratio(c["prefill"] + c["decode"], seconds)},
                "kv_utilisation": {"mean": ratio(kv_area, span * blocks), "peak": kv_peak / blocks},
                "batch": {"mean": ratio(batch_area, span), "peak": batch_peak},
                "steps": c["steps"], "busy": c["busy"],
            }

        per = []
        total = dict(served=0, rejected=0, preemptions=0, preempted_requests=0, input=0,
                     prefix_hit=0, prefill=0, decode=0, output=0, steps=0, busy=0.0)
        all_h = {k: Histogram() for k in ("queue_delay", "ttft", "tpot", "e2e", "itl")}
        batch_area = kv_area = 0.0
        batch_peak = kv_peak = 0
        for i in range(len(self.ids)):
            c = self.counters[i]
            for k in total:
                total[k] += c[k]
            for k in all_h:
                all_h[k].merge(self.hists[i][k])
            batch_area += self.batch_level[i].area
            kv_area += self.kv_level[i].area
            batch_peak = max(batch_peak, self.batch_level[i].peak)
            kv_peak = max(kv_peak, self.kv_level[i].peak)
            per.append(fig(c, self.hists[i], self.batch_level[i].area, self.batch_level[i].peak,
                           self.kv_level[i].area, self.kv_level[i].peak))
        n = max(len(self.ids), 1)
        overall = fig(total, all_h, batch_area / n, batch_peak, kv_area / n, kv_peak)
        return overall, per

    def window_figures(self):
        """Per window k from the first: per Instance output, batch_mean, kv_utilisation,
        ttft_mean, over the part of the window inside the span."""
        if not self.window:
            return []
        w = self.window
        last = window_index(self.span_end, w)
        if last * w == self.span_end and last > self.first_window:
            last -= 1  # the span ends on a boundary
        out = []
        blocks = self.cfg["kv_blocks"]
        for k in range(self.first_window, last + 1):
            start, end = k * w, (k + 1) * w
            covered = min(end, self.span_end) - max(start, self.span_start)
            row = {}
            for i, iid in enumerate(self.ids):
                c = self.cells.get((k, i), dict(output=0, batch=0.0, kv=0.0, ttft_sum=0.0,
                                                ttft_count=0))
                row[iid] = {
                    "output_tokens": c["output"],
                    "batch_mean": c["batch"] / covered if covered > 0 else None,
                    "kv_utilisation": c["kv"] / (covered * blocks) if covered > 0 else None,
                    "ttft_mean": c["ttft_sum"] / c["ttft_count"] if c["ttft_count"] else None,
                }
            out.append(row)
        return out


def simulate(header, events, cfg, strategy, opts):
    """Replays `events` (arrivals only) through one strategy; returns the Run."""
    run = Run(header, cfg, strategy, opts)
    for seq, e in enumerate(events, 1):
        run.arrival(e, seq)
    run.finish_run()
    return run
