#!/usr/bin/env python3
"""Writes group/: a small mmlu-shaped group with --log_samples logs for its subtasks, for the pooled group test
(tests/core/paired_pooling_test.cpp), and group/expected.json with the figures the test checks, computed here from
the construction (not by reading the files back).

Shape (lm-eval 0.4.9, as llama3-8b-instruct_mmlu_v0.4.2.json in the shared fixtures plus the n-samples of 0.4.3+):
"mmlu" is a group of the groups "mmlu_stem" (mmlu_abstract_algebra, mmlu_anatomy) and "mmlu_humanities"
(mmlu_formal_logic); lm-eval writes samples_<task>_<date>.jsonl for the three leaves only, none for the groups.
Group scores are aggregated as mmlu's group config asks (aggregate_metric_list weight_by_size: true; the field's own
default is false): the mean over all documents of the group's leaves, so the pooled paired test over all documents
tests exactly that score. Leaf
sizes differ (40, 25, 31) so that a size-weighted mean differs from the unweighted mean of the leaves' scores.

Run from this folder: python3 make_group_samples.py   (deterministic)
"""
import hashlib
import json
import math
import os
import random

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "group")
BF16_DATE = "2026-12-01T09-00-00.000001"
FP8_DATE = "2026-12-01T11-30-00.000001"
LEAVES = {"mmlu_abstract_algebra": 40, "mmlu_anatomy": 25, "mmlu_formal_logic": 31}
GROUPS = {"mmlu_humanities": ["mmlu_formal_logic"], "mmlu_stem": ["mmlu_abstract_algebra", "mmlu_anatomy"],
          "mmlu": ["mmlu_humanities", "mmlu_stem"]}


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def mean(xs):
    return sum(xs) / len(xs)


def stderr(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def mcnemar_exact(b01, b10):
    n = b01 + b10
    if n == 0:
        return 1.0
    k = min(b01, b10)
    return min(1.0, 2.0 * sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n)


def scores(seed):
    rng = random.Random(seed)
    base, cand = {}, {}
    for leaf, n in LEAVES.items():
        b = [1.0 if rng.random() < 0.6 else 0.0 for _ in range(n)]
        # FP8 loses more answers than it gains.
        c = [(1.0 - x) if rng.random() < (0.2 if x == 1.0 else 0.08) else x for x in b]
        base[leaf], cand[leaf] = b, c
    return base, cand


def rows(leaf, accs):
    out = []
    subject = leaf[len("mmlu_"):]
    for i, acc in enumerate(accs):
        doc = {"question": f"Question {i} about {subject.replace('_', ' ')}?", "subject": subject,
               "choices": ["one", "two", "three", "four"], "answer": i % 4}
        prompt = (f"The following are multiple choice questions (with answers) about {subject.replace('_', ' ')}.\n\n"
                  f"{doc['question']}\nA. one\nB. two\nC. three\nD. four\nAnswer:")
        right = doc["answer"]
        lls = [[-2.5, False]] * 4
        lls[right if acc == 1.0 else (right + 1) % 4] = [-0.5, True]
        out.append({"doc_id": i, "doc": doc, "target": right,
                    "arguments": {f"gen_args_{k}": {"arg_0": prompt, "arg_1": " " + "ABCD"[k]} for k in range(4)},
                    "resps": [[x] for x in lls], "filtered_resps": lls, "filter": "none", "metrics": ["acc"],
                    "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)), "prompt_hash": sha(prompt),
                    "target_hash": sha(str(right)), "acc": acc})
    return out


def results(model, accs):
    res, configs, nsamples = {}, {}, {}
    # Groups: the size-weighted mean over their leaves (lm-eval's weight_by_size: true).
    def leaves(task):
        return [x for s in GROUPS[task] for x in leaves(s)] if task in GROUPS else [task]
    for task in ["mmlu", "mmlu_humanities", "mmlu_formal_logic", "mmlu_stem", "mmlu_abstract_algebra",
                 "mmlu_anatomy"]:
        values = [v for leaf in leaves(task) for v in accs[leaf]]
        alias = {"mmlu": "mmlu", "mmlu_humanities": " - humanities", "mmlu_stem": " - stem"}.get(
            task, "  - " + task[len("mmlu_"):])
        res[task] = {"acc,none": mean(values), "acc_stderr,none": stderr(values), "alias": alias}
        if task not in GROUPS:
            configs[task] = {"task": task, "dataset_path": "hails/mmlu_no_train", "num_fewshot": 0,
                             "output_type": "multiple_choice",
                             "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}]}
            nsamples[task] = {"original": len(values), "effective": len(values)}
    groups = {g: dict(res[g]) for g in GROUPS}
    return {"results": res, "groups": groups, "group_subtasks": GROUPS, "configs": configs,
            "versions": {**{g: 2 for g in GROUPS}, **{leaf: 1.0 for leaf in LEAVES}},
            "n-shot": {leaf: 0 for leaf in LEAVES},
            "higher_is_better": {t: {"acc": True} for t in res}, "n-samples": nsamples,
            "config": {"model": "vllm", "model_args": f"pretrained={model},dtype=auto", "batch_size": "auto",
                       "limit": None, "random_seed": 0},
            "git_hash": "4f2a1b3", "date": 1796115600.0, "lm_eval_version": "0.4.9"}


def write(side, model, date, accs, skip=()):
    folder = os.path.join(HERE, side, model.replace("/", "__"))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"results_{date}.json"), "w", encoding="utf-8") as f:
        json.dump(results(model, accs), f, indent=2)
        f.write("\n")
    for leaf in LEAVES:
        if leaf in skip:
            continue
        with open(os.path.join(folder, f"samples_{leaf}_{date}.jsonl"), "w", encoding="utf-8") as f:
            for r in rows(leaf, accs[leaf]):
                f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    base, cand = scores(42)
    write("bf16", "meta-llama/Llama-3.1-8B-Instruct", BF16_DATE, base)
    write("fp8", "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic", FP8_DATE, cand)
    b = [v for leaf in LEAVES for v in base[leaf]]
    c = [v for leaf in LEAVES for v in cand[leaf]]
    b01 = sum(1 for x, y in zip(b, c) if x == 0.0 and y == 1.0)
    b10 = sum(1 for x, y in zip(b, c) if x == 1.0 and y == 0.0)
    # Without mmlu_anatomy's candidate log: the pooled test over the other two leaves.
    kept = [leaf for leaf in LEAVES if leaf != "mmlu_anatomy"]
    b2 = [v for leaf in kept for v in base[leaf]]
    c2 = [v for leaf in kept for v in cand[leaf]]
    expected = {
        "all": {"n": len(b), "b01": b01, "b10": b10, "p_value": mcnemar_exact(b01, b10),
                "baseline_mean": mean(b), "candidate_mean": mean(c),
                "unweighted_baseline": mean([mean(base[leaf]) for leaf in LEAVES])},
        "without_anatomy": {"n": len(b2), "b01": sum(1 for x, y in zip(b2, c2) if x == 0.0 and y == 1.0),
                            "b10": sum(1 for x, y in zip(b2, c2) if x == 1.0 and y == 0.0),
                            "baseline_mean": mean(b2)},
        "subtasks": list(LEAVES),
    }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
