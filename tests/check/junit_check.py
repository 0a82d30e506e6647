#!/usr/bin/env python3
"""Checks a JUnit XML file written by `lbsim check --junit` with Python's own
XML parser, against the scenario files it came from: one testsuite per
scenario file (sorted by path), one testcase per expectation in file order,
and a <failure> with "expected ..., actual ..." for each failed one.

usage: junit_check.py JUNIT_XML FAILURES SCENARIO_FILE...
"""
import json
import sys
import xml.etree.ElementTree as ET


def main():
    junit_path, want_failures, *scenario_files = sys.argv[1:]
    root = ET.parse(junit_path).getroot()
    problems = []

    def check(ok, what):
        if not ok:
            problems.append(what)

    check(root.tag == "testsuites", f"root element is <{root.tag}>, expected <testsuites>")
    suites = root.findall("testsuite")
    names = [s.get("name") for s in suites]
    check(names == sorted(scenario_files), f"testsuites {names}, expected {sorted(scenario_files)}")

    total_cases = total_failures = 0
    for suite in suites:
        with open(suite.get("name"), encoding="utf-8") as f:
            expectations = json.load(f)["expect"]
        cases = suite.findall("testcase")
        check(len(cases) == len(expectations),
              f"{suite.get('name')}: {len(cases)} testcases for {len(expectations)} expectations")
        check(suite.get("tests") == str(len(cases)), f"{suite.get('name')}: tests attribute")
        for i, case in enumerate(cases):
            check(case.get("name", "").startswith(f"expect[{i}]: "),
                  f"testcase {i} is named {case.get('name')!r}")
        failures = [c.find("failure") for c in cases if c.find("failure") is not None]
        check(suite.get("failures") == str(len(failures)), f"{suite.get('name')}: failures attribute")
        for failure in failures:
            message = failure.get("message", "")
            check(message.startswith("expected ") and ", actual " in message,
                  f"failure message {message!r} lacks expected vs actual")
            check("expected: " in failure.text and "actual: " in failure.text,
                  "failure text lacks expected and actual lines")
        total_cases += len(cases)
        total_failures += len(failures)

    check(root.get("tests") == str(total_cases), "testsuites tests attribute")
    check(total_failures == int(want_failures),
          f"{total_failures} failed testcases, expected {want_failures}")
    for p in problems:
        print(f"junit_check: {junit_path}: {p}", file=sys.stderr)
    print(f"{junit_path}: {len(suites)} testsuites, {total_cases} testcases, {total_failures} failures")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
