#!/usr/bin/env python3
"""Print the slowest tests of the last ctest run in a build directory.

    tools/slowest_tests.py BUILD_DIR [N]       (default: build/ci, 10)

Reads BUILD_DIR/Testing/Temporary/LastTest.log, which ctest writes on every run (a failed run too): one block per
test with its name ("3/841 Test: NAME") and its wall time ("Test time =   1.23 sec"). When several runs were
appended (ctest -j writes one log per invocation) the last block of each name wins. Informational: exits 0 unless
the log is missing or holds no test.
"""
import os
import re
import sys


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/ci"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    log = os.path.join(build, "Testing", "Temporary", "LastTest.log")
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        print(f"slowest_tests: cannot read {log}: {e.strerror}", file=sys.stderr)
        return 1
    times, name = {}, None
    for line in lines:
        m = re.match(r"^\d+/\d+ Test: (.+)$", line)
        if m:
            name = m.group(1).strip()
            continue
        m = re.match(r"^Test time =\s*([0-9.]+) sec", line)
        if m and name is not None:
            times[name] = float(m.group(1))
            name = None
    if not times:
        print(f"slowest_tests: no test times in {log}", file=sys.stderr)
        return 1
    slowest = sorted(times.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    total = sum(times.values())
    print(f"The {len(slowest)} slowest of {len(times)} tests ({total:.1f} s of test time in all):")
    for test, seconds in slowest:
        print(f"  {seconds:8.2f} s  {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
