#!/usr/bin/env python3
"""Writes the multi-variant lm-eval results files (SOURCES.md says where every value comes from).

One BF16 baseline and three FP8 variants per model, the scores of the vLLM blog post "The State of FP8 KV-Cache and
Attention Quantization in vLLM" (vllm-project/vllm-project.github.io, _posts/2026-04-22-fp8-kvcache.md @78672b0f,
Figures 7 and 8), in lm-evaluation-harness 0.4.9.2's results-file layout (config.model_args a string).
Usage: python3 make_variants.py   (deterministic; writes next to this script)
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- tasks: lm-eval name, metric key, test-set size (n-samples), version, repeats the blog averaged pass@1 over ----
# (name, metric, filter, n, version, repeats, source-figure column)
TASKS = [
    ("aime25", "exact_match", "none", 30, 0.0, 10, "AIME25"),
    ("gpqa_diamond_cot_zeroshot", "exact_match", "flexible-extract", 198, 1.0, 5, "GPQA:Diamond"),
    ("livecodebench_v6", "pass@1", "none", 175, 1.0, 10, "LiveCodeBench-v6"),
    ("minerva_math500", "math_verify", "none", 500, 3.0, 5, "MATH-500"),
]

# ---- the figures' bar labels (percent), as printed; converted to fractions by /100 below ----
# order: aime25, gpqa_diamond_cot_zeroshot, livecodebench_v6, minerva_math500
MODELS = {
    "qwen3.5-27b": {
        "figure": "Figure 8 (fig8_Qwen3.5-27B_reasoning_combined_plot.png)",
        "bf16_id": "Qwen/Qwen3.5-27B",
        "fp8_id": "Qwen/Qwen3.5-27B-FP8",
        # Qwen3.5 "thinking mode for general tasks" sampling (Qwen's best practices); max_gen_toks assumed.
        "gen_kwargs": {"do_sample": True, "temperature": 1.0, "top_p": 0.95, "top_k": 20, "min_p": 0.0,
                       "presence_penalty": 1.5, "repetition_penalty": 1.0, "max_gen_toks": 32768},
        "variants": {
            "bf16": ([92.7, 86.9, 79.4, 85.4], "2026-04-14T09-12-41.503118"),
            "fp8-kv": ([92.0, 86.5, 79.6, 85.3], "2026-04-14T17-40-02.118940"),
            "fp8-weights": ([92.7, 86.7, 79.8, 84.9], "2026-04-15T08-05-37.772305"),
            "fp8-weights-kv": ([93.3, 86.5, 79.2, 85.4], "2026-04-15T15-28-19.040517"),
        },
    },
    "qwen3-30b-a3b-thinking-2507": {
        "figure": "Figure 7 (fig7_Qwen3-30B-A3B-Thinking-2507_reasoning_combined_plot.png)",
        "bf16_id": "Qwen/Qwen3-30B-A3B-Thinking-2507",
        "fp8_id": "Qwen/Qwen3-30B-A3B-Thinking-2507-FP8",
        # Qwen3-2507 Thinking recommended sampling; max_gen_toks assumed.
        "gen_kwargs": {"do_sample": True, "temperature": 0.6, "top_p": 0.95, "top_k": 20, "min_p": 0.0,
                       "max_gen_toks": 32768},
        "variants": {
            "bf16": ([86.3, 72.8, 65.4, 92.8], "2026-04-09T10-21-07.334562"),
            "fp8-kv": ([84.7, 70.7, 64.5, 91.9], "2026-04-09T16-47-55.901276"),
            "fp8-weights": ([86.0, 72.2, 64.4, 92.4], "2026-04-10T09-02-13.627814"),
            "fp8-weights-kv": ([85.7, 72.3, 63.5, 92.0], "2026-04-10T14-55-48.210093"),
        },
    },
}

LM_EVAL_VERSION = "0.4.9.2"
GIT_HASH = "ad3f4d0"  # the v0.4.9.2 tag's commit, ad3f4d0cad1cfcdb815f1e795f7947e49ed9f2e9


def model_args(model, variant):
    """The vLLM settings of each variant, as lm-eval writes --model_args (a string in 0.4.9.2)."""
    if variant == "bf16":
        return f"pretrained={model['bf16_id']},dtype=bfloat16"
    if variant == "fp8-kv":
        return f"pretrained={model['bf16_id']},dtype=bfloat16,kv_cache_dtype=fp8"
    if variant == "fp8-weights":
        return f"pretrained={model['fp8_id']},dtype=auto"
    if variant == "fp8-weights-kv":
        return f"pretrained={model['fp8_id']},dtype=auto,kv_cache_dtype=fp8"
    raise ValueError(variant)


def stderr(p, n):
    """sqrt(p(1-p)/(n-1)): lm-eval's sample stderr of a mean of 0/1 scores (metrics.mean_stderr)."""
    return math.sqrt(p * (1.0 - p) / (n - 1))


def task_config(name, repeats, gen):
    """Each task's config as lm-eval dumps it (TaskConfig.to_dict), from the v0.4.9.2 yaml, --gen_kwargs merged in.

    Abridged: the Python-function fields (process_docs, process_results, a function doc_to_text), which lm-eval dumps
    as their source text, are left out rather than written from memory."""
    sampling = dict(gen)
    if name == "aime25":
        return {
            "task": "aime25", "tag": ["math_word_problems"], "dataset_path": "math-ai/aime25",
            "training_split": "test", "test_split": "test", "fewshot_split": "test",
            "doc_to_text": "Question: {{problem}}\nAnswer:", "doc_to_target": "{{answer}}",
            "unsafe_code": False, "description": "", "target_delimiter": " ", "fewshot_delimiter": "\n\n",
            "num_fewshot": 0,
            "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True}],
            "output_type": "generate_until",
            "generation_kwargs": {"until": ["Question:", "</s>", "<|im_end|>", "<|eot_id|>"], **sampling},
            "repeats": repeats, "should_decontaminate": False, "metadata": {"version": 0.0},
        }
    if name == "gpqa_diamond_cot_zeroshot":
        return {
            "task": "gpqa_diamond_cot_zeroshot", "tag": "gpqa", "dataset_path": "Idavidrein/gpqa",
            "dataset_name": "gpqa_diamond", "training_split": "train", "validation_split": "train",
            "doc_to_text": "What is the correct answer to this question:{{Question}}\nChoices:\n(A) {{choice1}}\n"
                           "(B) {{choice2}}\n(C) {{choice3}}\n(D) {{choice4}}\nLet's think step by step: ",
            "doc_to_target": "answer", "unsafe_code": False, "description": "", "target_delimiter": " ",
            "fewshot_delimiter": "\n\n", "num_fewshot": 0,
            "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True,
                             "ignore_case": True, "ignore_punctuation": True}],
            "output_type": "generate_until",
            "generation_kwargs": {"until": ["</s>"], **sampling},
            "repeats": repeats,
            "filter_list": [
                {"name": "strict-match", "filter": [{"function": "regex",
                                                     "regex_pattern": "(?<=The answer is )(.*)(?=.)"},
                                                    {"function": "take_first"}]},
                {"name": "flexible-extract", "filter": [{"function": "multi_choice_regex", "group_select": -1,
                                                         "ignore_case": True, "ignore_punctuation": True,
                                                         "regex_pattern": "(\\([A-Z]\\))"},
                                                        {"function": "take_first"}]},
            ],
            "should_decontaminate": False, "metadata": {"version": 1.0},
        }
    if name == "livecodebench_v6":
        # Not an upstream lm-eval task (none up to v0.4.12): a local task yaml loaded with --include_path.
        return {
            "task": "livecodebench_v6", "dataset_path": "livecodebench/code_generation_lite",
            "dataset_kwargs": {"version_tag": "v6"}, "test_split": "test",
            "doc_to_text": "{{question_content}}", "doc_to_target": "", "unsafe_code": True, "description": "",
            "target_delimiter": " ", "fewshot_delimiter": "\n\n", "num_fewshot": 0,
            "metric_list": [{"metric": "pass@1", "aggregation": "mean", "higher_is_better": True}],
            "output_type": "generate_until",
            "generation_kwargs": {"until": [], **sampling},
            "repeats": repeats, "should_decontaminate": False, "metadata": {"version": 1.0},
        }
    if name == "minerva_math500":
        return {
            "task": "minerva_math500", "tag": ["math_word_problems"], "dataset_path": "HuggingFaceH4/MATH-500",
            "dataset_name": "default", "test_split": "test",
            "doc_to_target": "{{answer if few_shot is undefined else solution}}",
            "unsafe_code": False, "description": "", "target_delimiter": " ", "fewshot_delimiter": "\n\n",
            "num_fewshot": 0,
            "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True},
                            {"metric": "math_verify", "aggregation": "mean", "higher_is_better": True}],
            "output_type": "generate_until",
            "generation_kwargs": {"until": ["Problem:"], **sampling},
            "repeats": repeats, "should_decontaminate": False, "metadata": {"version": 3.0},
        }
    raise ValueError(name)


def epoch_of(stamp):
    """The file name's local time (lm-eval: datetime.now().isoformat() with ':' -> '-'), read as UTC."""
    import datetime
    day, clock = stamp.split("T")
    hh, mm, rest = clock.split("-")
    dt = datetime.datetime.fromisoformat(f"{day}T{hh}:{mm}:{rest}").replace(tzinfo=datetime.timezone.utc)
    return dt.timestamp()


def results_file(model, variant):
    percents, stamp = model["variants"][variant]
    args = model_args(model, variant)
    pretrained = args.split(",")[0].split("=", 1)[1]
    results, configs, versions, nshot, hib, nsamples = {}, {}, {}, {}, {}, {}
    for (name, metric, filt, n, version, repeats, _), pct in zip(TASKS, percents):
        p = round(pct / 100.0, 4)  # 92.7 -> 0.927: the value the hand arithmetic in SOURCES.md uses
        results[name] = {"alias": name, f"{metric},{filt}": p, f"{metric}_stderr,{filt}": stderr(p, n)}
        configs[name] = task_config(name, repeats, model["gen_kwargs"])
        versions[name] = version
        nshot[name] = 0
        hib[name] = {metric: True}  # only the metric written (minerva_math500's exact_match is left out)
        nsamples[name] = {"original": n, "effective": n}
    date = epoch_of(stamp)
    total = 5400.0 + 600.0 * list(model["variants"]).index(variant)  # invented wall-clock seconds
    start = 1000000.0 + date % 100000.0  # perf_counter-like values, invented
    return {
        "results": results,
        "group_subtasks": {name: [] for name in reversed([t[0] for t in TASKS])},
        "configs": dict(sorted(configs.items())),
        "versions": dict(sorted(versions.items())),
        "n-shot": dict(sorted(nshot.items())),
        "higher_is_better": dict(sorted(hib.items())),
        "n-samples": {name: nsamples[name] for name in reversed([t[0] for t in TASKS])},
        "config": {
            "model": "vllm",
            "model_args": args,
            "batch_size": "auto",
            "batch_sizes": [],
            "device": None,
            "use_cache": None,
            "limit": None,
            "bootstrap_iters": 100000,
            "gen_kwargs": dict(model["gen_kwargs"]),
            "random_seed": 0,
            "numpy_seed": 1234,
            "torch_seed": 1234,
            "fewshot_seed": 1234,
        },
        "git_hash": GIT_HASH,
        "date": date,
        "lm_eval_version": LM_EVAL_VERSION,
        "upper_git_hash": None,
        "task_hashes": {},
        "model_source": "vllm",
        "model_name": pretrained,
        "model_name_sanitized": pretrained.replace("/", "__"),
        "system_instruction": None,
        "system_instruction_sha": None,
        "fewshot_as_multiturn": False,
        "chat_template": None,
        "chat_template_sha": None,
        "start_time": start,
        "end_time": start + total,
        "total_evaluation_time_seconds": str(total),
    }, stamp


def main():
    for short, model in MODELS.items():
        for variant in model["variants"]:
            data, stamp = results_file(model, variant)
            folder = os.path.join(HERE, short, variant)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, f"results_{stamp}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, ensure_ascii=False)
                f.write("\n")
            print(os.path.relpath(path, HERE))


if __name__ == "__main__":
    main()
