"""lbsim_recorder: records what a running CacheRoute Proxy's InstancePool and
Instance-selection strategies see and decide, for lbsim to replay.

Enabling (no edit of the Proxy's files):

(a) run the Proxy under the recorder::

        PYTHONPATH=/path/to/lbsim/recorder python -m lbsim_recorder \\
            --out /var/log/lbsim/proxy.rec [--commit SHA] -- test/demo_proxy.py ARGS...
        PYTHONPATH=... python -m lbsim_recorder --out FILE -m uvicorn proxy:proxy ARGS...

    (``LBSIM_RECORD=FILE`` stands in for a missing ``--out``); the recorder is
    installed, then the target runs through runpy as ``__main__``.

(b) two lines in whatever starts the Proxy::

        import lbsim_recorder
        lbsim_recorder.install("/var/log/lbsim/proxy.rec")

Disabling: do not install it; ``uninstall()`` puts every original method back,
writes a ``stop`` event and closes the file.

What install does: patches, at class level, ``InstancePool``'s ``__init__``,
``upsert``, ``heartbeat``, ``report_resource_snapshot``, ``remove``,
``begin_request``, ``end_request`` and ``list`` and the ``select`` of every
``BaseInstanceStrategy`` subclass, for modules imported already and, through a
``sys.meta_path`` hook, for ``proxy.resource.instance_pool`` and
``proxy.strategy.*`` imported later (patcher.py). Only the outermost select of
a thread records a decision (least_load's inner round-robin does not). The
wrappers never change an argument, a return value, an exception or the number
of calls; a failure inside the recorder is counted (``stats()``), marked in the
file with a ``lost`` event ("recorder error: Type") and otherwise swallowed.

Privacy: only ids and the values of the format are read. The hint's
``request`` object is only asked for ``Request_ID``; no body, prompt or header
is read or written.

Writing is off the request path (sink.py): the wrappers append a tuple to a
bounded deque; a daemon thread serialises and writes batches, flushing each;
atexit and uninstall drain it. A full queue or a failed write drops events,
counts them and leaves a ``lost`` event where they are missing; ``max_bytes``
ends the recording with ``lost`` + ``stop``.

queue_depths capture: the default ("copy") copies the hint's
``queue_depths`` down to its per-Instance dicts at the decision (the values are
numbers) and serialises it on the writer thread. Measured with
recorder/bench_recorder.py (16 Instances, a 16 x 9-key hint, least_load, us
per request = decision + begin + end, median; a machine where
``python3 -m timeit "sum(range(1000))"`` takes 13 us):

    fake pool           no recorder  26.8  copy +12.0 (+59.5 writer)  reference +8.8 (+59.2)  json +46.0 (+23.6)
    CacheRoute 28e857c  no recorder 105.0  copy +15.6 (+67.4 writer)  reference +10.3 (+65.7) json +53.5 (+26.2)

Serialising on the request path ("json") costs a request ~40 us more for the
same total CPU (json.dumps of 16 x 9 values). Keeping a bare reference
("reference") saves ~5 us over the copy and is safe for the Proxy as it is:
``select_instance`` builds ``hint`` as a local dict per request and stores in
it the return of ``queue_mgr.queue_pressure_snapshot()``
(``queue_depth_snapshot()`` at 8b116b6), a brand-new dict of new per-Instance
dicts. The copy is the default because a recording must hold what the
strategy saw even if a Proxy (or a harness driving its classes) changed its
snapshot in place after the decision; before 8b116b6 the hint carries no
queue_depths at all.

The recording format (JSON Lines, fixed; the C++ importer reads it): line 1
``{"lbsim_record":1,"recorder":"lbsim_recorder 1","clock":"monotonic_ns",
"start_ns":N,"start_unix":F,"proxy_commit":"40-hex"|null,"python":"3.x.y",
"pid":N}``, then one event per line, each with ``"ev"`` and ``"ns"``
(``time.monotonic_ns()``), in the order things happened:

- ``{"ev":"pool","ns":N,"ttl_s":30}``
- ``{"ev":"register","ns":N,"instance":"a","weight":1.0,"inflight":0,"qps_1m":null}``
- ``{"ev":"heartbeat","ns":N,"instance":"a","ok":true,"inflight":3,"qps_1m":0.5}``
  (inflight / qps_1m only when ok)
- ``{"ev":"refresh","ns":N,"instance":"a","ok":true}``
- ``{"ev":"remove","ns":N,"instance":"a","ok":true}``
- ``{"ev":"begin"|"end","ns":N,"instance":"a","ok":true,"request":"r1"|null}``
- ``{"ev":"decision","ns":N,"request":"r1"|null,"strategy":"LeastLoadStrategy",
  "candidates":[{"id":"a","weight":1.0,"inflight":0,"qps_1m":null},...],
  "queue_depths":{...},"chosen":"a"}`` (``"error":"Class: message"`` instead
  of ``chosen`` when select raised; ``queue_depths`` absent when the hint is
  not a dict or lacks the key). Before the queue-aware hint (df8382d, 2f1019a,
  55b32e9) the Proxy passes req_obj itself as the hint; ``request`` is then
  its ``Request_ID``.
- ``{"ev":"no_instances","ns":N,"request":"r1"|null}``
- ``{"ev":"lost","ns":N,"events":K,"reason":"queue full"|"write failed: ..."|
  "max_bytes"|"recorder error: ..."}``
- ``{"ev":"stop","ns":N}``

Non-finite floats are written as "nan", "inf", "-inf".
"""
from __future__ import annotations

import atexit
import os
import platform
import threading
import time
import warnings

from . import commit as _commit
from . import patcher as _patcher
from . import sink as _sink
from . import wrappers as _wrappers

__all__ = ["install", "uninstall", "installed", "stats", "flush", "RECORDER"]

RECORDER = "lbsim_recorder 1"
FORMAT_VERSION = 1

_lock = threading.RLock()
_current = None          # (Sink, Patcher) while installed
_install_args = {}      # for re-installing in a forked child ({pid} paths)
_atexit_registered = False
_fork_registered = False


def _header(proxy_commit):
    return {
        "lbsim_record": FORMAT_VERSION,
        "recorder": RECORDER,
        "clock": "monotonic_ns",
        "start_ns": time.monotonic_ns(),
        "start_unix": time.time(),
        "proxy_commit": proxy_commit,
        "python": platform.python_version(),
        "pid": os.getpid(),
    }


def install(path, *, commit=None, max_queue=100_000, max_bytes=None,
            flush_interval=0.05, queue_depths=_wrappers.QD_COPY):
    """Start recording to ``path`` (a file name, truncated, or an open file
    object). Returns True when recording, False when it could not start (a
    warning says why; the Proxy runs on unrecorded). Installing again first
    uninstalls the previous recording.

    A ``{pid}`` in a file name is replaced by the process id, and a process
    forked from this one then records to its own file (gunicorn-style
    workers); without it a forked child runs unrecorded (two processes must
    not write one file).

    commit: the Proxy's 40-hex commit; None detects it (commit.py).
    max_queue: events held in memory before new ones are dropped (and counted).
    max_bytes: stop recording before the file would pass this size.
    flush_interval: seconds between the writer's batches.
    queue_depths: "copy" (default), "reference" or "json" (see the module docstring).
    """
    global _current, _atexit_registered, _fork_registered
    if queue_depths not in _wrappers.QD_MODES:
        raise ValueError("queue_depths must be 'copy', 'reference' or 'json'")
    with _lock:
        if _current is not None:
            uninstall()
        try:
            if commit is None:
                proxy_commit = _commit.detect_commit()
            else:
                proxy_commit = str(commit).strip().lower()
                if not _commit.is_sha(proxy_commit):
                    warnings.warn("lbsim_recorder: commit %r is not a 40-hex sha; "
                                  "recording proxy_commit null" % (commit,))
                    proxy_commit = None
        except Exception:
            proxy_commit = None
        template = path if isinstance(path, str) and "{pid}" in path else None
        if template is not None:
            path = template.replace("{pid}", str(os.getpid()))
        _install_args.clear()
        _install_args.update(template=template, commit=proxy_commit, max_queue=max_queue,
                             max_bytes=max_bytes, flush_interval=flush_interval,
                             queue_depths=queue_depths)
        try:
            sink = _sink.Sink(path, _header(proxy_commit), max_queue=max_queue,
                              max_bytes=max_bytes, interval=flush_interval)
        except Exception as e:
            warnings.warn("lbsim_recorder: not recording, cannot open %r: %s" % (path, e))
            return False
        patcher = _patcher.Patcher(sink, queue_depths)
        _current = (sink, patcher)
        _wrappers.request_var.set(None)
        patcher.patch_loaded()
        patcher.install_finder()
        if not _atexit_registered:
            atexit.register(_at_exit)
            _atexit_registered = True
        if not _fork_registered and hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=_after_fork_in_child)
            _fork_registered = True
        return True


def uninstall():
    """Restore the original methods, write ``stop``, close the recording."""
    global _current
    with _lock:
        cur, _current = _current, None
        if cur is None:
            return False
        sink, patcher = cur
        sink.active = False
        patcher.unpatch_all()
        sink.close()
        return True


def installed() -> bool:
    return _current is not None


def stats():
    """Counters of the current recording (None when not installed)."""
    cur = _current
    if cur is None:
        return None
    s = dict(cur[0].stats)
    s["queued"] = len(cur[0].q)
    return s


def flush():
    """Write what is queued now (normally the writer thread does this)."""
    cur = _current
    if cur is not None:
        cur[0].flush()


def _at_exit():
    try:
        uninstall()
    except Exception:
        pass


def _after_fork_in_child():
    # The writer thread does not exist in a forked child and two processes
    # must not write one file: the child runs unrecorded.
    global _current, _lock
    _lock = threading.RLock()           # the parent's may have been held at fork
    cur, _current = _current, None
    if cur is None:
        return
    try:
        cur[0].active = False
        cur[0]._closed = True
        cur[1].unpatch_all()
        args = dict(_install_args)
        template = args.pop("template", None)
        if template is not None:
            install(template, **args)
    except Exception:
        pass
