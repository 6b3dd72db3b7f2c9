#!/usr/bin/env python3
"""Derives the comparability fixtures from real lm-eval results files (see SOURCES.md). Deterministic.

usage: python3 make_fixtures.py /path/to/shared/fixtures/lm-eval
"""
import json
import os
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../../shared/fixtures/lm-eval")
here = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(src, name)) as f:
        return json.load(f)


def save(name, doc):
    with open(os.path.join(here, name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


# 1. The qwen2.5-7b v0.4.8 file with arc_challenge's few-shot count changed from 0 to 25, in both places lm-eval
#    writes it (n-shot and configs.arc_challenge.num_fewshot). Nothing else changes.
qwen = load("qwen2.5-7b_multi-task_v0.4.8.json")
qwen["n-shot"]["arc_challenge"] = 25
qwen["configs"]["arc_challenge"]["num_fewshot"] = 25
save("qwen2.5-7b_arc-challenge-25shot_v0.4.8.json", qwen)

# 2. The Meta-Llama-3-8B (base) v0.4.2 mmlu file written the way lm-eval v0.3 wrote MMLU: the 57 subjects as
#    "hendrycksTest-<subject>" with bare metric keys ("acc", "acc_stderr"), no groups, versions 0 (v0.3.0's
#    hendrycks_test.py VERSION), and a v0.3 config (one num_fewshot for the run: 5, as the v0.4 file ran each subject).
base = load("llama3-8b-base_mmlu_v0.4.2.json")
subjects = [t for t in base["results"] if t.startswith("mmlu_") and t not in base.get("group_subtasks", {})]
results, versions = {}, {}
for t in sorted(subjects):
    entry = base["results"][t]
    name = "hendrycksTest-" + t[len("mmlu_"):]
    results[name] = {"acc": entry["acc,none"], "acc_stderr": entry["acc_stderr,none"]}
    versions[name] = 0
v03 = {
    "results": results,
    "versions": versions,
    "config": {
        "model": "hf-causal-experimental",
        "model_args": base["config"]["model_args"],
        "num_fewshot": 5,
        "batch_size": "auto",
        "device": "cuda:0",
        "no_cache": True,
        "limit": None,
        "bootstrap_iters": 100000,
        "description_dict": {},
    },
}
save("llama3-8b-base_mmlu_v0.3-format.json", v03)
