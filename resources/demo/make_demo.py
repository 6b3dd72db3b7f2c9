#!/usr/bin/env python3
"""Builds the bundled demo comparison, resources/demo/llama3-8b-instruct-fp8.fp8cmp, so that a demo walks through
every step of the decision on a laptop with nothing connected.

What is real and what is illustrative:
- The offline evals are the model card's published figures (tests/data/comparison-files/v1/
  demo-llama3-8b-instruct-fp8.fp8cmp is the demo as fp8dash 0.1.0 shipped it; its notes say where they come from).
- The local benchmarks are a real `fp8dash bench kv --cpu` run on fp8dash's synthetic K/V cache with the model's shapes
  (the CPU's software E4M3 codec); GEMM and bandwidth rows need a GPU and say so. The notes quote no KV figure: the
  headline (README "Reading the KV-cache figures") is computed from the run when the file is shown.
- The domain judge scores and the production timeline are ILLUSTRATIVE: generated here from a fixed seed, shaped
  like a real FP8 switch (judge scores 1-5 on 200 domain prompts, a small paired drop; Prometheus throughput +48 %
  and Langfuse quality within 0.1 points). The demo's notes say so, and so does the README.
- The serving benchmarks are ILLUSTRATIVE too: `vllm bench serve --save-result` files generated here for BF16 and
  FP8 (W8A8, KV cache BF16, as the evals' candidate) on a concurrency ladder 1..256 (random dataset, 1,024 input and
  256 output tokens), shaped like the published measurements (FP8 W8A8 serves ~+40 % output tokens/s at mid load on
  an H100) and read by fp8dash's own reader through `fp8dash compare --serving`, with the SLO p99 TTFT <= 2 s and 128
  concurrent users to serve. The demo has no FP8 KV-cache run (its notes say that step is one of its own), so it has
  no serving run of one either.
- The capacity inputs are the Capacity view's settings (Llama 3 8B on one H100 SXM, FP8 weights and KV cache).

Usage (from the repository root, with a built fp8dash):
    python3 resources/demo/make_demo.py build/ci/app/fp8dash
It reads the version-1 demo, runs `fp8dash compare` for the judge and serving sections and `fp8dash bench` for the
benchmarks, and writes the demo file. Run it again only on purpose: the tests read the demo's content from the file.
"""

import json
import math
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, "tests/data/comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp")
OUTPUT = os.path.join(ROOT, "resources/demo/llama3-8b-instruct-fp8.fp8cmp")

SEED = 20261201
CHANGE_AT = 1795723200  # 2026-11-26T20:00:00Z: FP8 switched on
FROM = CHANGE_AT - 30 * 3600  # 30 hours before: the alert's 1-day window has history at the change
TO = CHANGE_AT + 24 * 3600  # a whole day after: the day's rhythm averages out on both sides
STEP = 120

TOPICS = [
    "the refund policy for annual plans", "a dosage table for a pediatric antibiotic", "the SLA credits after an outage",
    "a SQL query joining orders and refunds", "the tax treatment of stock options", "GDPR data retention limits",
    "a unit conversion in a lab protocol", "the warranty terms for refurbished devices", "an invoice dispute email",
    "the escalation path for a P1 incident", "a regex for European VAT numbers", "the interest on a late payment",
]


def judge_files(directory):
    rng = random.Random(SEED)
    base, cand = [], []
    for i in range(200):
        prompt = f"Answer the customer's question about {TOPICS[i % len(TOPICS)]} (case {i + 1:03d})."
        score = rng.choices([2, 3, 4, 5], weights=[3, 14, 40, 43])[0]
        roll = rng.random()
        # FP8: most answers unchanged, some a point worse, a few a point better (a small, real-looking drop).
        new = max(1, score - 1) if roll < 0.075 else min(5, score + 1) if roll > 0.975 else score
        base.append({"id": f"domain-{i + 1:03d}", "score": score, "prompt": prompt})
        cand.append({"id": f"domain-{i + 1:03d}", "score": new, "prompt": prompt})
    paths = []
    for name, rows in (("bf16", base), ("fp8", cand)):
        path = os.path.join(directory, f"judge-{name}.jsonl")
        with open(path, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
        paths.append(path)
    return paths


SERVING_LOADS = [1, 2, 4, 8, 16, 32, 64, 128, 256]
SERVING_SLO = "ttft_p99=2000ms"
SERVING_TARGET_LOAD = 128  # concurrent users to serve: the replicas each variant needs at the SLO
SERVING_MODELS = {"BF16": "meta-llama/Meta-Llama-3-8B-Instruct", "FP8": "neuralmagic/Meta-Llama-3-8B-Instruct-FP8"}


def serving_result(label, concurrency, rng):
    """One illustrative `vllm bench serve --save-result` object: Llama 3 8B on one H100, 1,024 in / 256 out tokens.

    Output tokens/s saturate with the batch, FP8 W8A8's at a higher ceiling (its matmuls run at FP8 rate and its
    weights are half the bytes): about +40 % output tokens/s from mid load on. p99 TTFT grows with the load, BF16's
    past 2 s between 32 and 64 concurrent requests, FP8's between 64 and 128.
    """
    fp8 = label == "FP8"
    c = concurrency

    def jitter():
        return 1 + rng.gauss(0, 0.01)

    # Output tokens/s saturate with the batch; FP8's ceiling is higher (about +40 % from mid load on).
    out_tps = (5200 * c / (c + 44) if fp8 else 3600 * c / (c + 40)) * jitter()
    # p99 TTFT grows with the prefills queued beside each new request; FP8's prefill is faster.
    ttft_p99 = ((45 + 33 * c**0.85) if fp8 else (60 + 190 * c**0.65)) * jitter()
    ttft_mean = 0.45 * ttft_p99
    e2el_mean = 256 / (out_tps / c) * 1000  # each request's share of the output rate, 256 tokens
    tpot = (e2el_mean - ttft_mean) / 255
    prompts = max(64, 8 * c)
    out_tokens, in_tokens = 256 * prompts, 1024 * prompts
    duration = out_tokens / out_tps

    def stats(name, mean, p50, p90, p99):
        return {f"mean_{name}_ms": round(mean, 3), f"median_{name}_ms": round(p50, 3),
                f"std_{name}_ms": round((p99 - p50) / 2.33, 3), f"p90_{name}_ms": round(p90, 3),
                f"p99_{name}_ms": round(p99, 3)}

    result = {
        "date": f"20261128-{10 + SERVING_LOADS.index(c):02d}{'30' if fp8 else '00'}00",
        "endpoint_type": "vllm", "backend": "vllm", "label": label,
        "model_id": SERVING_MODELS[label], "tokenizer_id": SERVING_MODELS[label],
        "num_prompts": prompts, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": c,
        "duration": round(duration, 3), "completed": prompts, "failed": 0,
        "total_input_tokens": in_tokens, "total_output_tokens": out_tokens,
        "request_throughput": round(prompts / duration, 4), "request_goodput": None,
        "output_throughput": round(out_tokens / duration, 3),
        "total_token_throughput": round((in_tokens + out_tokens) / duration, 3),
    }
    result.update(stats("ttft", ttft_mean, ttft_mean * 0.8, ttft_p99 * 0.62, ttft_p99))
    result.update(stats("tpot", tpot, tpot * 0.99, tpot * 1.04, tpot * 1.09))
    result.update(stats("itl", tpot, tpot * 0.97, tpot * 1.12, tpot * 1.6))
    result.update(stats("e2el", e2el_mean, e2el_mean * 0.99, e2el_mean * 1.06, e2el_mean * 1.12 + ttft_p99 * 0.5))
    # The --metadata of the loop that ran it, as vLLM writes it: top-level keys, values as strings.
    result.update({"dataset_name": "random", "random_input_len": "1024", "random_output_len": "256", "seed": "0",
                   "gpu": "H100 SXM 80GB", "kv_cache_dtype": "auto"})
    if fp8:
        result["quantization"] = "fp8"
    return result


def serving_files(directory):
    """Writes one folder of results per variant (a loop of `vllm bench serve --save-result --label ...`)."""
    rng = random.Random(SEED + 2)
    folders = {}
    for label in ("BF16", "FP8"):
        folder = os.path.join(directory, f"serving-{label.lower()}")
        os.makedirs(folder)
        for c in SERVING_LOADS:
            with open(os.path.join(folder, f"vllm-{label.lower()}-c{c}.json"), "w") as f:
                json.dump(serving_result(label, c, rng), f, indent=1)
        folders[label] = folder
    return folders


def timeline():
    rng = random.Random(SEED + 1)
    times = list(range(FROM, TO + 1, STEP))

    def throughput(t):
        # A day's rhythm (busiest in the afternoon UTC) around 1,450 tok/s; FP8 adds 48 % once it is on everywhere
        # (a 5-minute rollout).
        day = 1450 + 200 * math.sin(2 * math.pi * ((t % 86400) - 8 * 3600) / 86400)
        ramp = min(1.0, max(0.0, (t - CHANGE_AT) / 300))
        return round((day + rng.gauss(0, 35)) * (1 + 0.48 * ramp), 2)

    tv = [throughput(t) for t in times]
    # Judge quality, one averaged score every 2 minutes: 4.20 before, 4.14 after (within the expected ±0.1).
    qv = [round((4.20 if t < CHANGE_AT else 4.14) + rng.gauss(0, 0.12), 3) for t in times]
    settings = {
        "prometheus_url": "https://prometheus.demo.invalid",
        "prometheus_auth": "none",
        "prometheus_header_names": [],
        "fetch_throughput": True,
        "throughput_query": "sum(rate(vllm:generation_tokens_total[5m]))",
        "series_pick": "",
        "quality_source": "langfuse",
        "quality_query": 'langfuse_score_value{name="llm_judge_domain"}',
        "langfuse_url": "https://langfuse.demo.invalid",
        "score_name": "llm_judge_domain",
        "trace_tags": [],
        "environments": ["production"],
        "from": FROM,
        "to": TO,
        "step": STEP,
        "change_at": CHANGE_AT,
        "rule": {"short_window_s": 1800, "long_window_s": 86400, "offset_s": 7200, "margin": 0.2,
                 "hold_for_s": 900},
        "bands": {"throughput_low_pct": 40, "throughput_high_pct": 60, "quality_tolerance": 0.1,
                  "quality_problem": 0.3},
    }
    return {
        "settings": settings,
        "throughput": {"labels": {}, "t": times, "v": tv},
        "quality": {"labels": {"name": "llm_judge_domain"}, "t": times, "v": qv},
        # The alert never holds on this data (its 30-minute mean stays within 0.2 of the day's); the tests
        # re-evaluate the rule on the series and check that.
        "alerts": [],
        "alerts_evaluated_by": "local",
        "detected_change": None,
        "warnings": [],
    }


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fp8dash = sys.argv[1]
    with open(SOURCE) as f:
        demo = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for side in ("baseline", "candidate"):
            runs[side] = os.path.join(tmp, f"{side}.json")
            with open(runs[side], "w") as f:
                json.dump(demo["runs"][side]["results"], f)
        jb, jc = judge_files(tmp)
        serving = serving_files(tmp)
        labels = {side: demo["runs"][side]["label"] for side in ("baseline", "candidate")}
        judged = os.path.join(tmp, "judged.fp8cmp")
        subprocess.run([fp8dash, "compare", runs["baseline"], runs["candidate"], "--label", labels["baseline"],
                        "--label", labels["candidate"], "--judge-baseline", jb, "--judge-candidate", jc,
                        "--serving", f"BF16={serving['BF16']}", "--serving", f"FP8={serving['FP8']}",
                        "--slo", SERVING_SLO, "--target-load", str(SERVING_TARGET_LOAD), "--no-sample-logs", "--save", judged], check=True,
                       stdout=subprocess.DEVNULL)
        with open(judged) as f:
            compared = json.load(f)
        judge = compared["judge"]
        for side in ("baseline", "candidate"):
            judge[side]["source"] = f"illustrative judge scores ({os.path.basename(judge[side]['source'])})"
        serving_section = compared["serving"]
        for variant in serving_section["variants"]:
            for run in variant["runs"]:
                run["source"] = f"illustrative vllm bench serve result ({os.path.basename(run['source'])})"

        demo["version"] = 1  # written as version 1 here; fp8dash migrates and saves it in the current version
        demo["title"] = "Meta-Llama-3-8B-Instruct: BF16 vs FP8 (demo)"
        demo["judge"] = judge
        demo["timeline"] = timeline()
        demo["serving"] = serving_section
        demo["capacity"] = {"model": "llama-3-8b", "gpu": "h100-sxm", "gpus": 1, "weights": "fp8", "kv": "fp8",
                            "gpu_utilization": 0.92, "context_tokens": 8192, "overhead_gib": 2.0}
        demo["notes"].append({
            "author": "fp8dash", "created": "2026-12-01T00:00:00Z",
            "text": "The domain judge scores, the production timeline and the serving benchmarks of this demo are "
                    "illustrative: generated by resources/demo/make_demo.py from a fixed seed to show every step of "
                    "the workflow, shaped like a real FP8 switch (200 paired judge scores; throughput 48 % above the "
                    "same hour before the switch; judge quality 0.06 points lower; vllm bench serve results of BF16 "
                    "and FP8 at 1 to 256 concurrent requests on one H100, p99 TTFT SLO 2 s). "
                    "They are not measurements of this model. The local benchmarks are a real CPU run of the "
                    "KV-cache experiment on fp8dash's synthetic cache (software E4M3 codec): its headline is the "
                    "attention-output error of per_tensor scaling at the longest context, to be read against E4M3's "
                    "rounding, which alone moves K and V by about 2-3 %; saturated values are what costs accuracy. "
                    "GEMM and bandwidth need a GPU."})
        demo["notes"].append({
            "author": "fp8dash", "created": "2026-12-01T00:00:00Z", "task": "gsm8k",
            "text": "Talking point: the judge and production agree FP8 is close (MONITOR and GO), but GSM8K's "
                    "2.6 % drop is beyond the 1.5 % line. This candidate has FP8 weights only (its KV cache stays "
                    "BF16), so the drop is the weights': re-run with finer weight scales (an LLM Compressor "
                    "FP8_DYNAMIC checkpoint: per-channel weights, per-token activations) and check the math prompts "
                    "before approving. An FP8 KV cache would be a step of its own: on vLLM 0.28, which has no "
                    "--calculate-kv-scales, with a checkpoint with calibrated KV scales (kv_cache_scheme), else "
                    "scales 1.0."})
        demo["review"] = {"decisions": [{
            "outcome": "rejected", "by": "Demo reviewer", "at": "2026-12-01T09:30:00Z",
            "why": "GSM8K loses 2.6 % (beyond the 1.5 % investigate line) while everything else holds, with FP8 "
                   "weights only: re-run with finer weight scales (FP8_DYNAMIC) and review the math prompts before "
                   "approving.",
            "verdict_at_decision": "investigate", "tool_version": "0.2.0"}]}
        staged = os.path.join(tmp, "demo.fp8cmp")
        with open(staged, "w") as f:
            json.dump(demo, f, indent=2, ensure_ascii=False)
        # A real CPU run of the KV-cache FP8 experiment, saved into the file (which writes it in the current format).
        subprocess.run([fp8dash, "bench", "kv", "--cpu", "--model", "llama-3.1-8b", "--contexts", "1024,4096,16384",
                        "--kv-layers", "4", "--save", staged], check=True, stdout=subprocess.DEVNULL)
        with open(staged) as f:
            final = json.load(f)
    final["created"] = "2026-12-01T00:00:00Z"
    version = subprocess.run([fp8dash, "--version"], check=True, capture_output=True, text=True).stdout.split()[-1]
    final["tool_version"] = version  # written by this fp8dash, from the 0.1.0 demo
    with open(OUTPUT, "w") as f:
        json.dump(final, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {OUTPUT} ({os.path.getsize(OUTPUT)} bytes)")


if __name__ == "__main__":
    main()
