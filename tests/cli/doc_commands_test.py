#!/usr/bin/env python3
"""Runs every command example of a Markdown document, in order.

Usage: doc_commands_test.py DOC LBSIM SOURCE_DIR SCRATCH

Every line of a ```sh block is a command (a trailing backslash continues it
on the next line; blank lines and lines starting with '#' are skipped). Each
runs with `sh -c` in SCRATCH, which holds symbolic links to the source
tree's docs/, scenarios/ and traces/ and a bin/ with `lbsim`, first on PATH.
A command ends with an optional comment "# exit N": it must exit with N
(default 0). Every `lbsim` command of a ```yaml block (a CI job) must be one
of the commands run. Exits 1 naming the first command that did otherwise.
"""
import os
import re
import shutil
import subprocess
import sys


def blocks(text, language):
    return re.findall(r"```" + language + r"\n(.*?)```", text, flags=re.S)


def commands(block):
    out, pending = [], ""
    for line in block.splitlines():
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        if line.endswith("\\"):
            pending = line[:-1].rstrip()
            continue
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            out.append(stripped)
    return out


def split_exit(command):
    match = re.search(r"\s+#\s*exit\s+(\d+)\s*$", command)
    if not match:
        return command, 0
    return command[: match.start()], int(match.group(1))


def main():
    doc, lbsim, source, scratch = sys.argv[1:5]
    text = open(doc, encoding="utf-8").read()
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "bin"))
    os.symlink(os.path.abspath(lbsim), os.path.join(scratch, "bin", "lbsim"))
    for folder in ("docs", "scenarios", "traces"):
        os.symlink(os.path.join(source, folder), os.path.join(scratch, folder))
    env = dict(os.environ, PATH=os.path.join(scratch, "bin") + os.pathsep + os.environ["PATH"])

    ran = []
    for block in blocks(text, "sh"):
        for line in commands(block):
            command, want = split_exit(line)
            result = subprocess.run(["sh", "-c", command], cwd=scratch, env=env,
                                    capture_output=True, text=True)
            if result.returncode != want:
                print(f"{doc}: `{command}` exited {result.returncode}, expected {want}")
                print("--- stdout ---\n" + result.stdout[-4000:])
                print("--- stderr ---\n" + result.stderr[-4000:])
                return 1
            ran.append(command)
    if not ran:
        print(f"{doc}: no ```sh command found")
        return 1
    for block in blocks(text, "yaml"):
        for line in block.splitlines():
            found = re.search(r"(?:run:\s*|-\s+|^\s+)(lbsim\s.*)$", line)
            if found and found.group(1).strip() not in ran:
                print(f"{doc}: the CI job runs `{found.group(1).strip()}`, which no ```sh example runs")
                return 1
    print(f"{doc}: {len(ran)} commands ran as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
