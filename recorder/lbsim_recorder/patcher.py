"""Class-level patching of the Proxy's pool and strategies, and its undoing.

Targets, by module name:
- ``proxy.resource.instance_pool``: ``InstancePool``'s methods (those it
  defines itself; a commit without begin_request/end_request is fine).
- ``proxy.strategy.base``: every subclass of ``BaseInstanceStrategy`` that
  defines ``select`` itself (abstract methods are left alone), and, through an
  ``__init_subclass__`` on the base, subclasses created later anywhere.

Modules imported before install are patched at install; ``proxy.strategy``,
``proxy.strategy.*`` and ``proxy.resource.instance_pool`` imported later are
patched by a ``sys.meta_path`` finder the moment their code has run (it finds
the module with the other finders, wraps only the loader's exec_module, and
puts the original loader back on the module and its spec afterwards).

``unpatch_all`` puts back every original that is still replaced by our
wrapper (a method somebody else replaced after us is left to them).
"""
from __future__ import annotations

import sys
import threading
import types

from . import wrappers

POOL_MODULE = "proxy.resource.instance_pool"
STRATEGY_BASE_MODULE = "proxy.strategy.base"
STRATEGY_PACKAGE = "proxy.strategy"


def _wanted(fullname: str) -> bool:
    return (fullname == POOL_MODULE or fullname == STRATEGY_PACKAGE
            or fullname.startswith(STRATEGY_PACKAGE + "."))


class Patcher:
    def __init__(self, sink, qd_mode=wrappers.QD_COPY):
        self.sink = sink
        self.qd_mode = qd_mode
        self.pool_factories = wrappers.make_pool_wrappers(sink)
        self._patched = []          # (cls, name, original, wrapper, had_own)
        self._bases = []            # strategy base classes seen
        self._lock = threading.RLock()
        self.finder = None

    # ---- patching --------------------------------------------------------
    def _replace(self, cls, name, wrapper, original, had_own):
        setattr(cls, name, wrapper)
        self._patched.append((cls, name, original, wrapper, had_own))

    def patch_pool_class(self, cls) -> None:
        with self._lock:
            for name, factory in self.pool_factories.items():
                orig = cls.__dict__.get(name)
                if not isinstance(orig, types.FunctionType) or hasattr(orig, "__lbsim_wrapped__"):
                    continue
                self._replace(cls, name, factory(orig), orig, True)

    def patch_strategy_class(self, cls) -> None:
        with self._lock:
            orig = cls.__dict__.get("select")
            if (not isinstance(orig, types.FunctionType)
                    or getattr(orig, "__isabstractmethod__", False)
                    or hasattr(orig, "__lbsim_wrapped__")):
                return
            self._replace(cls, "select",
                          wrappers.make_select_wrapper(orig, self.sink, self.qd_mode), orig, True)

    def patch_strategy_tree(self, base) -> None:
        with self._lock:
            if base not in self._bases:
                self._bases.append(base)
                self._hook_subclass_creation(base)
            seen = set()
            todo = [base]
            while todo:
                cls = todo.pop()
                if cls in seen:
                    continue
                seen.add(cls)
                self.patch_strategy_class(cls)
                try:
                    todo.extend(type.__subclasses__(cls))
                except TypeError:
                    pass

    def _hook_subclass_creation(self, base) -> None:
        patcher = self
        had_own = "__init_subclass__" in base.__dict__
        original = base.__dict__.get("__init_subclass__")

        def __init_subclass__(cls, **kwargs):
            if original is not None:
                original.__get__(None, cls)(**kwargs)
            else:
                super(base, cls).__init_subclass__(**kwargs)
            try:
                patcher.patch_strategy_class(cls)
            except Exception as e:
                patcher.sink.recorder_error(e)

        hook = classmethod(__init_subclass__)
        hook.__func__.__lbsim_wrapped__ = original
        self._replace(base, "__init_subclass__", hook, original, had_own)

    def patch_module(self, module) -> None:
        name = getattr(module, "__name__", "")
        if name == POOL_MODULE:
            cls = getattr(module, "InstancePool", None)
            if isinstance(cls, type):
                self.patch_pool_class(cls)
        if name == STRATEGY_PACKAGE or name.startswith(STRATEGY_PACKAGE + "."):
            base_mod = sys.modules.get(STRATEGY_BASE_MODULE)
            base = getattr(base_mod, "BaseInstanceStrategy", None)
            if isinstance(base, type):
                self.patch_strategy_tree(base)

    def patch_loaded(self) -> None:
        for name in (STRATEGY_BASE_MODULE, POOL_MODULE):
            mod = sys.modules.get(name)
            if mod is not None:
                self.patch_module(mod)

    # ---- import hook -------------------------------------------------------
    def install_finder(self) -> None:
        self.finder = _Finder(self)
        sys.meta_path.insert(0, self.finder)

    # ---- undo ----------------------------------------------------------------
    def unpatch_all(self) -> None:
        with self._lock:
            if self.finder is not None:
                try:
                    sys.meta_path.remove(self.finder)
                except ValueError:
                    pass
                self.finder = None
            for cls, name, original, wrapper, had_own in reversed(self._patched):
                if cls.__dict__.get(name) is not wrapper:
                    continue
                if had_own and original is not None:
                    setattr(cls, name, original)
                else:
                    delattr(cls, name)
            self._patched.clear()
            self._bases.clear()


class _Finder:
    """A meta path finder that only decorates the specs of the target modules."""

    def __init__(self, patcher: Patcher):
        self._patcher = patcher
        self._busy = threading.local()

    def find_spec(self, fullname, path=None, target=None):
        if not _wanted(fullname) or getattr(self._busy, "on", False):
            return None
        self._busy.on = True
        try:
            spec = None
            for finder in list(sys.meta_path):
                if finder is self:
                    continue
                find = getattr(finder, "find_spec", None)
                if find is None:
                    continue
                spec = find(fullname, path, target)
                if spec is not None:
                    break
        finally:
            self._busy.on = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _PatchingLoader(spec.loader, self._patcher)
        return spec

    def invalidate_caches(self):
        pass


class _PatchingLoader:
    def __init__(self, inner, patcher):
        self._inner = inner
        self._patcher = patcher

    def create_module(self, spec):
        create = getattr(self._inner, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module):
        inner = self._inner
        spec = getattr(module, "__spec__", None)
        try:
            if spec is not None and spec.loader is self:
                spec.loader = inner
            if getattr(module, "__loader__", None) is self:
                module.__loader__ = inner
        except Exception:
            pass
        inner.exec_module(module)
        try:
            self._patcher.patch_module(module)
        except Exception as e:
            self._patcher.sink.recorder_error(e)

    def __getattr__(self, name):
        return getattr(self._inner, name)
