"""Turns captured event tuples into the recording's JSON lines.

Runs on the writer thread only, never on the request path.

Format rules (docs in ``lbsim_recorder/__init__.py``): compact separators,
keys in the documented order, ints stay ints, floats as Python's repr, a
non-finite float anywhere becomes the string "nan", "inf" or "-inf" (plain
json.dumps would write NaN/Infinity, which is not JSON), ASCII output (so the
file is valid UTF-8 whatever the strings hold).
"""
from __future__ import annotations

import json
import math
import numbers
from collections.abc import Mapping

_dumps = json.JSONEncoder(
    skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=False,
    sort_keys=False, separators=(",", ":"), default=None,
).encode


class RawJSON(str):
    """A value already serialised to JSON text (queue_depths in "json" mode)."""
    __slots__ = ()


def _nonfinite(x: float) -> str:
    if x != x:
        return "nan"
    return "inf" if x > 0 else "-inf"


def _key(k) -> str:
    """A mapping key as json.dumps writes it (non-finite floats as above)."""
    if isinstance(k, str):
        return k
    if k is None:
        return "null"
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, int):
        return str(int(k))
    if isinstance(k, float):
        return repr(float(k)) if math.isfinite(k) else _nonfinite(k)
    return "<%s>" % type(k).__name__


def sanitize(value, _depth=0):
    """A JSON-native copy of value: non-finite floats as strings, mappings as
    dicts with string keys, other sequences as lists, numbers as int/float,
    anything else as a placeholder naming only its type (never its content).
    """
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else _nonfinite(value)
    if _depth > 64:
        return "<too deep>"
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            out[_key(k)] = sanitize(v, _depth + 1)
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        return [sanitize(v, _depth + 1) for v in value]
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return sanitize(float(value), _depth)
    return "<%s>" % type(value).__name__


def dumps(obj) -> str:
    """One JSON text for obj (a dict built in key order)."""
    try:
        return _dumps(obj)
    except (ValueError, TypeError, RecursionError):
        return _dumps(sanitize(obj))


def _num(x):
    """A number as captured: ints and floats pass, non-finite floats become
    strings; anything else goes through sanitize."""
    if x is None or type(x) is int:
        return x
    if type(x) is float:
        return x if math.isfinite(x) else _nonfinite(x)
    return sanitize(x)


def event_dict(ev):
    """The ordered dict of one captured event tuple (see wrappers.py)."""
    kind = ev[0]
    if kind == "decision":
        _, ns, request, strategy, cands, has_qd, qd, chosen, error = ev
        d = {"ev": "decision", "ns": ns, "request": request, "strategy": strategy,
             "candidates": [{"id": c[0], "weight": _num(c[1]), "inflight": _num(c[2]),
                             "qps_1m": _num(c[3])} for c in cands]}
        if has_qd:
            d["queue_depths"] = qd
        if error is None:
            d["chosen"] = chosen
        else:
            d["error"] = error
        return d
    if kind in ("begin", "end"):
        return {"ev": kind, "ns": ev[1], "instance": ev[2], "ok": ev[3], "request": ev[4]}
    if kind == "heartbeat":
        d = {"ev": "heartbeat", "ns": ev[1], "instance": ev[2], "ok": ev[3]}
        if ev[3]:
            d["inflight"] = _num(ev[4])
            d["qps_1m"] = _num(ev[5])
        return d
    if kind == "register":
        return {"ev": "register", "ns": ev[1], "instance": ev[2], "weight": _num(ev[3]),
                "inflight": _num(ev[4]), "qps_1m": _num(ev[5])}
    if kind in ("refresh", "remove"):
        return {"ev": kind, "ns": ev[1], "instance": ev[2], "ok": ev[3]}
    if kind == "no_instances":
        return {"ev": "no_instances", "ns": ev[1], "request": ev[2]}
    if kind == "pool":
        return {"ev": "pool", "ns": ev[1], "ttl_s": _num(ev[2])}
    if kind == "lost":
        return {"ev": "lost", "ns": ev[1], "events": ev[2], "reason": ev[3]}
    if kind == "stop":
        return {"ev": "stop", "ns": ev[1]}
    raise ValueError("unknown event kind %r" % (kind,))


_enc_str = json.encoder.encode_basestring_ascii


def _j(x) -> str:
    """One scalar (id, number, bool, null) as JSON text, the fast way; anything
    else through dumps/sanitize."""
    t = type(x)
    if t is str:
        return _enc_str(x)
    if x is None:
        return "null"
    if t is int:
        return int.__repr__(x)
    if t is float:
        return float.__repr__(x) if math.isfinite(x) else '"%s"' % _nonfinite(x)
    if t is bool:
        return "true" if x else "false"
    return dumps(sanitize(x))


_CAND = '{"id":%s,"weight":%s,"inflight":%s,"qps_1m":%s}'


def event_line(ev) -> bytes:
    """The JSON line of one captured event: the same text as
    dumps(event_dict(ev)) (a test holds them equal), formatted directly."""
    kind = ev[0]
    if kind == "decision":
        _, ns, request, strategy, cands, has_qd, qd, chosen, error = ev
        parts = ['{"ev":"decision","ns":', _j(ns), ',"request":', _j(request),
                 ',"strategy":', _j(strategy), ',"candidates":[',
                 ",".join([_CAND % (_j(c[0]), _j(c[1]), _j(c[2]), _j(c[3])) for c in cands]),
                 "]"]
        if has_qd:
            parts.append(',"queue_depths":')
            parts.append(qd if isinstance(qd, RawJSON) else dumps(qd))
        if error is None:
            parts.append(',"chosen":')
            parts.append(_j(chosen))
        else:
            parts.append(',"error":')
            parts.append(_j(error))
        parts.append("}\n")
        return "".join(parts).encode("ascii")
    if kind in ("begin", "end"):
        return ('{"ev":"%s","ns":%s,"instance":%s,"ok":%s,"request":%s}\n' % (
            kind, _j(ev[1]), _j(ev[2]), _j(ev[3]), _j(ev[4]))).encode("ascii")
    return (dumps(event_dict(ev)) + "\n").encode("ascii")
