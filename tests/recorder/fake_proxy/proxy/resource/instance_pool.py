"""Fake InstancePool: the methods and return types the recorder patches, TTL
liveness on an injectable clock (whole seconds, as the Proxy's int(time.time()))."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional


@dataclass
class Load:
    inflight: Optional[int] = None
    qps_1m: Optional[float] = None


@dataclass
class Instance:
    instance_id: str
    host: str
    port: int
    weight: float = 1.0
    load: Load = field(default_factory=Load)
    last_seen: int = 0


@dataclass(frozen=True)
class HeartbeatResult:
    ok: bool
    error: Optional[str] = None


class InstancePool:
    # Older Proxy commits return a bool from heartbeat, newer ones a result object.
    heartbeat_returns_bool = False

    def __init__(self, ttl_s: int = 30, clock: Optional[Callable[[], float]] = None):
        self._ttl_s = int(ttl_s)
        self._clock = clock or time.time
        self._lock = threading.Lock()
        self._items: Dict[str, Instance] = {}

    @property
    def ttl_s(self) -> int:
        return self._ttl_s

    def _now(self) -> int:
        return int(self._clock())

    def upsert(self, instance_id: str, host: str, port: int, weight: float = 1.0,
               tags: Optional[List[str]] = None) -> Instance:
        now = self._now()
        with self._lock:
            it = self._items.get(instance_id)
            if it is None:
                it = Instance(instance_id, host, int(port), float(weight), Load(inflight=0), now)
                self._items[instance_id] = it
            else:
                it.host, it.port, it.weight = host, int(port), float(weight)
                it.last_seen = now
            return it

    def heartbeat(self, instance_id: str, inflight: Optional[int] = None,
                  qps_1m: Optional[float] = None, fingerprint: Optional[str] = None):
        now = self._now()
        with self._lock:
            it = self._items.get(instance_id)
            if it is None:
                result = HeartbeatResult(False, "unknown_instance")
            elif fingerprint == "mismatch":
                result = HeartbeatResult(False, "capability_fingerprint_mismatch")
            else:
                it.last_seen = now
                if inflight is not None:
                    it.load.inflight = int(inflight)
                if qps_1m is not None:
                    it.load.qps_1m = float(qps_1m)
                result = HeartbeatResult(True)
        return result.ok if self.heartbeat_returns_bool else result

    def report_resource_snapshot(self, instance_id: str, snapshot: dict, metadata=None) -> bool:
        with self._lock:
            it = self._items.get(instance_id)
            if it is None:
                return False
            it.last_seen = self._now()
            return True

    def remove(self, instance_id: str) -> bool:
        with self._lock:
            return self._items.pop(instance_id, None) is not None

    def begin_request(self, instance_id: str) -> bool:
        with self._lock:
            it = self._items.get(instance_id)
            if it is None:
                return False
            it.load.inflight = int(it.load.inflight or 0) + 1
            return True

    def end_request(self, instance_id: str) -> bool:
        with self._lock:
            it = self._items.get(instance_id)
            if it is None:
                return False
            it.load.inflight = max(0, int(it.load.inflight or 0) - 1)
            return True

    def list(self, include_dead: bool = False) -> List[Instance]:
        now = self._now()
        with self._lock:
            items = list(self._items.values())
        if include_dead:
            return items
        return [it for it in items if now - it.last_seen <= self._ttl_s]
