#!/usr/bin/env python3
"""Writes the vLLM bench fixtures of this folder in the published shape of each era (SOURCES.md).

Python's json.dump is the writer vLLM uses, so key order, float spelling (repr) and the appended-object layout are
what the tools write. The numbers are made up but self-consistent: every summary figure is computed here from the
per-request arrays the way vllm/benchmarks/serve.py's calculate_metrics computes it (numpy's linear percentiles).
Run from this folder: python3 make_fixtures.py
"""
import json
import math
import os


def pct(values, p):
    """numpy.percentile's default (linear) interpolation."""
    v = sorted(values)
    if not v:
        return 0.0
    k = (len(v) - 1) * p / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def stats(prefix, values_s, percentiles, out):
    vals = values_s or [0.0]
    mean = sum(vals) / len(vals)
    out[f"mean_{prefix}_ms"] = mean * 1000
    out[f"median_{prefix}_ms"] = pct(vals, 50) * 1000
    out[f"std_{prefix}_ms"] = math.sqrt(sum((x - mean) ** 2 for x in vals) / len(vals)) * 1000
    for p in percentiles:
        word = str(int(p)) if int(p) == p else str(p)
        out[f"p{word}_{prefix}_ms"] = pct(vals, p) * 1000


# Requests: (input_len, output_len, ttft s, itls s, error). A failed request: ttft 0.0, no itls, output_len 0.
REQUESTS = [
    (512, 4, 0.120, [0.011, 0.012, 0.013], ""),
    (480, 3, 0.150, [0.020, 0.010], ""),
    (500, 0, 0.0, [], "ClientConnectorError: Cannot connect to host localhost:8000"),
    (530, 1, 0.200, [], ""),
    (520, 5, 0.090, [0.010, 0.010, 0.011, 0.012], ""),
]


def results(requests, duration, metrics, percentiles, latencies=None):
    ok = [r for r in requests if not r[4]]
    out_lens = [r[1] if not r[4] else 0 for r in requests]
    e2els = [r[2] + sum(r[3]) for r in ok] if latencies is None else [l for l, r in zip(latencies, requests) if not r[4]]
    tpots = [(e - r[2]) / (r[1] - 1) for e, r in zip(e2els, ok) if r[1] > 1]
    itls = [x for r in ok for x in r[3]]
    body = {"duration": duration, "completed": len(ok), "total_input_tokens": sum(r[0] for r in ok),
            "total_output_tokens": sum(out_lens)}
    figures = {}
    for name, vals in (("ttft", [r[2] for r in ok]), ("tpot", tpots), ("itl", itls), ("e2el", e2els)):
        if name in metrics:
            stats(name, vals, percentiles, figures)
    arrays = {"input_lens": [r[0] for r in requests], "output_lens": out_lens, "ttfts": [r[2] for r in requests],
              "itls": [r[3] for r in requests], "generated_texts": ["x" * n for n in out_lens],
              "errors": [r[4] for r in requests]}
    return body, figures, arrays, len(requests) - len(ok)


def era_2024():
    """benchmark_serving.py, mid 2024: best_of / use_beam_search, input_throughput, no max_concurrency, arrays always."""
    body, figures, arrays, _ = results(REQUESTS, 2.5, ("ttft", "tpot", "itl"), (99,))
    d = {"date": "20240715-101500", "backend": "vllm", "model_id": "meta-llama/Meta-Llama-3-8B-Instruct",
         "tokenizer_id": "meta-llama/Meta-Llama-3-8B-Instruct", "best_of": 1, "use_beam_search": False,
         "num_prompts": 5, "request_rate": 4.0}
    d.update(body)
    d["request_throughput"] = body["completed"] / 2.5
    d["input_throughput"] = body["total_input_tokens"] / 2.5
    d["output_throughput"] = body["total_output_tokens"] / 2.5
    d.update(figures)
    d.update(arrays)
    return d


def era_2024_goodput():
    """Oct 2024 on (and forks in 2026): "request_goodput:" with its colon, max_concurrency, total_token_throughput."""
    body, figures, _, _ = results(REQUESTS[:2], 1.0, ("ttft", "tpot", "itl", "e2el"), (90, 99))
    d = {"date": "20241105-093000", "backend": "vllm", "model_id": "neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8",
         "tokenizer_id": "neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8", "best_of": 1, "num_prompts": 2,
         "kv_cache_dtype": "fp8", "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 16}
    d.update(body)
    d["request_throughput"] = 2.0
    d["request_goodput:"] = None
    d["output_throughput"] = float(body["total_output_tokens"])
    d["total_token_throughput"] = float(body["total_input_tokens"] + body["total_output_tokens"])
    d.update(figures)
    return d


def era_2025_detailed():
    """vllm bench serve 2025-26 with --save-detailed --label --metadata, failed, p50/p90/p99/p99.9, e2el, latencies."""
    latencies = [r[2] + sum(r[3]) + 0.001 if not r[4] else 0.0 for r in REQUESTS]
    body, figures, arrays, failed = results(REQUESTS, 3.0, ("ttft", "tpot", "itl", "e2el"), (50, 90, 99, 99.9),
                                            latencies)
    d = {"date": "20260301-120000", "endpoint_type": "openai", "backend": "openai", "label": "fp8-kv",
         "model_id": "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic", "tokenizer_id": "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic",
         "num_prompts": 5, "variant": "W8A8 + FP8 KV", "quantization": "fp8", "kv_cache_dtype": "fp8",
         "api_key": "sk-not-a-real-key-0123456789abcdef", "hf_token": "hf_abcdefghijklmnopqrstuvwxyz",
         "dataset_name": "random", "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 8}
    d.update(body)
    d["failed"] = failed
    d["request_throughput"] = body["completed"] / 3.0
    d["request_goodput"] = 1.0
    d["output_throughput"] = body["total_output_tokens"] / 3.0
    d["total_token_throughput"] = (body["total_input_tokens"] + body["total_output_tokens"]) / 3.0
    arrays["latencies"] = latencies
    arrays["start_times"] = [1000.0 + i * 0.01 for i in range(len(REQUESTS))]
    d.update(arrays)
    d["max_output_tokens_per_s"] = 9.0
    d["max_concurrent_requests"] = 4
    d["rtfx"] = 0.0
    d.update(figures)
    return d


def point(concurrency, rate, ttft_ms, label):
    body, figures, _, _ = results(REQUESTS[:2], 1.0, ("ttft", "tpot", "itl", "e2el"), (99,))
    d = {"date": "20260302-080000", "endpoint_type": "openai", "backend": "openai", "label": label,
         "model_id": "Qwen/Qwen3-8B", "tokenizer_id": "Qwen/Qwen3-8B", "num_prompts": 2,
         "request_rate": rate, "burstiness": 1.0, "max_concurrency": concurrency}
    d.update(body)
    d.update({"failed": 0, "request_throughput": 2.0, "request_goodput": None, "output_throughput": 7.0,
              "total_token_throughput": 999.0})
    d.update(figures)
    d["p99_ttft_ms"] = ttft_ms
    return d


def all_failed():
    """vllm bench serve 0.25.1 when every request failed: completed 0, every figure 0.0, exit 0."""
    d = {"date": "20261020-141500", "endpoint_type": "openai", "backend": "openai", "label": None,
         "model_id": "Qwen/Qwen3-8B-FP8", "tokenizer_id": "Qwen/Qwen3-8B-FP8", "num_prompts": 100,
         "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 16, "duration": 0.412,
         "completed": 0, "failed": 100, "total_input_tokens": 0, "total_output_tokens": 0,
         "request_throughput": 0.0, "request_goodput": None, "output_throughput": 0.0,
         "total_token_throughput": 0.0, "max_output_tokens_per_s": 0.0, "max_concurrent_requests": 0, "rtfx": 0.0}
    for m in ("ttft", "tpot", "itl"):
        for s in ("mean", "median", "std", "p99"):
            d[f"{s}_{m}_ms"] = 0.0
    return d


def sweep_record(run_number, kv, ttft_ms):
    d = point(16, "inf", ttft_ms, None)
    d["run_number"] = run_number
    d["kv_cache_dtype"] = kv           # the serve parameter, merged in by sweep/serve.py's _update_run_data
    d["max_concurrency"] = 16          # the bench parameter
    return d


def main():
    def dump(name, obj, indent=None):
        os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
        with open(name, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=indent)

    dump("benchmark_serving_2024-07_rate4.json", era_2024())
    dump("benchmark_serving_2024-11_goodput-colon.json", era_2024_goodput())
    dump("vllm_bench_serve_2026-03_detailed.json", era_2025_detailed())
    dump("vllm_bench_serve_0.25.1_all-failed.json", all_failed())
    # --append-result: objects one after another, "\n" between them (serve.py main), no list.
    with open("vllm_bench_serve_append-result.json", "w", encoding="utf-8") as f:
        json.dump(point(4, "inf", 210.5, "bf16"), f)
        f.write("\n")
        json.dump(point(8, "inf", 250.25, "bf16"), f)
        f.write("\n")
        json.dump(point(None, 2.5, 300.0, "bf16"), f)
    base = "sweep/20260302_080000"
    fp8 = base + "/SERVE--kv_cache_dtype-fp8-BENCH--max_concurrency-16"
    records = [sweep_record(n, "fp8", 400.0 + 10 * n) for n in range(3)]
    for n, rec in enumerate(records):
        dump(f"{fp8}/run={n}.json", rec, indent=4)
    dump(f"{fp8}/summary.json", records, indent=4)
    auto = base + "/SERVE--kv_cache_dtype-auto-BENCH--max_concurrency-16"
    dump(f"{auto}/summary.json", [sweep_record(n, "auto", 500.0 + n) for n in range(2)], indent=4)
    with open(base + "/summary.csv", "w", encoding="utf-8") as f:
        f.write(",run_number,kv_cache_dtype\n0,0,fp8\n")


if __name__ == "__main__":
    main()
