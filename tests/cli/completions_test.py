#!/usr/bin/env python3
"""Checks `lbsim completions bash|zsh|fish` by completing command lines in
each shell, and that the scripts and the man page name every command and
option `lbsim ... --help` lists.

Usage: completions_test.py LBSIM MAN_PAGE

bash completes through the script's function with COMP_WORDS set, as bash
does at a TAB; fish through `complete -C`; zsh through an interactive zsh
on a pseudo-terminal, typing TAB. A shell that is not installed is skipped
(zsh and fish are not on every machine; .ci/run installs them), and then
the test exits 77 after the other checks pass.
"""

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

LBSIM, MAN_PAGE = sys.argv[1], sys.argv[2]
failures = []
skipped = []


def check(what, actual, expected):
    if actual != expected:
        failures.append(f"{what}: expected {expected!r}, got {actual!r}")


def lbsim(*args):
    return subprocess.run([LBSIM, *args], check=True, capture_output=True, text=True).stdout


def help_of(words):
    """The subcommands and long options `lbsim WORDS --help` lists."""
    text = lbsim(*words, "--help")
    options = set(re.findall(r"^\s+(?:-\w,)?(--[a-z][a-z0-9-]*)", text, re.M))
    commands = set()
    if "\nSubcommands:\n" in text:
        block = text.split("\nSubcommands:\n", 1)[1].split("\n\n", 1)[0]
        commands = set(re.findall(r"^  ([a-z]+)\s", block, re.M))
    return commands, options


# Every command path: the replay, each subcommand, and "engines fit".
paths = [[]]
for path in paths:
    commands, _ = help_of(path)
    paths.extend(path + [c] for c in sorted(commands))

with tempfile.TemporaryDirectory() as scratch:
    scripts = {}
    for shell in ("bash", "zsh", "fish"):
        scripts[shell] = os.path.join(scratch, f"lbsim.{shell}")
        lbsim("completions", shell, "-o", scripts[shell])
    # Files to complete: a trace beside a folder.
    os.mkdir(os.path.join(scratch, "traces"))
    open(os.path.join(scratch, "trace.ndjson"), "w").close()

    def bash_complete(*words):
        """What TAB offers after `words` (the last is the word being typed)."""
        driver = (f'source {scripts["bash"]!r}\n'
                  'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lbsim\n'
                  'printf "%s\\n" "${COMPREPLY[@]}"\n')
        out = subprocess.run(["bash", "-c", driver, "bash", "lbsim", *words], cwd=scratch,
                             check=True, capture_output=True, text=True).stdout
        return sorted(w for w in out.split("\n") if w)

    # Every command and long option --help lists is offered where it belongs.
    for path in paths:
        commands, options = help_of(path)
        offered = set(bash_complete(*path, "-"))
        for option in sorted(options - offered):
            failures.append(f"bash: `lbsim {' '.join(path)} -` does not offer {option}")
        if commands:
            check(f"bash: commands after `lbsim {' '.join(path)}`",
                  set(bash_complete(*path, "")) & commands, commands)

    check("bash: a command by its start", bash_complete("ch"), ["check"])
    check("bash: a subcommand's subcommand", bash_complete("engines", "f"), ["fit"])
    check("bash: an option by its start", bash_complete("sweep", "--va"), ["--vary"])
    check("bash: options of the command chosen, not the replay's",
          bash_complete("merge", "--"), ["--help", "--output"])
    check("bash: a value from an option's set", bash_complete("-f", "c"), ["csv"])
    check("bash: --option=value", bash_complete("--format", "=", "m"), ["md"])
    check("bash: a strategy after a comma", bash_complete("-s", "rr,least_"),
          ["rr,least_load"])
    check("bash: an engine name or a file", bash_complete("--engine", "llama-3-"),
          ["llama-3-70b-rtx5090x8"])
    check("bash: the trace is a file", bash_complete("-s", "ll", "tr"),
          ["trace.ndjson", "traces"])
    check("bash: an option's value is not taken for a command", bash_complete(
        "-o", "gen", "--wi"), ["--window", "--window-csv"])
    check("bash: a command with no arguments offers nothing", bash_complete("proxies", ""), [])
    check("bash: the shell names", bash_complete("completions", ""), ["bash", "fish", "zsh"])
    check("bash: a built-in engine's name", bash_complete("engines", "llama-3-"),
          ["llama-3-70b-rtx5090x8"])
    check("bash: an import format", bash_complete("import", "--from", "cacheroute-"),
          ["cacheroute-record"])
    check("bash: a measurement format", bash_complete("engines", "fit", "--from", "t"),
          ["tpot-table", "ttft-table"])

    if shutil.which("fish"):
        def fish_complete(line):
            out = subprocess.run(
                ["fish", "--no-config", "-c",
                 f"source {scripts['fish']}; complete -C {line!r}"],
                cwd=scratch, check=True, capture_output=True, text=True).stdout
            return sorted(l.split("\t")[0] for l in out.split("\n") if l)

        check("fish: a command by its start", fish_complete("lbsim ch"), ["check"])
        check("fish: a subcommand's subcommand", fish_complete("lbsim engines f"), ["fit"])
        check("fish: an option by its start", fish_complete("lbsim sweep --va"), ["--vary"])
        check("fish: a value from an option's set", fish_complete("lbsim -f c"), ["csv"])
        check("fish: the trace is a file", fish_complete("lbsim -s ll tr"),
              ["trace.ndjson", "traces/"])
        check("fish: the shell names", fish_complete("lbsim completions "),
              ["bash", "fish", "zsh"])
        check("fish: an import format", fish_complete("lbsim import --from m"), ["mooncake"])
        check("fish: a command with no arguments offers no file",
              fish_complete("lbsim proxies tr"), [])
        for path in paths:
            _, options = help_of(path)
            offered = set(fish_complete(" ".join(["lbsim", *path, "--"])))
            for option in sorted(options - offered):
                failures.append(f"fish: `lbsim {' '.join(path)} --` does not offer {option}")
    else:
        skipped.append("fish")

    if shutil.which("zsh"):
        def zsh_complete(typed):
            """What an interactive zsh shows after typing `typed` and TAB."""
            home = os.path.join(scratch, "zhome")
            funcs = os.path.join(home, "functions")
            os.makedirs(funcs, exist_ok=True)
            shutil.copy(scripts["zsh"], os.path.join(funcs, "_lbsim"))
            with open(os.path.join(home, ".zshrc"), "w") as rc:
                rc.write(f"fpath=({funcs} $fpath)\nautoload -Uz compinit\n"
                         f"compinit -u -d {home}/.zcompdump\nPS1='> '\n"
                         f"lbsim() {{ :; }}\n")
            pid, fd = pty.fork()
            if pid == 0:
                os.chdir(scratch)
                os.execve(shutil.which("zsh"), ["zsh", "-i"],
                          {"ZDOTDIR": home, "TERM": "dumb", "HOME": home,
                           "PATH": os.environ["PATH"]})
            out = b""

            def read(seconds):
                nonlocal out
                end = time.time() + seconds
                while time.time() < end:
                    if select.select([fd], [], [], 0.1)[0]:
                        try:
                            out += os.read(fd, 4096)
                        except OSError:
                            return

            read(1.0)
            out = b""
            os.write(fd, typed.encode() + b"\t")
            read(1.5)
            os.write(fd, b"\x03")
            read(0.2)
            os.write(fd, b"exit\n")
            read(0.3)
            os.close(fd)
            os.waitpid(pid, 0)
            return out.decode(errors="replace")

        shown = zsh_complete("lbsim engines f")
        if "engines fit" not in shown:
            failures.append(f"zsh: `lbsim engines f` TAB: expected `engines fit`, got {shown!r}")
        shown = zsh_complete("lbsim sweep --va")
        if "--vary" not in shown:
            failures.append(f"zsh: `lbsim sweep --va` TAB: expected --vary, got {shown!r}")
    else:
        skipped.append("zsh")

# The man page names every command and every option of the replay.
with open(MAN_PAGE) as f:
    man = f.read().replace("\\-", "-")
for path in paths:
    if path and path[-1] not in man:
        failures.append(f"{MAN_PAGE}: does not name the command `{' '.join(path)}`")
_, options = help_of([])
for option in sorted(options):
    if not re.search(re.escape(option) + r"\b", man):
        failures.append(f"{MAN_PAGE}: does not describe the replay's {option}")
if shutil.which("man"):
    rendered = subprocess.run(["man", "--warnings", "-l", MAN_PAGE], capture_output=True,
                              text=True, env={**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": ""})
    if rendered.returncode != 0 or rendered.stderr.strip():
        failures.append(f"man -l {MAN_PAGE}: {rendered.returncode} {rendered.stderr.strip()}")

for f in failures:
    print(f)
if failures:
    sys.exit(1)
if skipped:
    print("skipped (not installed): " + ", ".join(skipped))
    sys.exit(77)
