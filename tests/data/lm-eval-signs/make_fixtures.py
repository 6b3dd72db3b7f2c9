#!/usr/bin/env python3
"""Writes the sign-convention fixtures (SOURCES.md says what each is and what was edited).

Each file is the real qwen2.5-7b lm-eval 0.4.8 results file (../shared/fixtures/lm-eval/qwen2.5-7b_multi-task_v0.4.8.json)
with a few metric values replaced; everything else (stderrs, n-samples, configs, versions, hashes) is the real file's.
Usage: python3 make_fixtures.py /path/to/shared/fixtures/lm-eval   (deterministic)
"""
import json
import os
import sys

SOURCE = "qwen2.5-7b_multi-task_v0.4.8.json"
HERE = os.path.dirname(os.path.abspath(__file__))

# The Matthews correlations of gemma-2-2b (baseline) and gemma-2-2b-it (candidate) on cola, as issue 13 reports them.
GEMMA_BASE_COLA = -0.0914
GEMMA_IT_COLA = 0.2186
REVERSE_COLA = -0.2  # the reverse case: a candidate below a negative baseline


def load(folder):
    with open(os.path.join(folder, SOURCE), encoding="utf-8") as f:
        return json.load(f)


def write(name, data):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main(folder):
    base = load(folder)
    base["results"]["cola"]["mcc,none"] = GEMMA_BASE_COLA
    write("qwen2.5-7b_signs_baseline.json", base)

    cand = load(folder)
    r = cand["results"]
    r["cola"]["mcc,none"] = GEMMA_IT_COLA
    # A clear drop of 8.2 % (the lambada_openai was -10.3 % to -6.0 % at 90 %).
    r["lambada_openai"]["acc,none"] = r["lambada_openai"]["acc,none"] * (1 - 0.082)
    # A clear improvement of 5 % (about 3 standard errors).
    r["arc_easy"]["acc_norm,none"] = r["arc_easy"]["acc_norm,none"] * 1.05
    # 0.49 % lower: next to the go edge, so that only far more samples than hellaswag's 10,042 would decide it.
    r["hellaswag"]["acc_norm,none"] = r["hellaswag"]["acc_norm,none"] * (1 - 0.0049)
    write("qwen2.5-7b_signs_candidate.json", cand)

    rev = load(folder)
    rev["results"]["cola"]["mcc,none"] = REVERSE_COLA
    write("qwen2.5-7b_signs_reverse_candidate.json", rev)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared/fixtures/lm-eval"))
