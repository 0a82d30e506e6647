#!/usr/bin/env python3
"""Runs every command of a document's ```sh blocks, in order, as written.

    doc_examples_test.py LBSIM SOURCE_DIR DOC.md WORK_DIR

The commands run with bash in WORK_DIR (emptied first), where `build/lbsim`
is LBSIM and `scenarios`, `traces` and `tests` are the source tree's, so
they read the repository's files and write their outputs there. Each must
exit 0, and every *.html file a command names as its output must be an
HTML page. A command that needs Chromium (tests/html/screenshots.py) runs
only when Chromium is installed; without it the test ends as skipped (77)
once every other command has passed, never as passed.
"""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

SKIP = 77


def commands(doc):
    """The commands of the ```sh blocks, continuation lines joined."""
    out = []
    for block in re.findall(r"^```sh\n(.*?)^```", doc, re.S | re.M):
        line = ""
        for raw in block.splitlines():
            line += raw.rstrip()
            if line.endswith("\\"):
                line = line[:-1] + " "
                continue
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(" ".join(line.split()))
            line = ""
    return out


def html_outputs(command):
    """The *.html files a command writes (after -o, --output, --html or >)."""
    words = command.split()
    names = []
    for i, w in enumerate(words[:-1]):
        if w in ("-o", "--output", "--html", ">") and words[i + 1].lower().endswith(".html"):
            names.append(words[i + 1])
    return names


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    lbsim, source, doc_path, work = sys.argv[1:]
    with open(doc_path) as f:
        found = commands(f.read())
    if not found:
        print(f"FAIL {doc_path}: no command in a ```sh block")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "build"))
    os.symlink(os.path.abspath(lbsim), os.path.join(work, "build", "lbsim"))
    for name in ("scenarios", "traces", "tests"):
        os.symlink(os.path.join(source, name), os.path.join(work, name))
    failures, skipped = [], []
    chromium = cdp.find_chromium()
    for command in found:
        if command.startswith("tests/html/screenshots.py") and not chromium:
            skipped.append(command)
            continue
        run = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, text=True,
                             timeout=600)
        print(f"$ {command}\n  exit {run.returncode}")
        if run.returncode != 0:
            failures.append(f"{command}: exit {run.returncode}: {run.stderr.strip()}")
            continue
        for name in html_outputs(command):
            path = os.path.join(work, name)
            if not os.path.exists(path):
                failures.append(f"{command}: wrote no {name}")
                continue
            with open(path, encoding="utf-8") as f:
                if not f.read(15) == "<!DOCTYPE html>":
                    failures.append(f"{command}: {name} is not an HTML page")
    for failure in failures:
        print(f"FAIL {failure}")
    if failures:
        return 1
    if skipped:
        print("SKIPPED (Chromium not found): " + "; ".join(skipped))
        return SKIP
    print(f"{len(found)} commands of {doc_path} ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
