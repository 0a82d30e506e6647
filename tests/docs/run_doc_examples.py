#!/usr/bin/env python3
"""Runs every command example of a documentation page and checks it.

Usage: run_doc_examples.py --source SRC --build BUILD [--show] PAGE...

PAGE is a path relative to SRC (README.md, docs/reports.md, ...). The
conventions the pages follow (docs/development.md, "Documentation"):

* A command example is a line starting with "$ " inside a ```console block.
  A line ending in "\\" continues on the next line. A trailing "# exit N"
  says the command must exit with status N; otherwise it must exit with 0.
  The command runs with bash -o pipefail -c, so pipes, redirections and loops
  work and a failure anywhere in a pipeline counts (a writer that a reader
  such as "head" stopped early, exit status 141 for SIGPIPE, does not).
* A trailing "# needs chromium" (before any "# exit N") marks a command
  that drives a browser (tests/html/screenshots.py): it runs only when
  Chromium is installed (or LBSIM_CHROMIUM names it). Without it the page's
  other commands still run and must pass, and the test then exits with 77,
  which ctest reports as skipped, never as passed.
* The lines after a command, up to the next "$ " line or the end of the
  block, are its output: standard output and standard error as they
  interleave (both go to one pipe). They must match the output exactly,
  except that a line "..." stands for any number of lines (none included).
  A command followed by no line has its output not checked.
* Every page's commands run in order, in one scratch directory that holds a
  copy of the source tree (without .git and build directories) and a link
  "build" to the build directory, so "build/lbsim" is the binary under test
  and files a command writes are there for the next one, never in SRC.
* A ```sh, ```bash or ```shell block holds what .ci/run runs on a fresh
  machine (the README's setup, the sanitizer and fuzz builds): its
  "&&"-separated parts must be apt-get lines installing only packages that
  .ci/run installs, or lines that .ci/run runs word for word (cmake, ctest,
  the fuzz script). Those are checked against .ci/run and not run again here
  (.ci/run runs them, and this test is run by the ctest command among them);
  they are the one documented exception. Any other part of such a block
  (build/lbsim ...) is run like a command example. A "$ " line in a block of
  any language other than console is an error: a command is run or not
  shown.
* Every relative link [text](PATH#ANCHOR) outside code must name a file of
  the source tree (never a path outside it) and, with an anchor, a heading of
  that page (GitHub's anchors). Pages other sessions are writing are listed
  in PENDING_PAGES until they land.
* A configuration file shown in a ```yaml block (a CI job) is not run, but
  every "build/lbsim ..." command in it, and every "lbsim ..." command of an
  installed lbsim that a step runs (GitHub's "run:", on its line or in a
  "run: |" block; an item of GitLab's "script:" list), must be a command
  example of the same page as "build/lbsim ..."
  (possibly with its output piped or redirected), so the command the job
  runs is run here.

Exit status 0 when every example holds; 1 with one message per failure;
77 when every example that ran held but one needing Chromium could not run.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SHELL_LANGUAGES = {"sh", "bash", "shell", "zsh"}
EXIT_ANNOTATION = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")
NEEDS_ANNOTATION = re.compile(r"\s+#\s*needs\s+chromium\s*$")
SKIPPED = 77
FENCE = re.compile(r"^(```+|~~~+)\s*([A-Za-z0-9_+-]*)\s*$")
TIMEOUT_SECONDS = 600
# Pages linked before they exist, each written under its own issue; a link
# to one is not an error until the page exists (then its anchors count).
PENDING_PAGES = {
}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


class Example:
    def __init__(self, page, line, command, status, expected, needs_chromium=False):
        self.needs_chromium = needs_chromium  # runs only where Chromium is
        self.page = page
        self.line = line          # 1-based line of the "$ " in the page
        self.command = command    # as given to bash -c
        self.status = status      # expected exit status
        self.expected = expected  # list of lines, or None: not checked


def fenced_blocks(text):
    """Yields (language, line number of the body's first line, body lines)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, language = m.group(1), m.group(2).lower()
        opening = i + 1
        body = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence)
                                      and set(lines[i].strip()) == {fence[0]}):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"line {opening}: a fenced block is never closed")
        yield language, opening + 1, body
        i += 1


def console_examples(page, start, body, errors):
    examples = []
    i = 0
    while i < len(body):
        line = body[i]
        if not line.startswith("$ "):
            if line.strip():
                errors.append(f"{page}:{start + i}: a console block must start with a "
                              f"\"$ \" command line, got: {line}")
            i += 1
            continue
        line_number = start + i
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(body):
            i += 1
            command += "\n" + body[i]
        i += 1
        status = 0
        m = EXIT_ANNOTATION.search(command)
        if m:
            status = int(m.group(1))
            command = command[:m.start()]
        needs = NEEDS_ANNOTATION.search(command)
        if needs:
            command = command[:needs.start()]
        output = []
        while i < len(body) and not body[i].startswith("$ "):
            output.append(body[i])
            i += 1
        examples.append(Example(page, line_number, command, status, output if output else None,
                                bool(needs)))
    return examples


def ci_run_commands(source):
    """The lines .ci/run runs, joined over "\\" continuations, and the
    packages its apt-get install line names."""
    with open(os.path.join(source, ".ci", "run"), encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    lines = {" ".join(line.split()) for line in text.split("\n")
             if line.strip() and not line.lstrip().startswith("#")}
    packages = set()
    for line in lines:
        words = line.split()
        if words[:2] == ["apt-get", "install"]:
            packages.update(w for w in words[2:] if not w.startswith("-"))
    return lines, packages


def setup_examples(page, start, body, source, errors):
    """A ```sh block: checks the parts that .ci/run runs against it and
    returns the other parts, as examples."""
    ci_lines, ci_packages = ci_run_commands(source)
    examples = []
    text = " ".join(line.strip().rstrip("\\") for line in body)
    for part in (p.strip() for p in text.split("&&")):
        if not part:
            continue
        words = part.split()
        if words[:2] == ["apt-get", "update"] and len(words) == 2:
            continue
        if words[:2] == ["apt-get", "install"]:
            missing = [w for w in words[2:] if not w.startswith("-") and w not in ci_packages]
            if missing:
                errors.append(f"{page}:{start}: the setup installs {' '.join(missing)}, "
                              f"which .ci/run does not install")
            continue
        if " ".join(words) in ci_lines:
            continue
        if words[0] in ("cmake", "ctest", "apt-get") or "run_fuzzers" in words[0]:
            errors.append(f"{page}:{start}: the setup command \"{part}\" is not one that "
                          f".ci/run runs word for word")
            continue
        examples.append(Example(page, start, part, 0, None))
    return examples


def yaml_commands(body):
    """The lbsim commands a CI job runs: every "build/lbsim ..." command, and
    every installed "lbsim ..." command a step runs (GitHub's "run:", on its
    line or in a "run: |" block; a list item of GitLab's "script:")."""
    commands = []
    block = None  # (indent, kind) of the "run: |" block or "script:" list we are in
    for line in body:
        m = re.search(r"(build/lbsim\s.*)$", line)
        if m:
            commands.append(" ".join(m.group(1).split()))
            continue
        indent = len(line) - len(line.lstrip())
        if block and line.strip() and indent <= block[0]:
            block = None
        m = re.match(r"^(\s*)(?:-\s+)?run:\s*(.*)$", line)
        if m:
            if re.match(r"^[|>]-?$", m.group(2).strip()):
                block = (len(m.group(1)), "run")
            elif m.group(2).startswith("lbsim "):
                commands.append("build/" + " ".join(m.group(2).split()))
            continue
        m = re.match(r"^(\s*)(?:before_|after_)?script:\s*$", line)
        if m:
            block = (len(m.group(1)), "script")
            continue
        if block:
            m = re.match(r"^\s*(?:-\s+)?(lbsim\s.*)$", line) if block[1] == "script" else \
                re.match(r"^\s*(lbsim\s.*)$", line)
            if m:
                commands.append("build/" + " ".join(m.group(1).split()))
    return commands


def collect(page, text, source, errors):
    examples, yaml = [], []
    for language, start, body in fenced_blocks(text):
        if language == "console":
            examples += console_examples(page, start, body, errors)
        elif language in SHELL_LANGUAGES:
            examples += setup_examples(page, start, body, source, errors)
        else:
            for offset, line in enumerate(body):
                if line.startswith("$ "):
                    errors.append(f"{page}:{start + offset}: a \"$ \" command in a "
                                  f"```{language or '(no language)'} block: use ```console")
            if language == "yaml":
                yaml += [(start, c) for c in yaml_commands(body)]
    run = [" ".join(e.command.split()) for e in examples]
    for start, command in yaml:
        # The command itself, or it with its output piped or redirected.
        if not any(r == command or re.match(re.escape(command) + r" (\||>|&&)", r) for r in run):
            errors.append(f"{page}:{start}: the CI job's command \"{command}\" is not a command "
                          "example of this page")
    return examples


def anchors(text):
    """The anchors GitHub gives the headings of a page."""
    found = set()
    in_code = False
    for line in text.split("\n"):
        if FENCE.match(line):
            in_code = not in_code
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
        if m and not in_code:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


def check_links(page, text, source, errors):
    prose = []
    in_code = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code:
            prose.append((number, re.sub(r"`[^`]*`", "", line)))
    for number, line in prose:
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = f"{page}:{number}: link {target}"
            if resolved.startswith(".."):
                errors.append(f"{where}: points outside the repository")
                continue
            full = os.path.join(source, resolved)
            if not os.path.exists(full):
                if resolved not in PENDING_PAGES:
                    errors.append(f"{where}: {resolved} does not exist")
                continue
            if anchor and resolved.endswith(".md"):
                with open(full, encoding="utf-8") as f:
                    if anchor not in anchors(f.read()):
                        errors.append(f"{where}: {resolved} has no heading #{anchor}")


def matches(expected, actual):
    """Whether the lines match, "..." standing for any number of lines."""
    # memo[i][j]: expected[i:] matches actual[j:]
    memo = {}

    def match(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(expected):
            result = j == len(actual)
        elif expected[i] == "...":
            result = any(match(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            result = j < len(actual) and expected[i] == actual[j] and match(i + 1, j + 1)
        memo[key] = result
        return result

    sys.setrecursionlimit(max(10000, 4 * (len(expected) + len(actual))))
    return match(0, 0)


def scratch_copy(source, build, scratch):
    build_real = os.path.realpath(build)

    def ignore(directory, names):
        skipped = []
        for name in names:
            path = os.path.join(directory, name)
            if name == ".git" or (os.path.isdir(path) and (
                    os.path.exists(os.path.join(path, "CMakeCache.txt"))
                    or os.path.realpath(path) == build_real)):
                skipped.append(name)
        return skipped

    tree = os.path.join(scratch, "tree")
    shutil.copytree(source, tree, symlinks=True, ignore=ignore)
    link = os.path.join(tree, "build")
    if os.path.lexists(link):
        raise RuntimeError(f"{source} holds a 'build' that is not a build directory")
    os.symlink(build_real, link)
    return tree


def chromium_found():
    """Whether a Chromium the browser tests can drive is installed."""
    named = os.environ.get("LBSIM_CHROMIUM")
    if named:
        return os.access(named, os.X_OK)
    return any(shutil.which(name) for name in ("chromium", "chromium-browser"))


def run_page(page, source, build, show=False, skipped=None):
    errors = []
    with open(os.path.join(source, page), encoding="utf-8") as f:
        text = f.read()
    try:
        examples = collect(page, text, source, errors)
    except ValueError as e:
        return [f"{page}: {e}"], 0
    check_links(page, text, source, errors)
    if errors:
        return errors, len(examples)
    env = dict(os.environ, LC_ALL="C.UTF-8", COLUMNS="80")
    with tempfile.TemporaryDirectory(prefix="lbsim-doc-examples-") as scratch:
        tree = scratch_copy(source, build, scratch)
        for example in examples:
            if example.needs_chromium and not chromium_found():
                if skipped is not None:
                    skipped.append(f"{page}:{example.line}: $ {example.command}")
                continue
            try:
                done = subprocess.run(["bash", "-o", "pipefail", "-c", example.command],
                                      cwd=tree, env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, timeout=TIMEOUT_SECONDS)
                output = done.stdout.decode("utf-8", errors="replace")
                status = done.returncode
                if status == 128 + 13 and example.status == 0:
                    status = 0  # SIGPIPE: a reader (head, sed -n 1p) had read enough
            except subprocess.TimeoutExpired:
                errors.append(f"{page}:{example.line}: $ {example.command}\n"
                              f"  did not finish within {TIMEOUT_SECONDS} s")
                continue
            actual = output.split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            if show:
                print(f"{page}:{example.line}: $ {example.command}  # exit {status}")
                print("\n".join(actual))
            problems = []
            if status != example.status:
                problems.append(f"exit status {status}, expected {example.status}"
                                + ("" if example.status else " (add '# exit N' if on purpose)"))
            if example.expected is not None and not matches(example.expected, actual):
                problems.append("output differs from the page's")
            if problems:
                shown = "\n".join("  | " + line for line in actual) or "  | (no output)"
                errors.append(f"{page}:{example.line}: $ {example.command}\n  "
                              + "; ".join(problems) + "; it printed:\n" + shown)
    return errors, len(examples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True, help="the source tree")
    parser.add_argument("--build", required=True, help="the build directory (holds lbsim)")
    parser.add_argument("--show", action="store_true",
                        help="print every command and its output (to write a page)")
    parser.add_argument("pages", nargs="+", help="pages, relative to the source tree")
    args = parser.parse_args()
    if not os.access(os.path.join(args.build, "lbsim"), os.X_OK):
        print(f"run_doc_examples: no lbsim binary in {args.build}", file=sys.stderr)
        return 1
    failures, total, skipped = [], 0, []
    for page in args.pages:
        errors, count = run_page(page, os.path.abspath(args.source), args.build, args.show,
                                 skipped)
        failures += errors
        total += count
        print(f"{page}: {count} command examples, {len(errors)} failures")
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        return 1
    if skipped:
        for line in skipped:
            print(f"skipped, Chromium not found (apt-get install chromium, or set "
                  f"LBSIM_CHROMIUM): {line}", file=sys.stderr)
        return SKIPPED
    return 0


if __name__ == "__main__":
    sys.exit(main())
