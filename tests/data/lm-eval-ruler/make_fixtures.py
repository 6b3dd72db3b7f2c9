#!/usr/bin/env python3
"""Writes a MADE RULER results pair in lm-eval's results format (see SOURCES.md): a BF16 baseline and a candidate
with an FP8 KV cache and no calculate_kv_scales, whose scores fall more the longer the context.

Shapes follow lm-evaluation-harness at 4e7e0d47 (0.4.13.dev0): lm_eval/tasks/ruler/*.yaml (13 tasks, one metric per
context length named "4096" ... "131072", higher_is_better, generation_kwargs, metadata.version 1.0; the group
`ruler` aggregates the metric "4096" alone, unweighted), common_utils.py (process_results sets the default length
4096 to -1 for a document of another length; aggregate_metrics returns -1 when no document had that length),
evaluator_utils.py (a custom aggregation has no stderr function: "<len>_stderr,none" is "N/A"), api/group.py (the
group's value is the mean of its tasks' values, its stderr "N/A" when any is). Both runs were "made" with
--metadata '{"max_seq_lengths":[8192,16384,32768,65536,131072]}', so 4096 is -1 everywhere.

Scores are counts over the 500 documents per length the task generators make (num_samples=500), in units of the
per-document score steps (a multi-value needle scores 1/4 per value found, ...). Deterministic: no randomness.

Run from this folder: python3 make_fixtures.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
LENGTHS = [8192, 16384, 32768, 65536, 131072]
ALL_LENGTHS = [4096] + LENGTHS  # the metric_list of every RULER task yaml
DOCS = 500  # num_samples in niah_utils.py, vt_utils.py, cwe_utils.py, fwe_utils.py, qa_utils.py

# task -> (per-document score step denominator, max_gen_toks from its yaml, baseline score per length)
TASKS = {
    "niah_single_1": (1, 128, [1.000, 1.000, 1.000, 0.998, 0.994]),
    "niah_single_2": (1, 128, [1.000, 0.998, 0.996, 0.990, 0.972]),
    "niah_single_3": (1, 128, [0.998, 0.996, 0.990, 0.982, 0.950]),
    "niah_multikey_1": (1, 128, [0.996, 0.992, 0.984, 0.960, 0.902]),
    "niah_multikey_2": (1, 128, [0.990, 0.978, 0.950, 0.880, 0.746]),
    "niah_multikey_3": (1, 128, [0.982, 0.960, 0.902, 0.768, 0.552]),
    "niah_multiquery": (4, 128, [0.9965, 0.9920, 0.9850, 0.9640, 0.9100]),
    "niah_multivalue": (4, 128, [0.9920, 0.9860, 0.9755, 0.9480, 0.8870]),
    "ruler_vt": (5, 30, [0.9836, 0.9720, 0.9508, 0.8964, 0.7832]),
    "ruler_cwe": (10, 120, [0.8920, 0.6846, 0.3518, 0.1234, 0.0412]),
    "ruler_fwe": (3, 50, [0.9180, 0.9013, 0.8840, 0.8173, 0.7400]),
    "ruler_qa_squad": (1, 32, [0.786, 0.752, 0.716, 0.680, 0.618]),
    "ruler_qa_hotpot": (1, 32, [0.594, 0.566, 0.534, 0.496, 0.452]),
}
# The candidate's relative loss per length (an FP8 KV cache without scales: error accumulates with context), scaled
# per task below; harder tasks lose more.
LOSS = [0.001, 0.004, 0.010, 0.025, 0.060]
TASK_FACTOR = {"niah_single_1": 0.2, "niah_single_2": 0.5, "niah_single_3": 0.8, "ruler_cwe": 1.6,
               "ruler_qa_hotpot": 1.3, "ruler_qa_squad": 1.2, "niah_multikey_3": 1.5}
CUSTOM_DATASET = {
    "niah_single_1": "niah_utils.niah_single_1", "niah_single_2": "niah_utils.niah_single_2",
    "niah_single_3": "niah_utils.niah_single_3", "niah_multikey_1": "niah_utils.niah_multikey_1",
    "niah_multikey_2": "niah_utils.niah_multikey_2", "niah_multikey_3": "niah_utils.niah_multikey_3",
    "niah_multiquery": "niah_utils.niah_multiquery", "niah_multivalue": "niah_utils.niah_multivalue",
    "ruler_vt": "vt_utils.get_vt_dataset", "ruler_cwe": "cwe_utils.get_cw_dataset",
    "ruler_fwe": "fwe_utils.fwe_download", "ruler_qa_squad": "qa_utils.get_squad",
    "ruler_qa_hotpot": "qa_utils.get_hotpotqa",
}
MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def quantized(score, steps):
    """The nearest score a mean of DOCS per-document scores in steps of 1/steps can take."""
    units = DOCS * steps
    return round(score * units) / units


def scores(task, candidate):
    steps, _, base = TASKS[task]
    out = []
    for i, b in enumerate(base):
        v = b * (1 - LOSS[i] * TASK_FACTOR.get(task, 1.0)) if candidate else b
        out.append(quantized(v, steps))
    return out


def task_entry(task, values):
    entry = {"name": task, "alias": task, "sample_len": DOCS * len(LENGTHS)}
    # aggregate_metrics over the per-document lists: -1 where no document had that length (4096 here)
    for length in ALL_LENGTHS:
        v = values[LENGTHS.index(length)] if length in LENGTHS else -1
        entry[f"{length},none"] = v
        entry[f"{length}_stderr,none"] = "N/A"
    return entry


def task_config(task):
    _, max_gen_toks, _ = TASKS[task]
    return {
        "task": task, "tag": ["longcxt"], "custom_dataset": CUSTOM_DATASET[task], "dataset_path": "",
        "dataset_name": "", "test_split": "test", "doc_to_text": "{{input}}", "doc_to_target": "{{outputs}}",
        "unsafe_code": False, "gen_prefix": "{{gen_prefix}}", "process_results": "common_utils.process_results_part"
        if task.startswith("ruler_qa") else "common_utils.process_results",
        "description": "", "target_delimiter": "\n\n" if task == "ruler_cwe" else " ", "fewshot_delimiter": "\n\n",
        "num_fewshot": 0,
        "metric_list": [{"metric": str(n), "aggregation": "common_utils.aggregate_metrics", "higher_is_better": True}
                        for n in ALL_LENGTHS],
        "output_type": "generate_until",
        "generation_kwargs": {"do_sample": False, "temperature": 0.0, "max_gen_toks": max_gen_toks, "until": []},
        "repeats": 1, "should_decontaminate": False,
        "metadata": {"version": 1.0, "pretrained": MODEL, "max_seq_lengths": LENGTHS},
    }


def run(candidate):
    results = {}
    per_task = {}
    for task in TASKS:
        per_task[task] = scores(task, candidate)
        results[task] = task_entry(task, per_task[task])
    # api/group.py: the group aggregates its aggregate_metric_list ("4096") as the unweighted mean of its tasks
    group_4096 = sum(results[t]["4096,none"] for t in TASKS) / len(TASKS)
    group = {"alias": "ruler", "name": "ruler", "sample_len": DOCS * len(LENGTHS) * len(TASKS),
             "4096,none": group_4096, "4096_stderr,none": "N/A",
             "sample_count": {"4096,none": DOCS * len(LENGTHS) * len(TASKS)}}
    ordered = {"ruler": group}
    ordered.update(results)
    model_args = {"pretrained": MODEL, "dtype": "bfloat16", "max_model_len": 131072, "tensor_parallel_size": 1,
                  "gpu_memory_utilization": 0.9}
    if candidate:
        model_args["kv_cache_dtype"] = "fp8"  # no calculate_kv_scales: K/V scales stay 1.0
    hib = {t: {str(n): True for n in ALL_LENGTHS} for t in TASKS}
    hib["ruler"] = {"4096": True}
    return {
        "results": ordered,
        "groups": {"ruler": group},
        "group_subtasks": {"ruler": list(TASKS)},
        "configs": {t: task_config(t) for t in sorted(TASKS)},
        "versions": {"ruler": 1, **{t: 1.0 for t in TASKS}},
        "n-shot": {t: 0 for t in TASKS},
        "higher_is_better": hib,
        "n-samples": {t: {"original": DOCS * len(LENGTHS), "effective": DOCS * len(LENGTHS)} for t in TASKS},
        "config": {
            "model": "vllm", "model_args": model_args, "batch_size": "auto", "batch_sizes": [], "device": None,
            "use_cache": None, "limit": None, "bootstrap_iters": 100000, "gen_kwargs": None, "random_seed": 0,
            "numpy_seed": 1234, "torch_seed": 1234, "fewshot_seed": 1234,
        },
        "git_hash": "4e7e0d4",
        "date": 1785312000.0 + (86400.0 if candidate else 0.0),
        "transformers_version": "4.56.1",
        "lm_eval_version": "0.4.13.dev0",
        "upper_git_hash": None,
        "tokenizer_pad_token": ["<|eot_id|>", "128009"],
        "tokenizer_eos_token": ["<|eot_id|>", "128009"],
        "tokenizer_bos_token": ["<|begin_of_text|>", "128000"],
        "eot_token_id": 128009,
        "max_length": 131072,
        "task_hashes": {},
        "model_source": "vllm",
        "model_name": MODEL,
        "model_name_sanitized": MODEL.replace("/", "__"),
        "system_instruction": None,
        "system_instruction_sha": None,
        "fewshot_as_multiturn": False,
        "chat_template": None,
        "chat_template_sha": None,
    }


def write(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    write("llama3.1-8b-instruct_ruler_bf16.json", run(False))
    write("llama3.1-8b-instruct_ruler_fp8kv.json", run(True))
