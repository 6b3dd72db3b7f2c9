#!/usr/bin/env python3
"""Writes the synthetic lm-eval --log_samples fixtures used by tests/core/sample_logs_test.cpp and
paired_tasks_test.cpp, and expected.json with the counts the tests check, computed here from the construction
(not by reading the files back), so the C++ reader and pairing are checked against an independent source.

Synthetic data, shaped like real lm-eval output (row keys and order from lm_eval/evaluator.py; hashes are SHA-256
of the doc JSON with indent=2, of the first prompt and of str(target), as lm-eval computes them):

  new-layout/   lm-eval 0.4.9-style: rows carry "filter" and "metrics" (added in v0.4.7).
    bf16/meta-llama__Llama-3.1-8B-Instruct/  results_2026-08-21T10-15-30.123456.json + samples for gsm8k,
        arc_challenge, drop; plus an older run (2026-08-20T09-00-00.000001, gsm8k only, 3 docs) for date matching.
    fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic/  results_2026-08-21T14-02-11.654321.json + the same tasks;
        gsm8k docs 3 and 7 have a changed prompt (prompt_hash), arc_challenge doc 5 a changed doc (doc_hash),
        arc_challenge lacks doc 13 and has an extra doc 14; plus a stale samples file whose date matches no results.
  old-layout/   lm-eval 0.4.3-style: no "filter"/"metrics"; gsm8k writes all strict-match rows, then all
        flexible-extract rows (the outer loop of evaluator.py runs over the filters); configs.gsm8k.filter_list
        gives that order.
  preview-0.5/  lm-eval 0.5-preview-style (lm_eval/evaluator_utils.py::_build_logged_samples on the next0.5 branch,
        commit e7e6bc67): gsm8k run with repeats=4, each row carries "scores_per_repeat" {"exact_match": [4 scores]}
        and the top-level exact_match is lm-eval's reduced value (take_first, the default reduction: the first
        repeat). Written as --output_path <stem>.json writes: <stem>_<date>.json with the samples beside it, no model
        folder. The results files have the 0.4.12+ entry keys name/alias/sample_len and a dict config.model_args.

Run from this folder: python3 make_samples.py   (deterministic; random.Random with fixed seeds)
"""
import hashlib
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

BF16_MODEL = "meta-llama/Llama-3.1-8B-Instruct"
FP8_MODEL = "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic"
BF16_DATE = "2026-08-21T10-15-30.123456"
BF16_OLD_DATE = "2026-08-20T09-00-00.000001"
FP8_DATE = "2026-08-21T14-02-11.654321"
STALE_DATE = "2026-08-19T08-00-00.000001"
OLD_BF16_DATE = "2024-06-01T12-00-00.000001"
OLD_FP8_DATE = "2024-06-01T15-30-00.000001"

N_GSM8K = 16
N_ARC = 14
N_DROP = 12
PREVIEW_BF16_DATE = "2026-11-02T10-00-00.000001"
PREVIEW_FP8_DATE = "2026-11-02T16-45-10.250000"
N_PREVIEW = 24
REPEATS = 4


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def sanitize(model):
    return model.replace("/", "__")


def write_jsonl(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write("\n")


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
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n
    return min(1.0, 2.0 * tail)


# ---- the construction: per-doc correctness of both runs -------------------------------------------------------

def gsm8k_docs(n):
    rng = random.Random(8)
    docs = []
    for i in range(n):
        a, b = rng.randint(2, 40), rng.randint(2, 40)
        docs.append({"question": f"Tom has {a} apples and buys {b}. How many now?",
                     "answer": f"{a} + {b} = {a + b}\n#### {a + b}"})
    return docs


def gsm8k_scores(n, seed, base=None):
    """strict/flexible 0/1 per doc. With base, a perturbed copy (FP8)."""
    rng = random.Random(seed)
    strict, flexible = [], []
    for i in range(n):
        if base is None:
            s = 1.0 if rng.random() < 0.75 else 0.0
        else:
            # FP8 loses some answers BF16 had right, and gains fewer.
            s = base[0][i]
            r = rng.random()
            if (s == 1.0 and r < 0.35) or (s == 0.0 and r < 0.15):
                s = 1.0 - s
        # flexible-extract finds the number whenever strict-match does, and sometimes when it does not.
        fl = 1.0 if s == 1.0 or rng.random() < 0.4 else 0.0
        strict.append(s)
        flexible.append(fl)
    return strict, flexible


def gsm8k_prompt(doc, variant=""):
    return f"{variant}Question: {doc['question']}\nAnswer:"


def gsm8k_rows(docs, strict, flexible, labelled, changed_prompts=()):
    per_filter = []
    for fname, vals in (("strict-match", strict), ("flexible-extract", flexible)):
        rows = []
        for i, doc in enumerate(docs):
            prompt = gsm8k_prompt(doc, "Solve step by step.\n" if i in changed_prompts else "")
            answer = doc["answer"].split("#### ")[1]
            got = answer if vals[i] == 1.0 else str(int(answer) + 1)
            row = {"doc_id": i, "doc": doc, "target": doc["answer"],
                   "arguments": {"gen_args_0": {"arg_0": prompt,
                                                "arg_1": {"until": ["Question:"], "do_sample": False}}},
                   "resps": [[f"The answer is {got}."]],
                   "filtered_resps": [got if fname != "strict-match" or vals[i] else "[invalid]"]}
            if labelled:
                row["filter"] = fname
                row["metrics"] = ["exact_match"]
            row["doc_hash"] = sha(json.dumps(doc, indent=2, ensure_ascii=False))
            row["prompt_hash"] = sha(prompt)
            row["target_hash"] = sha(str(doc["answer"]))
            row["exact_match"] = vals[i]
            rows.append(row)
        per_filter.append(rows)
    if labelled:
        # lm-eval >= 0.4.7 also writes filter by filter; interleave here so the reader cannot rely on blocks.
        out = []
        for a, b in zip(per_filter[0], per_filter[1]):
            out += [a, b]
        return out
    return per_filter[0] + per_filter[1]


def arc_rows(ids, acc, acc_norm, changed_docs=()):
    rows = []
    for i in ids:
        doc = {"id": f"Mercury_{7000 + i}", "question": f"Scratching a mineral tests its? ({i})",
               "choices": {"text": ["hardness", "color", "mass"], "label": ["A", "B", "C"]},
               "answerKey": "A"}
        if i in changed_docs:
            doc = dict(doc, question=doc["question"] + " (revised)")
        prompt = f"Question: {doc['question']}\nAnswer:"
        right = acc[i] == 1.0
        lls = ["(-1.25, False)", "(-2.5, False)", "(-3.0, False)"] if right else \
              ["(-2.75, False)", "(-1.5, False)", "(-3.0, False)"]
        rows.append({"doc_id": i, "doc": doc, "target": "0",
                     "arguments": {f"gen_args_{k}": {"arg_0": prompt, "arg_1": " " + t}
                                   for k, t in enumerate(doc["choices"]["text"])},
                     "resps": [[x] for x in lls], "filtered_resps": lls, "filter": "none",
                     "metrics": ["acc", "acc_norm"],
                     "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                     "prompt_hash": sha(prompt), "target_hash": sha("0"),
                     "acc": acc[i], "acc_norm": acc_norm[i]})
    return rows


def arc_scores(n, seed, base=None):
    rng = random.Random(seed)
    acc, acc_norm = [], []
    for i in range(n):
        if base is None:
            a = 1.0 if rng.random() < 0.55 else 0.0
        else:
            a = base[i] if rng.random() > 0.15 else 1.0 - base[i]
        acc.append(a)
        acc_norm.append(1.0 if rng.random() < 0.6 else 0.0)
    return acc, acc_norm


F1_LEVELS = [0.0, 0.4, 0.5, 0.6667, 0.8, 1.0]


def drop_scores(n, seed, base=None):
    rng = random.Random(seed)
    f1 = []
    for i in range(n):
        if base is None:
            f1.append(rng.choice(F1_LEVELS))
        else:
            k = F1_LEVELS.index(base[i]) + rng.choice([-1, 0, 0, 1])
            f1.append(F1_LEVELS[max(0, min(len(F1_LEVELS) - 1, k))])
    return f1


def drop_rows(f1):
    rows = []
    for i, v in enumerate(f1):
        doc = {"query_id": f"q{i}", "passage": f"The Bears scored {i + 3} points.",
               "question": "How many points?", "answer": [str(i + 3)]}
        prompt = f"{doc['passage']} {doc['question']}"
        rows.append({"doc_id": i, "doc": doc, "target": str(doc["answer"]),
                     "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["."]}}},
                     "resps": [[f"{i + 3} points"]], "filtered_resps": [f"{i + 3} points"], "filter": "none",
                     "metrics": ["em", "f1"],
                     "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                     "prompt_hash": sha(prompt), "target_hash": sha(str(doc["answer"])),
                     "em": 1.0 if v == 1.0 else 0.0, "f1": v})
    return rows


# ---- results files ---------------------------------------------------------------------------------------------

GSM8K_CONFIG = {"task": "gsm8k", "output_type": "generate_until",
                "filter_list": [{"name": "strict-match", "filter": [{"function": "regex"}, {"function": "take_first"}]},
                                {"name": "flexible-extract",
                                 "filter": [{"function": "regex", "group_select": -1}, {"function": "take_first"}]}]}


def results_file(model, tasks, lm_eval_version, with_filter_list=True):
    """tasks: {name: {metric_key: [values]}}; a value list gives mean and stderr."""
    results, hib, nshot, nsamples, configs = {}, {}, {}, {}, {}
    for name, metrics in tasks.items():
        entry = {"alias": name}
        n = 0
        for key, vals in metrics.items():
            metric, flt = key.split(",")
            entry[key] = round(mean(vals), 6)
            entry[f"{metric}_stderr,{flt}"] = round(stderr(vals), 6)
            n = len(vals)
            hib.setdefault(name, {})[metric] = True
        results[name] = entry
        nshot[name] = 5 if name == "gsm8k" else 0
        nsamples[name] = {"original": n, "effective": n}
        if name == "gsm8k" and with_filter_list:
            configs[name] = GSM8K_CONFIG
        else:
            configs[name] = {"task": name, "output_type": "multiple_choice" if name == "arc_challenge" else
                             "generate_until"}
    out = {"results": results, "group_subtasks": {t: [] for t in tasks}, "configs": configs,
           "versions": {t: 3.0 for t in tasks}, "n-shot": nshot, "higher_is_better": hib, "n-samples": nsamples,
           "config": {"model": "vllm", "model_args": f"pretrained={model},dtype=auto,gpu_memory_utilization=0.8",
                      "batch_size": "auto", "limit": None, "bootstrap_iters": 100000, "random_seed": 0,
                      "fewshot_seed": 1234},
           "git_hash": "a1b2c3d", "date": 1787300000.0}
    if lm_eval_version:
        out["lm_eval_version"] = lm_eval_version
    out["model_name"] = model
    out["model_name_sanitized"] = sanitize(model)
    return out


def discordant(base, cand, ids):
    b01 = sum(1 for i in ids if cand[i] == 1.0 and base[i] == 0.0)
    b10 = sum(1 for i in ids if cand[i] == 0.0 and base[i] == 1.0)
    return b01, b10


def binary_expect(base, cand, ids, **extra):
    b01, b10 = discordant(base, cand, ids)
    n = len(ids)
    out = {"n": n, "b01": b01, "b10": b10, "p_value": mcnemar_exact(b01, b10),
           "baseline_mean": mean([base[i] for i in ids]), "candidate_mean": mean([cand[i] for i in ids]),
           "delta_points": (b01 - b10) / n * 100.0}
    out.update(extra)
    return out


# ---- lm-eval 0.5 previews: repeats --------------------------------------------------------------------------------

def repeat_scores(n, seed, base=None):
    """Per doc, REPEATS 0/1 scores (sampling at temperature > 0). With base, FP8 flips some of BF16's repeats."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if base is None:
            p = rng.choice([0.25, 0.5, 0.75, 1.0])
            out.append([1.0 if rng.random() < p else 0.0 for _ in range(REPEATS)])
        else:
            # FP8 loses more right answers than it gains.
            out.append([1.0 - v if rng.random() < (0.35 if v == 1.0 else 0.1) else v for v in base[i]])
    return out


def preview_rows(docs, repeats):
    rows = []
    for i, doc in enumerate(docs):
        prompt = gsm8k_prompt(doc)
        answer = doc["answer"].split("#### ")[1]
        gots = [answer if v == 1.0 else str(int(answer) + 1) for v in repeats[i]]
        rows.append({"doc_id": i, "doc": doc, "target": doc["answer"],
                     "arguments": {"gen_args_0": {"arg_0": prompt,
                                                  "arg_1": {"until": ["Question:"], "do_sample": True,
                                                            "temperature": 0.7}}},
                     "resps": [[f"The answer is {g}." for g in gots]],
                     "filtered_resps": [gots[0] if repeats[i][0] == 1.0 else "[invalid]"],
                     "filter": "strict-match", "metrics": ["exact_match"],
                     "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                     "prompt_hash": sha(prompt), "target_hash": sha(str(doc["answer"])),
                     "exact_match": repeats[i][0],  # take_first
                     "scores_per_repeat": {"exact_match": repeats[i]}})
    return rows


def preview_results(model, reduced, lm_eval_version):
    """A 0.4.12+/0.5-preview results file: name/alias/sample_len entries, model_args as an object."""
    n = len(reduced)
    return {"results": {"gsm8k": {"name": "gsm8k", "alias": "gsm8k", "sample_len": n,
                                  "exact_match,strict-match": round(mean(reduced), 6),
                                  "exact_match_stderr,strict-match": round(stderr(reduced), 6)}},
            "group_subtasks": {},
            "configs": {"gsm8k": {"task": "gsm8k", "output_type": "generate_until", "repeats": REPEATS,
                                  "filter_list": [{"name": "strict-match"}]}},
            "versions": {"gsm8k": 3.0}, "n-shot": {"gsm8k": 5}, "higher_is_better": {"gsm8k": {"exact_match": True}},
            "n-samples": {"gsm8k": {"original": n, "effective": n}},
            "config": {"model": "vllm", "model_args": {"pretrained": model, "dtype": "auto",
                                                       "gpu_memory_utilization": 0.8},
                       "batch_size": "auto", "limit": None, "bootstrap_iters": 100000},
            "git_hash": "e7e6bc67", "date": 1793700000.0, "lm_eval_version": lm_eval_version,
            "model_name": model, "model_name_sanitized": sanitize(model)}


def preview_05(expected):
    docs = gsm8k_docs(N_PREVIEW)
    b = repeat_scores(N_PREVIEW, 23)
    c = repeat_scores(N_PREVIEW, 24, base=b)
    pdir = os.path.join(HERE, "preview-0.5")
    write_jsonl(os.path.join(pdir, "bf16", f"samples_gsm8k_{PREVIEW_BF16_DATE}.jsonl"), preview_rows(docs, b))
    write_jsonl(os.path.join(pdir, "fp8", f"samples_gsm8k_{PREVIEW_FP8_DATE}.jsonl"), preview_rows(docs, c))
    b_first = [r[0] for r in b]
    c_first = [r[0] for r in c]
    write_json(os.path.join(pdir, "bf16", f"llama-bf16_{PREVIEW_BF16_DATE}.json"),
               preview_results(BF16_MODEL, b_first, "0.5.0.dev2"))
    write_json(os.path.join(pdir, "fp8", f"llama-fp8_{PREVIEW_FP8_DATE}.json"),
               preview_results(FP8_MODEL, c_first, "0.5.0.dev2"))
    every = list(range(N_PREVIEW))
    # The test pairs lm-eval's reduced value (the first repeat); the mean over repeats is recorded to show that it
    # differs, so a reader that averaged the repeats would fail the test.
    expected["preview_gsm8k_take_first"] = binary_expect(b_first, c_first, every, repeats=REPEATS,
                                                         baseline_repeat_mean=mean([mean(r) for r in b]),
                                                         candidate_repeat_mean=mean([mean(r) for r in c]))


def main():
    expected = {}

    # --- new layout ---
    docs = gsm8k_docs(N_GSM8K)
    b_strict, b_flex = gsm8k_scores(N_GSM8K, 1)
    c_strict, c_flex = gsm8k_scores(N_GSM8K, 2, base=(b_strict, b_flex))
    changed = (3, 7)
    bdir = os.path.join(HERE, "new-layout", "bf16", sanitize(BF16_MODEL))
    cdir = os.path.join(HERE, "new-layout", "fp8", sanitize(FP8_MODEL))
    write_jsonl(os.path.join(bdir, f"samples_gsm8k_{BF16_DATE}.jsonl"), gsm8k_rows(docs, b_strict, b_flex, True))
    write_jsonl(os.path.join(cdir, f"samples_gsm8k_{FP8_DATE}.jsonl"),
                gsm8k_rows(docs, c_strict, c_flex, True, changed_prompts=changed))
    kept = [i for i in range(N_GSM8K) if i not in changed]
    expected["new_gsm8k_strict"] = binary_expect(b_strict, c_strict, kept, prompt_mismatch_doc_ids=list(changed))
    expected["new_gsm8k_flexible"] = binary_expect(b_flex, c_flex, kept)

    b_acc, b_norm = arc_scores(N_ARC + 1, 3)
    c_acc, c_norm = arc_scores(N_ARC + 1, 4, base=b_acc)
    write_jsonl(os.path.join(bdir, f"samples_arc_challenge_{BF16_DATE}.jsonl"),
                arc_rows(range(N_ARC), b_acc, b_norm))
    write_jsonl(os.path.join(cdir, f"samples_arc_challenge_{FP8_DATE}.jsonl"),
                arc_rows(list(range(N_ARC - 1)) + [N_ARC], c_acc, c_norm, changed_docs=(5,)))
    kept = [i for i in range(N_ARC - 1) if i != 5]
    expected["new_arc_acc"] = binary_expect(b_acc, c_acc, kept, doc_mismatch_doc_ids=[5],
                                            only_in_baseline=[N_ARC - 1], only_in_candidate=[N_ARC])

    b_f1 = drop_scores(N_DROP, 5)
    c_f1 = drop_scores(N_DROP, 6, base=b_f1)
    write_jsonl(os.path.join(bdir, f"samples_drop_{BF16_DATE}.jsonl"), drop_rows(b_f1))
    write_jsonl(os.path.join(cdir, f"samples_drop_{FP8_DATE}.jsonl"), drop_rows(c_f1))
    diffs = [c - b for b, c in zip(b_f1, c_f1)]
    expected["new_drop_f1"] = {"n": N_DROP, "baseline_mean": mean(b_f1), "candidate_mean": mean(c_f1),
                               "mean_difference": mean(diffs), "difference_stderr": stderr(diffs),
                               "nonzero_differences": sum(1 for d in diffs if d != 0)}

    ids_arc_b = list(range(N_ARC))
    ids_arc_c = list(range(N_ARC - 1)) + [N_ARC]
    write_json(os.path.join(bdir, f"results_{BF16_DATE}.json"), results_file(BF16_MODEL, {
        "gsm8k": {"exact_match,strict-match": b_strict, "exact_match,flexible-extract": b_flex},
        "arc_challenge": {"acc,none": [b_acc[i] for i in ids_arc_b], "acc_norm,none": [b_norm[i] for i in ids_arc_b]},
        "drop": {"em,none": [1.0 if v == 1.0 else 0.0 for v in b_f1], "f1,none": b_f1}}, "0.4.9.1"))
    write_json(os.path.join(cdir, f"results_{FP8_DATE}.json"), results_file(FP8_MODEL, {
        "gsm8k": {"exact_match,strict-match": c_strict, "exact_match,flexible-extract": c_flex},
        "arc_challenge": {"acc,none": [c_acc[i] for i in ids_arc_c], "acc_norm,none": [c_norm[i] for i in ids_arc_c]},
        "drop": {"em,none": [1.0 if v == 1.0 else 0.0 for v in c_f1], "f1,none": c_f1}}, "0.4.9.1"))

    # An older BF16 run in the same folder (3 docs, every answer wrong), and a stale FP8 samples file.
    zeros = [0.0] * 3
    write_jsonl(os.path.join(bdir, f"samples_gsm8k_{BF16_OLD_DATE}.jsonl"),
                gsm8k_rows(docs[:3], zeros, zeros, True))
    write_json(os.path.join(bdir, f"results_{BF16_OLD_DATE}.json"), results_file(BF16_MODEL, {
        "gsm8k": {"exact_match,strict-match": zeros, "exact_match,flexible-extract": zeros}}, "0.4.9.1"))
    write_jsonl(os.path.join(cdir, f"samples_arc_challenge_{STALE_DATE}.jsonl"),
                arc_rows(range(2), [0.0] * 2, [0.0] * 2))
    expected["older_bf16_gsm8k_docs"] = 3

    # --- old layout (lm-eval 0.4.3): unlabelled rows, filter by filter ---
    ob_strict, ob_flex = gsm8k_scores(N_GSM8K, 11)
    oc_strict, oc_flex = gsm8k_scores(N_GSM8K, 12, base=(ob_strict, ob_flex))
    obdir = os.path.join(HERE, "old-layout", "bf16", sanitize(BF16_MODEL))
    ocdir = os.path.join(HERE, "old-layout", "fp8", sanitize(FP8_MODEL))
    write_jsonl(os.path.join(obdir, f"samples_gsm8k_{OLD_BF16_DATE}.jsonl"),
                gsm8k_rows(docs, ob_strict, ob_flex, False))
    write_jsonl(os.path.join(ocdir, f"samples_gsm8k_{OLD_FP8_DATE}.jsonl"), gsm8k_rows(docs, oc_strict, oc_flex, False))
    write_json(os.path.join(obdir, f"results_{OLD_BF16_DATE}.json"), results_file(BF16_MODEL, {
        "gsm8k": {"exact_match,strict-match": ob_strict, "exact_match,flexible-extract": ob_flex}}, None))
    write_json(os.path.join(ocdir, f"results_{OLD_FP8_DATE}.json"), results_file(FP8_MODEL, {
        "gsm8k": {"exact_match,strict-match": oc_strict, "exact_match,flexible-extract": oc_flex}}, None))
    every = list(range(N_GSM8K))
    expected["old_gsm8k_strict"] = binary_expect(ob_strict, oc_strict, every)
    expected["old_gsm8k_flexible"] = binary_expect(ob_flex, oc_flex, every)

    preview_05(expected)
    write_json(os.path.join(HERE, "expected.json"), expected)


if __name__ == "__main__":
    main()
