#!/usr/bin/env python3
"""Writes the lm-eval 0.4.10-0.4.12 and 0.5-preview results-file fixtures of this folder by editing real results
files from the shared fixtures (../shared/fixtures/lm-eval beside the checkout; see SOURCES.md for what each edit
is and why). Metric values stay those of the real files; group values are computed here with lm-eval's own
formulas (lm_eval/api/metrics.py at v0.4.12: aggregate_subtask_metrics with weight_by_size, pooled_sample_stderr).

Run from this folder: python3 make_fixtures.py [SHARED_LM_EVAL_FOLDER]   (deterministic)
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "..", "shared", "fixtures", "lm-eval")

GEMMA = "gemma-2b-vllm-bf16_afrimmlu_na-stderr_v0.4.10dev.json"
QWEN = "qwen2.5-7b_multi-task_v0.4.8.json"

ARC = ["arc_easy", "arc_challenge"]
GLUE = ["cola", "mnli", "mnli_mismatch", "mrpc", "qnli", "qqp", "rte", "sst2", "wnli"]
NLI = ["mnli", "mnli_mismatch", "qnli", "rte", "wnli"]  # the 0.5 file's inline subgroup glue::nli


def load(name):
    with open(os.path.join(SRC, name), encoding="utf-8") as f:
        return json.load(f)


def write(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")


def entry_v0412(name, alias, old, sample_len):
    """v0.4.12's task entry: name, alias, sample_len, then the metrics (lm_eval/evaluator_utils.py)."""
    out = {"name": name, "alias": alias, "sample_len": sample_len}
    out.update({k: v for k, v in old.items() if k != "alias"})
    return out


def pooled_stderr(stderrs, sizes):
    var = sum((n - 1) * s * s * n for s, n in zip(stderrs, sizes)) / (sum(sizes) - len(sizes))
    return math.sqrt(var / sum(sizes))


def group_entry(name, alias, members, metrics):
    """v0.4.12's Group.aggregate: size-weighted mean and pooled stderr per metric, sample_len, sample_count."""
    sizes = [m["sample_len"] for m in members]
    out = {"alias": alias, "name": name, "sample_len": sum(sizes)}
    counts = {}
    for metric in metrics:
        key, skey = metric + ",none", metric + "_stderr,none"
        values = [m[key] for m in members]
        out[key] = sum(v * n for v, n in zip(values, sizes)) / sum(sizes)
        stderrs = [m[skey] for m in members]
        out[skey] = "N/A" if "N/A" in stderrs else pooled_stderr(stderrs, sizes)
        counts[key] = sum(sizes)
    out["sample_count"] = counts
    return out


def gemma_v0412():
    d = load(GEMMA)
    task = "afrimmlu_direct_swa_prompt_1"
    d["results"] = {task: entry_v0412(task, task, d["results"][task], d["n-samples"][task]["effective"])}
    d["group_subtasks"] = {}  # v0.4.12 lists groups only
    d["config"]["model_args"] = {"pretrained": "google/gemma-2b", "dtype": "bfloat16", "quantization": "fp8",
                                 "kv_cache_dtype": "fp8_e4m3", "calculate_kv_scales": True,
                                 "gpu_memory_utilization": 0.7, "max_model_len": 4096}
    d["lm_eval_version"] = "0.4.12"
    return d


def qwen_groups(preview):
    """The qwen 0.4.8 file as 0.4.12 (preview=False) or a 0.5 preview (True) writes a run of two groups: arc (an
    aggregate of acc and acc_norm) and glue (no aggregate; in the preview with the inline subgroup glue::nli)."""
    d = load(QWEN)
    old, nsamples = d["results"], d["n-samples"]
    tasks = {}
    qualified = {}
    for t in old:
        if t in ARC:
            q = "arc::" + t if preview else t
        elif t in GLUE:
            q = ("glue::nli::" + t if t in NLI else "glue::" + t) if preview else t
        else:
            q = t
        qualified[t] = q
        tasks[q] = entry_v0412(q, t, old[t], nsamples[t]["effective"])
    results = dict(tasks)
    arc = group_entry("arc", "arc", [tasks[qualified[t]] for t in ARC], ["acc", "acc_norm"])
    groups = {"arc": arc}
    group_subtasks = {"arc": [qualified[t] for t in ARC]}
    if preview:
        nli = group_entry("glue::nli", "nli", [tasks[qualified[t]] for t in NLI], ["acc"])
        results["arc"] = arc
        results["glue::nli"] = nli
        results["glue"] = {"alias": "glue", "name": "glue"}
        groups["glue::nli"] = nli
        group_subtasks["glue::nli"] = [qualified[t] for t in NLI]
        group_subtasks["glue"] = ["glue::cola", "glue::mrpc", "glue::nli", "glue::qqp", "glue::sst2"]
    else:
        results["arc"] = arc
        results["glue"] = {"alias": "glue", "name": "glue"}
        group_subtasks["glue"] = GLUE
    rename = lambda m: {qualified.get(k, k): v for k, v in m.items()}
    out = {"results": results, "groups": groups, "group_subtasks": group_subtasks}
    for key in ("configs", "versions", "n-shot", "higher_is_better", "n-samples"):
        out[key] = rename(d[key])
    out["higher_is_better"]["arc"] = {"acc": True, "acc_norm": True}
    if preview:
        out["higher_is_better"]["glue::nli"] = {"acc": True}
    for key in ("configs", "versions", "n-shot", "higher_is_better"):
        out[key] = dict(sorted(out[key].items()))
    for key, value in d.items():
        if key not in out:
            out[key] = value
    out["config"]["model_args"] = {"pretrained": "qwen/qwen2.5-7B", "trust_remote_code": True, "dtype": "float32"}
    out["lm_eval_version"] = "0.5.0.dev2" if preview else "0.4.12"
    return out


def main():
    write("gemma-2b-vllm-fp8_afrimmlu_v0.4.12.json", gemma_v0412())
    write("qwen2.5-7b_groups_v0.4.12.json", qwen_groups(False))
    write("qwen2.5-7b_groups_v0.5-preview.json", qwen_groups(True))


if __name__ == "__main__":
    main()
