#!/usr/bin/env python3
"""Writes the hostile inputs too large to commit into OUT_DIR (the ctest
fixture "hostile_large"). Each name says what it holds; the limits they
probe are those of traces/trace_reader.h and sim/replay/world.h."""
import os
import sys

MIB = 1 << 20
HEADER = '{"lbsim_trace": 1, "instances": [{"id": "inst-a", "inflight": 1}, {"id": "inst-b"}]}'
HEADER_DOC = '"lbsim_trace": 1, "instances": [{"id": "inst-a", "inflight": 1}, {"id": "inst-b"}]'
ARRIVAL = '{"t": 0, "type": "arrival"}'


def write(out_dir, name, *parts):
    with open(os.path.join(out_dir, name), "w") as f:
        for p in parts:
            f.write(p)


def padded_arrival(line_bytes):
    """An arrival of exactly `line_bytes` bytes (an unknown key holds the padding)."""
    head, tail = '{"t": 1, "type": "arrival", "pad": "', '"}'
    return head + "x" * (line_bytes - len(head) - len(tail)) + tail


def hint_values(total_values):
    """An arrival holding `total_values` JSON values: the event object, t,
    type, the hint array and its zeros."""
    zeros = total_values - 4
    return '{"t": 0, "type": "arrival", "hint": [' + ",".join(["0"] * zeros) + "]}"


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    deep = 200_000
    nested_hint = '{"t": 0, "type": "arrival", "hint": ' + "[" * deep + "]" * deep + "}"
    write(out_dir, "deep_hint_200000.ndjson", HEADER, "\n", nested_hint, "\n")
    write(out_dir, "deep_hint_200000.json",
          "{", HEADER_DOC, ', "events": [', ARRIVAL, ",", nested_hint, "]}\n")
    write(out_dir, "deep_unclosed_200000.ndjson",
          HEADER, "\n", '{"t": 0, "type": "arrival", "hint": ', '{"a": ' * deep, "\n")
    # JSON Lines: a line of exactly the limit passes, one byte more does not.
    write(out_dir, "line_64MiB.ndjson", HEADER, "\n", ARRIVAL, "\n", padded_arrival(64 * MIB), "\n")
    write(out_dir, "line_64MiB_plus_1.ndjson",
          HEADER, "\n", ARRIVAL, "\n", padded_arrival(64 * MIB + 1), "\n")
    # A line that never ends: no newline after the header, 80 MiB of array.
    write(out_dir, "line_endless.ndjson", HEADER, "\n", "[" + "0," * (40 * MIB))
    # JSON document: an event past the limit, and a long legal one.
    write(out_dir, "event_65MiB.json",
          "{", HEADER_DOC, ', "events": [', ARRIVAL, ",", padded_arrival(65 * MIB), "]}\n")
    write(out_dir, "event_32MiB.json",
          "{", HEADER_DOC, ', "events": [', ARRIVAL, ",", padded_arrival(32 * MIB), "]}\n")
    # Values in one event: exactly the limit passes, one more does not.
    write(out_dir, "values_1000000.ndjson", HEADER, "\n", hint_values(1_000_000), "\n")
    write(out_dir, "values_1000001.ndjson", HEADER, "\n", hint_values(1_000_001), "\n")
    write(out_dir, "values_1000001.json",
          "{", HEADER_DOC, ', "events": [', hint_values(1_000_001), "]}\n")
    # Instances: 10000 distinct ids pass, a 10001st does not.
    ids = ", ".join('{"id": "i%05d"}' % i for i in range(10_000))
    many = '{"lbsim_trace": 1, "instances": [' + ids + "]}"
    write(out_dir, "instances_10000.ndjson", many, "\n", ARRIVAL, "\n")
    write(out_dir, "instances_10001.ndjson", many, "\n", ARRIVAL, "\n",
          '{"t": 1, "type": "up", "instance": "one-too-many"}\n')
    write(out_dir, "instances_10001_header.json",
          '{"lbsim_trace": 1, "instances": [' + ids + ', {"id": "one-too-many"}], "events": []}\n')
    # Requests in flight: every arrival lasts (practically) forever.
    forever = '{"t": 0, "type": "arrival", "duration": 1e300}\n'
    write(out_dir, "in_flight_1000001.ndjson", HEADER, "\n", forever * 1_000_001)


if __name__ == "__main__":
    main(sys.argv[1])
