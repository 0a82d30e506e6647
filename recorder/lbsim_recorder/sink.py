"""The bounded in-memory queue and the writer thread behind it.

Request path: the wrappers call ``Sink.put(event_tuple)``: one length check
and one ``deque.append`` (both atomic under the GIL). When the queue holds
``max_queue`` events the event is dropped and counted; the first event put
after room frees up is preceded by a ``lost`` event ("queue full") carrying
the count, so the gap sits exactly where the events went missing.

Writer thread (daemon): every ``interval`` seconds it drains the queue,
serialises each event to one JSON line (encoding.py) and writes the batch with
one write call, then flushes. A failed write (ENOSPC, EIO, a closed file, any
exception) drops the batch and counts it; the next batch that can be written
starts with a ``lost`` event ("write failed: <error>"). A partly written batch
is cut back to the last whole line when the file allows (truncate), so a
later line never continues a torn one. With ``max_bytes`` the writer stops
before a line would pass the limit: it writes a ``lost`` ("max_bytes") with
the events of that batch it could not write and a ``stop``, and the recorder
turns itself off (the wrappers then only call through).

``close()`` (uninstall, interpreter exit via atexit) drains what is queued,
writes any pending ``lost`` and a ``stop``, flushes and closes the file.
"""
from __future__ import annotations

import errno
import io
import os
import threading
import time
from collections import deque

from . import encoding

_monotonic_ns = time.monotonic_ns

# Bytes kept free under max_bytes for the closing lost + stop lines.
_TAIL_RESERVE = 160


class Sink:
    def __init__(self, target, header: dict, *, max_queue: int = 100_000,
                 max_bytes=None, interval: float = 0.05, on_stop=None):
        self.max_queue = int(max_queue)
        self.max_bytes = None if max_bytes is None else int(max_bytes)
        self.interval = float(interval)
        self.active = True            # read by the wrappers on every call
        self.q = deque()
        self.dropped = 0              # queue-full drops not yet reported (under _drop_lock)
        self._drop_lock = threading.Lock()
        self._on_stop = on_stop
        self.stats = {"queue_full": 0, "write_failed": 0, "written_events": 0,
                      "recorder_errors": 0, "max_bytes": 0}
        self._write_lost = 0          # events lost to write failures, not yet reported
        self._write_reason = None
        self._torn = False            # a failed write may have left part of a line
        self._written = 0             # bytes successfully written
        self._write_lock = threading.Lock()
        self._stopped = False         # stop line written (or max_bytes reached)
        self._closed = False
        self._wake = threading.Event()
        self._own_file = False
        self._text = False
        if isinstance(target, (str, bytes, os.PathLike)):
            # Unbuffered: one write call per batch, nothing held back in a
            # userspace buffer that a later failure could tear.
            self._f = open(target, "wb", buffering=0)
            self._own_file = True
        else:
            self._f = target
            self._text = isinstance(target, io.TextIOBase)
        self._pending_header = (encoding.dumps(header) + "\n").encode("ascii")
        self._write_batch([])         # header now if the file takes it
        self._thread = threading.Thread(target=self._run, name="lbsim-recorder-writer",
                                        daemon=True)
        self._thread.start()

    # ---- request path -------------------------------------------------
    def put(self, ev) -> None:
        q = self.q
        if len(q) >= self.max_queue:
            with self._drop_lock:
                self.dropped += 1
                self.stats["queue_full"] += 1
            return
        if self.dropped:
            with self._drop_lock:
                n, self.dropped = self.dropped, 0
            if n:
                q.append(("lost", _monotonic_ns(), n, "queue full"))
        q.append(ev)

    def recorder_error(self, exc=None) -> None:
        """A failure inside the recorder (never raised to the Proxy): counted,
        and a lost event marks the place (reason "recorder error: Type")."""
        try:
            self.stats["recorder_errors"] += 1
            name = type(exc).__name__ if exc is not None else "unknown"
            self.q.append(("lost", _monotonic_ns(), 1, "recorder error: " + name))
        except Exception:
            pass

    # ---- writer ---------------------------------------------------------
    def _run(self) -> None:
        while not self._closed:
            self._wake.wait(self.interval)
            if self._closed:
                break
            try:
                self.flush()
            except Exception:
                pass

    def _drain(self):
        q = self.q
        out = []
        popleft = q.popleft
        for _ in range(len(q)):
            try:
                out.append(popleft())
            except IndexError:
                break
        return out

    def flush(self) -> None:
        """Write everything queued so far (writer thread; close(); tests)."""
        with self._write_lock:
            if self._stopped:
                self.q.clear()
                return
            self._write_batch(self._drain())

    def _write_batch(self, events) -> None:
        lines = []
        n_events = 0
        for ev in events:
            try:
                lines.append(encoding.event_line(ev))
                if ev[0] != "lost":
                    n_events += 1
            except Exception as e:  # an event that cannot be encoded
                self.stats["recorder_errors"] += 1
                try:
                    lines.append(encoding.event_line(
                        ("lost", _monotonic_ns(), 1, "recorder error: " + type(e).__name__)))
                except Exception:
                    pass
        prefix = []
        if self._pending_header is not None:
            prefix.append(self._pending_header)
        if self._write_lost:
            prefix.append(encoding.event_line(
                ("lost", _monotonic_ns(), self._write_lost, self._write_reason)))
        if not lines and not prefix:
            return
        stop_after = False
        if self.max_bytes is not None:
            budget = self.max_bytes - _TAIL_RESERVE - self._written - sum(map(len, prefix))
            fit = 0
            for line in lines:
                if len(line) > budget:
                    break
                budget -= len(line)
                fit += 1
            if fit < len(lines):
                cut = lines[fit:]
                lines = lines[:fit]
                # lost events among the cut lines are not events themselves
                n_cut = sum(1 for line in cut if not line.startswith(b'{"ev":"lost"'))
                lines.append(encoding.event_line(("lost", _monotonic_ns(), n_cut, "max_bytes")))
                lines.append(encoding.event_line(("stop", _monotonic_ns())))
                self.stats["max_bytes"] += n_cut
                stop_after = True
        data = b"".join(prefix + lines)
        if self._torn:
            data = b"\n" + data
        try:
            self._write_all(data)
        except BaseException as e:
            self.stats["write_failed"] += n_events
            self._write_lost += n_events
            self._write_reason = "write failed: " + _describe(e)
            if stop_after:
                self._stopped = True
                self.active = False
            return
        self._torn = False
        self._pending_header = None
        self._write_lost = 0
        self._write_reason = None
        self.stats["written_events"] += n_events
        if stop_after:
            self._stopped = True
            self.active = False
            if self._on_stop is not None:
                try:
                    self._on_stop()
                except Exception:
                    pass

    def _write_all(self, data: bytes) -> None:
        f = self._f
        if self._text:
            f.write(data.decode("ascii"))
            f.flush()
            self._written += len(data)
            return
        view = memoryview(data)
        start = self._written
        done = 0
        try:
            while done < len(data):
                n = f.write(view[done:])
                if n is None:       # non-blocking raw file that would block
                    n = 0
                    time.sleep(0.001)
                done += n
            flush = getattr(f, "flush", None)
            if flush is not None:
                flush()
        except BaseException:
            if done:
                # cut the torn batch off again, or remember to start afresh
                try:
                    f.truncate(start)
                    f.seek(start)
                except Exception:
                    self._torn = True
                    self._written = start + done
            raise
        self._written = start + done

    def close(self) -> None:
        """Drain, write pending lost + stop, flush and close. Idempotent."""
        if self._closed:
            return
        self.active = False
        self._closed = True
        self._wake.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        if not self._write_lock.acquire(timeout=5.0):
            return                      # a write hangs (dead NFS...): do not hang exit too
        try:
            if not self._stopped:
                events = self._drain()
                if self.dropped:
                    with self._drop_lock:
                        n, self.dropped = self.dropped, 0
                    if n:
                        events.append(("lost", _monotonic_ns(), n, "queue full"))
                events.append(("stop", _monotonic_ns()))
                self._write_batch(events)
                self._stopped = True
            if self._own_file:
                try:
                    self._f.close()
                except Exception:
                    pass
            else:
                try:
                    self._f.flush()
                except Exception:
                    pass
        finally:
            self._write_lock.release()


def _describe(e: BaseException) -> str:
    if isinstance(e, OSError) and e.errno is not None:
        name = errno.errorcode.get(e.errno, str(e.errno))
        return "%s (%s)" % (name, e.strerror or os.strerror(e.errno))
    text = str(e)
    return type(e).__name__ + (": " + text if text else "")
