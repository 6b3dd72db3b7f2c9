#!/usr/bin/env python3
"""The Python baseline of fp8dash-bench-samples (tests/benchmarks/README.md): a plain loop of json.loads per line
over two lm-eval --log_samples files, then the same pairing fp8dash does for a 0/1 metric: rows of one filter
keyed by doc_id, documents whose doc_hash or prompt_hash differ left out, the metric's value per side, the
discordant counts (b01, b10) and the means. No bootstrap (fp8dash's figure without it is the one compared).

Usage: sample_logs_pairing.py BASELINE.jsonl CANDIDATE.jsonl METRIC FILTER
Prints: seconds (timed inside Python, the interpreter's start left out), peak RSS in KiB, n, b01, b10.
"""
import json
import math
import sys
import time


def read(path, metric, filt):
    rows = {}
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("filter", "none") != filt:
                continue
            doc_id = row["doc_id"]
            if doc_id in rows:
                continue  # the first row of a (doc_id, filter) pair is kept, as fp8dash keeps it
            value = row.get(metric)
            if isinstance(value, bool):
                value = 1.0 if value else 0.0
            rows[doc_id] = (row.get("doc_hash"), row.get("prompt_hash"), value)
    return rows


def pair(base, cand):
    b_values, c_values = [], []
    mismatches = only_base = 0
    for doc_id in sorted(base):
        b = base[doc_id]
        c = cand.get(doc_id)
        if c is None:
            only_base += 1
            continue
        if (b[0] and c[0] and b[0] != c[0]) or (b[1] and c[1] and b[1] != c[1]):
            mismatches += 1
            continue
        if not isinstance(b[2], (int, float)) or not isinstance(c[2], (int, float)):
            continue
        if not math.isfinite(b[2]) or not math.isfinite(c[2]):
            continue
        b_values.append(float(b[2]))
        c_values.append(float(c[2]))
    b01 = sum(1 for x, y in zip(b_values, c_values) if x == 0.0 and y == 1.0)
    b10 = sum(1 for x, y in zip(b_values, c_values) if x == 1.0 and y == 0.0)
    n = len(b_values)
    return n, b01, b10, (sum(b_values) / n if n else 0.0), (sum(c_values) / n if n else 0.0)


def main():
    base_path, cand_path, metric, filt = sys.argv[1:5]
    started = time.perf_counter()
    n, b01, b10, _, _ = pair(read(base_path, metric, filt), read(cand_path, metric, filt))
    took = time.perf_counter() - started
    hwm = [l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM:")][0]
    print(took, hwm, n, b01, b10)


if __name__ == "__main__":
    main()
