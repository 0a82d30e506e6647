"""Which Proxy commit is running, without running git.

Order: the ``LBSIM_RECORD_COMMIT`` environment variable; else the git
checkout holding the ``proxy`` package (imported already, or found on
sys.path without importing it): walk up from the package's directory to a
``.git`` directory or ``.git`` file (``gitdir: PATH``, as worktrees and
submodules have), read ``HEAD``, follow ``ref: refs/...`` to the loose ref
file or to ``packed-refs`` (also in the ``commondir`` of a worktree);
else None (also for a package under site-packages / dist-packages, where an
enclosing checkout says nothing about the installed copy). Only a 40-hex sha is returned.
"""
from __future__ import annotations

import importlib.machinery
import os
import re
import sys

_SHA = re.compile(r"^[0-9a-f]{40}$")


def is_sha(text) -> bool:
    return isinstance(text, str) and bool(_SHA.match(text))


def _read(path):
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def find_git_dir(start):
    """The git directory for a work tree containing ``start``, or None."""
    d = os.path.abspath(start)
    while True:
        dot = os.path.join(d, ".git")
        if os.path.isdir(dot):
            return dot
        if os.path.isfile(dot):
            text = _read(dot) or ""
            for line in text.splitlines():
                if line.startswith("gitdir:"):
                    g = line[len("gitdir:"):].strip()
                    if not os.path.isabs(g):
                        g = os.path.join(d, g)
                    return os.path.normpath(g)
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _resolve_ref(ref, git_dirs):
    for g in git_dirs:
        text = _read(os.path.join(g, *ref.split("/")))
        if text is not None:
            return text.strip()
    for g in git_dirs:
        text = _read(os.path.join(g, "packed-refs"))
        if text is None:
            continue
        for line in text.splitlines():
            if not line or line[0] in "#^":
                continue
            parts = line.split(" ", 1)
            if len(parts) == 2 and parts[1].strip() == ref:
                return parts[0].strip()
    return None


def head_commit(git_dir):
    """The sha HEAD points at in ``git_dir``, or None."""
    if not git_dir:
        return None
    dirs = [git_dir]
    common = _read(os.path.join(git_dir, "commondir"))
    if common is not None and common.strip():
        c = common.strip()
        dirs.append(os.path.normpath(c if os.path.isabs(c) else os.path.join(git_dir, c)))
    text = (_read(os.path.join(git_dir, "HEAD")) or "").strip()
    for _ in range(5):                    # symbolic refs to symbolic refs
        if text.startswith("ref:"):
            text = _resolve_ref(text[4:].strip(), dirs) or ""
            continue
        break
    text = text.strip().lower()
    return text if is_sha(text) else None


def proxy_package_dir(package="proxy"):
    mod = sys.modules.get(package)
    paths = list(getattr(mod, "__path__", None) or []) if mod is not None else []
    if not paths and mod is not None and getattr(mod, "__file__", None):
        paths = [os.path.dirname(mod.__file__)]
    if not paths:
        try:
            spec = importlib.machinery.PathFinder.find_spec(package)
        except Exception:
            spec = None
        if spec is not None:
            paths = list(spec.submodule_search_locations or [])
            if not paths and spec.origin:
                paths = [os.path.dirname(spec.origin)]
    return paths[0] if paths else None


def detect_commit(package="proxy"):
    env = os.environ.get("LBSIM_RECORD_COMMIT", "").strip().lower()
    if env:
        return env if is_sha(env) else None
    d = proxy_package_dir(package)
    if d is None:
        return None
    parts = os.path.abspath(d).split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return None      # an installed copy: an enclosing checkout says nothing about it
    return head_commit(find_git_dir(d))
