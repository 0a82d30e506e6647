"""python -m lbsim_recorder [options] -m MODULE ARGS...
python -m lbsim_recorder [options] [--] SCRIPT.py ARGS...

Installs the recorder, then runs MODULE (like ``python -m``) or SCRIPT as
``__main__`` through runpy, with sys.argv set as that program expects.

Options (before -m / the script):
  --out FILE          where to record (default: $LBSIM_RECORD)
  --commit SHA        the Proxy's 40-hex commit (default: detected)
  --max-queue N       events held in memory before dropping (default 100000)
  --max-bytes N       stop recording before FILE would pass N bytes
  --queue-depths copy|reference|json
"""
from __future__ import annotations

import os
import runpy
import sys

USAGE = __doc__


def _parse(argv):
    opts = {"out": None, "commit": None, "max_queue": 100_000, "max_bytes": None,
            "queue_depths": "copy"}
    names = {"--out": "out", "--commit": "commit", "--max-queue": "max_queue",
             "--max-bytes": "max_bytes", "--queue-depths": "queue_depths"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            return opts, "help", None, []
        if a == "-m":
            if i + 1 >= len(argv):
                raise SystemExit("lbsim_recorder: -m needs a module name")
            return opts, "module", argv[i + 1], argv[i + 2:]
        if a == "--":
            rest = argv[i + 1:]
            if not rest:
                raise SystemExit("lbsim_recorder: -- needs a script")
            return opts, "script", rest[0], rest[1:]
        key, eq, val = a.partition("=")
        if key in names:
            if not eq:
                if i + 1 >= len(argv):
                    raise SystemExit("lbsim_recorder: %s needs a value" % key)
                i += 1
                val = argv[i]
            opts[names[key]] = val
            i += 1
            continue
        if a.startswith("-"):
            raise SystemExit("lbsim_recorder: unknown option %s\n\n%s" % (a, USAGE))
        return opts, "script", a, argv[i + 1:]
    raise SystemExit("lbsim_recorder: nothing to run\n\n" + USAGE)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    opts, kind, target, args = _parse(argv)
    if kind == "help":
        print(USAGE)
        return 0
    out = opts["out"] or os.environ.get("LBSIM_RECORD")
    if not out:
        raise SystemExit("lbsim_recorder: no --out and no LBSIM_RECORD\n\n" + USAGE)
    import lbsim_recorder

    if kind == "script":
        script = os.path.abspath(target)
        sys.argv = [target] + list(args)
        # as `python script.py` would: the script's directory first on sys.path
        if sys.path and sys.path[0] in ("", os.getcwd()):
            sys.path[0] = os.path.dirname(script)
        else:
            sys.path.insert(0, os.path.dirname(script))
    else:
        sys.argv = [target] + list(args)   # runpy sets argv[0] to the module's file
        if not sys.path or sys.path[0] != os.getcwd():
            sys.path.insert(0, os.getcwd())
    lbsim_recorder.install(
        out, commit=opts["commit"], max_queue=int(opts["max_queue"]),
        max_bytes=None if opts["max_bytes"] is None else int(opts["max_bytes"]),
        queue_depths=opts["queue_depths"])
    # No uninstall here: threads the target leaves running may still route
    # requests; the atexit hook writes stop and closes the file at the end.
    if kind == "module":
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
