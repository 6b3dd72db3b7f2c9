#!/usr/bin/env python3
"""Writes the FP8 ladder fixture used by tests/core/variant_comparison_test.cpp and tests/app/cli_variants_test.cpp:
four lm-eval 0.4.9-style runs of one model with their --log_samples logs, and expected.json with the figures the
tests check, computed here from the construction (which documents each run gets right), not by reading the files.

  bf16/        meta-llama/Llama-3.1-8B-Instruct, dtype=bfloat16
  w8a8/        RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8 (FP8 weights and activations, per-tensor)
  w8a8-kv/     the same checkpoint with kv_cache_dtype=fp8 (no calibrated scales: vLLM uses 1.0)
  w8a8-kv-cal/ RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-KV (the same FP8 weights plus calibrated KV scales in the
               checkpoint) with kv_cache_dtype=fp8

Synthetic data shaped like real lm-eval output (row keys as lm_eval/evaluator.py writes them; hashes are SHA-256 of
the doc JSON with indent=2, of the prompt and of str(target)). Each run's answers are the baseline's with listed
documents flipped, so every paired count is known exactly.

Run from this folder: python3 make_ladder.py   (deterministic: no random numbers)
"""
import hashlib
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
N = {"gsm8k": 1000, "arc_challenge": 1000}
METRIC = {"gsm8k": ("exact_match", "strict-match"), "arc_challenge": ("acc", "none")}

RUNS = {
    "bf16": ("meta-llama/Llama-3.1-8B-Instruct", "pretrained=meta-llama/Llama-3.1-8B-Instruct,dtype=bfloat16",
             "2026-11-30T09-00-00.000001"),
    "w8a8": ("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8",
             "pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8,dtype=auto", "2026-11-30T12-00-00.000001"),
    "w8a8-kv": ("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8",
                "pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8,dtype=auto,kv_cache_dtype=fp8",
                "2026-11-30T15-00-00.000001"),
    "w8a8-kv-cal": ("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-KV",
                    "pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-KV,dtype=auto,kv_cache_dtype=fp8",
                    "2026-11-30T18-00-00.000001"),
}


def baseline_correct(task):
    # gsm8k: 760 of 1000 right (docs 0..759); arc_challenge: 550 of 1000 (docs 0..549).
    right = 760 if task == "gsm8k" else 550
    return [1.0 if i < right else 0.0 for i in range(N[task])]


def flip(values, lose, gain):
    """lose: right docs made wrong; gain: wrong docs made right (explicit index lists)."""
    out = list(values)
    for i in lose:
        assert out[i] == 1.0
        out[i] = 0.0
    for i in gain:
        assert out[i] == 0.0
        out[i] = 1.0
    return out


def construction():
    s = {}
    for task in N:
        s[("bf16", task)] = baseline_correct(task)
    # W8A8: gsm8k loses 12 (docs 0..11), gains 8 (docs 760..767): 756 right. arc: loses 5, gains 5: 550.
    s[("w8a8", "gsm8k")] = flip(s[("bf16", "gsm8k")], range(0, 12), range(760, 768))
    s[("w8a8", "arc_challenge")] = flip(s[("bf16", "arc_challenge")], range(0, 5), range(550, 555))
    # + FP8 KV, scales 1.0: on top of W8A8, gsm8k loses 25 more (docs 100..124), gains 5 (docs 800..804): 736.
    # arc loses 6 (docs 100..105), gains 4 (docs 600..603): 548.
    s[("w8a8-kv", "gsm8k")] = flip(s[("w8a8", "gsm8k")], range(100, 125), range(800, 805))
    s[("w8a8-kv", "arc_challenge")] = flip(s[("w8a8", "arc_challenge")], range(100, 106), range(600, 604))
    # + FP8 KV, calibrated scales: on top of W8A8, gsm8k loses 6 (docs 100..105), gains 4 (docs 800..803): 754.
    # arc loses 2 (docs 100..101), gains 1 (doc 600): 549.
    s[("w8a8-kv-cal", "gsm8k")] = flip(s[("w8a8", "gsm8k")], range(100, 106), range(800, 804))
    s[("w8a8-kv-cal", "arc_challenge")] = flip(s[("w8a8", "arc_challenge")], range(100, 102), range(600, 601))
    return s


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def doc_of(task, i):
    if task == "gsm8k":
        return {"question": f"A shop sells {i + 2} pens a day. How many in {i % 7 + 2} days?",
                "answer": f"{(i + 2) * (i % 7 + 2)}"}
    return {"id": f"ARC-{i}", "question": f"Question {i}: which choice is right?",
            "choices": {"text": ["A", "B", "C", "D"], "label": ["A", "B", "C", "D"]}, "answerKey": "B"}


def rows(task, values):
    metric, filt = METRIC[task]
    out = []
    for i, v in enumerate(values):
        doc = doc_of(task, i)
        prompt = f"Question: {doc['question']}\nAnswer:"
        target = doc["answer"] if task == "gsm8k" else "1"
        out.append({"doc_id": i, "doc": doc, "target": target,
                    "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["Question:"]}}},
                    "resps": [["42" if v == 0.0 else target]], "filtered_resps": ["42" if v == 0.0 else target],
                    "filter": filt, "metrics": [metric],
                    "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)), "prompt_hash": sha(prompt),
                    "target_hash": sha(str(target)), metric: v})
    return out


def mean(xs):
    return sum(xs) / len(xs)


def stderr(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def results(run, model, args, date, s):
    res, hib, nshot, nsamples, versions, configs = {}, {}, {}, {}, {}, {}
    for task in N:
        metric, filt = METRIC[task]
        vals = s[(run, task)]
        res[task] = {"alias": task, f"{metric},{filt}": mean(vals), f"{metric}_stderr,{filt}": stderr(vals)}
        hib[task] = {metric: True}
        nshot[task] = 5 if task == "gsm8k" else 25
        nsamples[task] = {"original": N[task], "effective": N[task]}
        versions[task] = 3.0 if task == "gsm8k" else 1.0
        configs[task] = {"task": task, "num_fewshot": nshot[task],
                         "output_type": "generate_until" if task == "gsm8k" else "multiple_choice",
                         "filter_list": [{"name": filt}]}
    return {"results": res, "group_subtasks": {t: [] for t in N}, "configs": configs, "versions": versions,
            "n-shot": nshot, "higher_is_better": hib, "n-samples": nsamples,
            "config": {"model": "vllm", "model_args": args, "batch_size": "auto", "limit": None,
                       "random_seed": 0, "numpy_seed": 1234, "torch_seed": 1234, "fewshot_seed": 1234},
            "git_hash": "3a9b1f2", "date": 1764493200.0, "lm_eval_version": "0.4.9.2",
            "model_name": model, "model_name_sanitized": model.replace("/", "__"),
            "chat_template": None, "chat_template_sha": None, "fewshot_as_multiturn": False}


def paired_counts(s, a, b, task):
    x, y = s[(a, task)], s[(b, task)]
    b01 = sum(1 for i in range(len(x)) if x[i] == 0.0 and y[i] == 1.0)  # right only in b
    b10 = sum(1 for i in range(len(x)) if x[i] == 1.0 and y[i] == 0.0)  # right only in a
    return {"b01": b01, "b10": b10, "mean_from": mean(x), "mean_to": mean(y),
            "delta_pct": (mean(y) - mean(x)) / mean(x) * 100}


def main():
    s = construction()
    for run, (model, args, date) in RUNS.items():
        folder = os.path.join(HERE, run, model.replace("/", "__"))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"results_{date}.json"), "w", encoding="utf-8") as f:
            json.dump(results(run, model, args, date, s), f, indent=2)
            f.write("\n")
        for task in N:
            with open(os.path.join(folder, f"samples_{task}_{date}.jsonl"), "w", encoding="utf-8") as f:
                for r in rows(task, s[(run, task)]):
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
    expected = {"means": {f"{run}/{task}": mean(s[(run, task)]) for run in RUNS for task in N}, "pairs": {}}
    for a, b in [("bf16", "w8a8"), ("bf16", "w8a8-kv"), ("bf16", "w8a8-kv-cal"), ("w8a8", "w8a8-kv"),
                 ("w8a8", "w8a8-kv-cal"), ("w8a8-kv", "w8a8-kv-cal")]:
        for task in N:
            expected["pairs"][f"{a}>{b}/{task}"] = paired_counts(s, a, b, task)
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
