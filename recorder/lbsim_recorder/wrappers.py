"""The wrappers that replace InstancePool's methods and the strategies' select.

Every wrapper calls the original exactly once, with the arguments it was
given, and returns its result or lets its exception through unchanged.
Everything the recorder does around that call is inside ``try`` blocks that
count a failure (Sink.recorder_error) instead of raising it. On the request
path a wrapper only reads a few attributes into a tuple and appends it to the
sink's queue; serialisation happens on the writer thread.

What is read (and nothing else): instance ids, weight, load.inflight,
load.qps_1m, the pool's ttl_s, result ok flags, the chosen Instance's id, the
request's ``Request_ID``, the hint's ``queue_depths`` value, the class name of
the strategy and the class name and message of an exception from select.
"""
from __future__ import annotations

import contextvars
import functools
import sys
import threading
import time

from . import encoding

# The request whose decision this context made last: set by the outermost
# select, read by begin_request / end_request. The Proxy runs every request in
# its own task (and the response stream in a context copied from it), so a
# request's begin/end see its own decision.
request_var = contextvars.ContextVar("lbsim_recorder_request", default=None)

_tls = threading.local()     # .depth: select nesting, .pool: pool-method nesting
_SEQUENCES = (list, tuple)

QD_COPY = "copy"
QD_REFERENCE = "reference"
QD_JSON = "json"
QD_MODES = (QD_COPY, QD_REFERENCE, QD_JSON)


def copy_queue_depths(qd):
    """The hint's queue_depths as it is now, copied down to the values of
    its per-Instance dicts (the snapshot's three levels: the snapshot,
    per_instance, one dict per Instance); values are numbers or strings,
    which nothing can change. A later change of the snapshot in place then
    cannot reach the recording."""
    if type(qd) is not dict:
        return qd
    out = {}
    for key, value in qd.items():
        if type(value) is dict:
            value = {k: (dict(v) if type(v) is dict else v) for k, v in value.items()}
        out[key] = value
    return out


def _request_id(obj):
    rid = getattr(obj, "Request_ID", None)
    return None if rid is None else str(rid)


def _error_text(e: BaseException) -> str:
    try:
        msg = str(e)
    except Exception:
        msg = "<unprintable>"
    return "%s: %s" % (type(e).__name__, msg)


def make_select_wrapper(orig, sink, qd_mode=QD_COPY):
    put = sink.put
    mono = time.monotonic_ns
    set_request = request_var.set
    tls = _tls
    as_json = qd_mode == QD_JSON
    as_copy = qd_mode == QD_COPY
    raw_json = encoding.RawJSON
    dumps = encoding.dumps

    def capture(self, args, kwargs):
        if args:
            instances = args[0]
        else:
            instances = kwargs.get("instances")
        if len(args) > 1:
            hint = args[1]
        else:
            hint = kwargs.get("hint")
        if type(instances) not in _SEQUENCES:
            # never iterate something the strategy still has to consume
            raise TypeError("instances is a %s" % type(instances).__name__)
        cands = []
        append = cands.append
        for it in instances:
            try:
                load = it.load
                append((it.instance_id, it.weight, load.inflight, load.qps_1m))
            except AttributeError:
                # what least_load sees for a missing attribute: unknown
                load = getattr(it, "load", None)
                append((it.instance_id, getattr(it, "weight", None),
                        getattr(load, "inflight", None), getattr(load, "qps_1m", None)))
        has_qd = False
        qd = None
        if isinstance(hint, dict):
            req = hint.get("request")
            rid = None if req is None else _request_id(req)
            if "queue_depths" in hint:
                has_qd = True
                qd = hint["queue_depths"]
                if as_copy:
                    qd = copy_queue_depths(qd)
                elif as_json:
                    qd = raw_json(dumps(qd))
        else:
            # Proxy commits before the queue-aware hint pass req_obj itself
            rid = None if hint is None else _request_id(hint)
        return rid, type(self).__name__, cands, has_qd, qd

    @functools.wraps(orig)
    def select(self, *args, **kwargs):
        if not sink.active or getattr(tls, "depth", 0):
            return orig(self, *args, **kwargs)
        tls.depth = 1
        try:
            ns = mono()
            try:
                rec = capture(self, args, kwargs)
                set_request(rec[0])
            except Exception as e:
                rec = None
                try:
                    set_request(None)
                except Exception:
                    pass
                sink.recorder_error(e)
            try:
                ret = orig(self, *args, **kwargs)
            except BaseException as e:
                if rec is not None:
                    try:
                        put(("decision", ns, rec[0], rec[1], rec[2], rec[3], rec[4], None,
                             _error_text(e)))
                    except Exception as e2:
                        sink.recorder_error(e2)
                raise
            if rec is not None:
                try:
                    put(("decision", ns, rec[0], rec[1], rec[2], rec[3], rec[4],
                         getattr(ret, "instance_id", None), None))
                except Exception as e:
                    sink.recorder_error(e)
            return ret
        finally:
            tls.depth = 0

    select.__lbsim_wrapped__ = orig
    return select


def _arg(args, kwargs, i, name, default=None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _pool_guarded(orig, sink, after):
    """A pool-method wrapper: call through, then ``after(self, args, kwargs, ret)``
    returns the event tuple to queue (or None). Nested pool calls (a subclass
    calling super()) record once."""
    put = sink.put
    tls = _tls

    @functools.wraps(orig)
    def wrapper(self, *args, **kwargs):
        if not sink.active or getattr(tls, "pool", 0):
            return orig(self, *args, **kwargs)
        tls.pool = 1
        try:
            ret = orig(self, *args, **kwargs)
        finally:
            tls.pool = 0
        if sink.active:
            try:
                ev = after(self, args, kwargs, ret)
                if ev is not None:
                    put(ev)
            except Exception as e:
                sink.recorder_error(e)
        return ret

    wrapper.__lbsim_wrapped__ = orig
    return wrapper


def make_pool_wrappers(sink):
    """name -> factory(orig) for the InstancePool methods the recorder patches."""
    mono = time.monotonic_ns
    get_request = request_var.get

    def after_init(self, args, kwargs, ret):
        ttl = getattr(self, "_ttl_s", None)
        if ttl is None:
            ttl = getattr(self, "ttl_s", None)
        if ttl is None:
            ttl = _arg(args, kwargs, 0, "ttl_s")
        return ("pool", mono(), ttl)

    def after_upsert(self, args, kwargs, ret):
        it = ret
        if it is None or not hasattr(it, "instance_id"):
            it = self._items.get(_arg(args, kwargs, 0, "instance_id"))
        load = getattr(it, "load", None)
        return ("register", mono(), it.instance_id, getattr(it, "weight", None),
                getattr(load, "inflight", None), getattr(load, "qps_1m", None))

    def after_heartbeat(self, args, kwargs, ret):
        ns = mono()
        iid = _arg(args, kwargs, 0, "instance_id")
        ok = bool(getattr(ret, "ok", ret))
        if not ok:
            return ("heartbeat", ns, iid, False, None, None)
        it = self._items.get(iid)
        load = getattr(it, "load", None)
        return ("heartbeat", ns, iid, True, getattr(load, "inflight", None),
                getattr(load, "qps_1m", None))

    def simple(kind):
        def after(self, args, kwargs, ret):
            return (kind, mono(), _arg(args, kwargs, 0, "instance_id"), bool(ret))
        return after

    def with_request(kind):
        def after(self, args, kwargs, ret):
            return (kind, mono(), _arg(args, kwargs, 0, "instance_id"), bool(ret), get_request())
        return after

    def after_list(self, args, kwargs, ret):
        # An empty alive list in select_instance: the Proxy answers 503
        # without asking the strategy. Frame 2 is the wrapper's caller.
        if ret or _arg(args, kwargs, 0, "include_dead", False):
            return None
        frame = sys._getframe(2)
        try:
            if frame.f_code.co_name != "select_instance":
                return None
            req = frame.f_locals.get("req_obj")
            return ("no_instances", mono(), None if req is None else _request_id(req))
        finally:
            del frame

    def guarded(after):
        return lambda orig: _pool_guarded(orig, sink, after)

    return {
        "__init__": guarded(after_init),
        "upsert": guarded(after_upsert),
        "heartbeat": guarded(after_heartbeat),
        "report_resource_snapshot": guarded(simple("refresh")),
        "remove": guarded(simple("remove")),
        "begin_request": guarded(with_request("begin")),
        "end_request": guarded(with_request("end")),
        "list": guarded(after_list),
    }
