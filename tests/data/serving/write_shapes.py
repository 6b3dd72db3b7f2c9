#!/usr/bin/env python3
"""Writes the serving test files in the published shapes of each tool and era (SOURCES.md says which tag and file).

The numbers are made up but consistent (a distribution's percentiles ascend, totals add up); the key names, nesting
and types follow the tools' own pydantic models / exporters. GuideLLM's YAML is written with PyYAML's yaml.dump, as
GuideLLM's GenerativeBenchmarksReport.save_file does. Run from this folder: python3 write_shapes.py
"""
import json
import yaml

PKEYS = ["p001", "p01", "p05", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p999"]
PVALS = [0.80, 0.85, 0.90, 0.93, 0.97, 1.00, 1.04, 1.10, 1.15, 1.30, 1.60]


def dist(center, count):
    """A GuideLLM DistributionSummary around `center` (percentiles scale with it)."""
    if count == 0:
        return {"mean": 0.0, "median": 0.0, "mode": 0.0, "variance": 0.0, "std_dev": 0.0, "min": 0.0, "max": 0.0,
                "count": 0, "total_sum": 0.0, "percentiles": {k: 0.0 for k in PKEYS}}
    pct = {k: round(center * v, 6) for k, v in zip(PKEYS, PVALS)}
    mean = round(center * 1.02, 6)
    return {"mean": mean, "median": pct["p50"], "mode": pct["p50"], "variance": round((center * 0.1) ** 2, 6),
            "std_dev": round(center * 0.1, 6), "min": pct["p001"], "max": pct["p999"], "count": count,
            "total_sum": round(mean * count, 6), "percentiles": pct}


def status(center, ok, errored=0, incomplete=0, err_center=None):
    e = err_center if err_center is not None else center * 0.5
    return {"successful": dist(center, ok), "errored": dist(e, errored), "incomplete": dist(e, incomplete),
            "total": dist(center, ok + errored + incomplete)}


def metrics(ok, errored, incomplete, rps, ttft_ms, itl_ms, latency_s, prompt, output, with_totals_inside):
    m = {}
    if with_totals_inside:
        m["request_totals"] = {"successful": ok, "errored": errored, "incomplete": incomplete,
                               "total": ok + errored + incomplete}
    m.update({
        "requests_per_second": status(rps, ok, errored, incomplete),
        "request_concurrency": status(4.0, ok, errored, incomplete),
        "request_latency": status(latency_s, ok, errored, incomplete),
        "prompt_token_count": status(prompt, ok, errored, incomplete),
        "output_token_count": status(output, ok, errored, incomplete, err_center=0.0),
        "time_to_first_token_ms": status(ttft_ms, ok, errored, incomplete),
        # Includes the first token, so it is larger than inter_token_latency_ms: the reader must not take it as TPOT.
        "time_per_output_token_ms": status(itl_ms * 1.25, ok, errored, incomplete),
        "inter_token_latency_ms": status(itl_ms, ok, errored, incomplete),
        "output_tokens_per_second": status(rps * output, ok, errored, incomplete),
        "tokens_per_second": status(rps * (prompt + output), ok, errored, incomplete),
    })
    return m


def bench_v04(index, strategy, backend, ok, errored, incomplete, rps, ttft, itl, lat, start):
    duration = 60.0
    return {
        "type_": "generative_benchmark",
        "config": {"id_": f"bench-{index}", "run_id": "run-1", "run_index": index, "strategy": strategy,
                   "constraints": {"max_seconds": {"max_duration": 60}}, "sample_requests": 20,
                   "warmup": {"percent": None, "value": None, "mode": "prefer_duration"},
                   "cooldown": {"percent": None, "value": None, "mode": "prefer_duration"},
                   "prefer_response_metrics": True, "profile": {"type_": strategy["type_"]},
                   "requests": {}, "backend": backend, "environment": {"type_": "non_distributed"}},
        "scheduler_state": {"node_id": 0, "num_processes": 1},
        "scheduler_metrics": {"start_time": start, "request_start_time": start, "measure_start_time": start,
                              "measure_end_time": start + duration, "request_end_time": start + duration,
                              "end_time": start + duration,
                              "requests_made": {"successful": ok, "errored": errored, "incomplete": incomplete,
                                                "total": ok + errored + incomplete}},
        "metrics": metrics(ok, errored, incomplete, rps, ttft, itl, lat, 1024.0, 256.0, True),
        "requests": {"successful": [], "errored": [], "incomplete": [], "total": None},
        "start_time": start, "end_time": start + duration, "duration": duration,
    }


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


MODEL = "meta-llama/Llama-3.1-8B-Instruct"
backend_info = {"type_": "openai_http", "target": "http://gpu-box:8000", "model": MODEL + "-FP8", "timeout": 300,
                "http2": True, "follow_redirects": True, "verify": False, "openai_paths": {}, "validate_backend": True}

# 0.4: args + benchmarks (v0.4.0 benchmark/schemas/generative/report.py, entrypoints.py, benchmark.py, metrics.py;
# scheduler/strategies.py). The target carries user:password and a query key that must not be kept.
write_json("guidellm/guidellm_v0.4_concurrent.json", {
    "args": {"target": "http://bench:hunter2@gpu-box:8000/v1?api_key=sk-test-0123456789abcdef",
             "data": ["prompt_tokens=1024,output_tokens=256"], "profile": "concurrent", "rate": [4.0, 16.0],
             "backend": "openai_http", "backend_kwargs": {"api_key": "sk-test-0123456789abcdef"},
             "model": MODEL + "-FP8", "processor": None, "random_seed": 42, "outputs": ["json"],
             "max_seconds": 60, "max_requests": 400, "max_errors": None},
    "benchmarks": [
        bench_v04(0, {"type_": "concurrent", "streams": 4, "worker_count": 4, "max_concurrency": 4,
                      "rampup_duration": 0.0}, backend_info, 200, 0, 0, 3.2, 45.0, 11.0, 2.9, 1760000000.0),
        bench_v04(1, {"type_": "concurrent", "streams": 16, "worker_count": 8, "max_concurrency": 16,
                      "rampup_duration": 0.0}, backend_info, 390, 7, 3, 9.6, 120.0, 14.5, 3.8, 1760000100.0),
    ]})

# 0.5-0.6: metadata version 1 (v0.5.0 / v0.6.1 report.py GenerativeBenchmarkMetadata); 0.6 moved target and model
# into args.backend_kwargs (v0.6.1 entrypoints.py BackendArgs, backends/openai/http.py OpenAIHttpBackendArgs).
v06_backend = dict(backend_info, model="Qwen/Qwen3-8B")
write_json("guidellm/guidellm_v0.6_throughput_poisson.json", {
    "metadata": {"version": 1, "guidellm_version": "0.6.1", "python_version": "3.12.3",
                 "platform": "Linux-6.8.0-x86_64-with-glibc2.39"},
    "args": {"data": [{"prompt_tokens": 512, "output_tokens": 128}], "profile": "poisson", "rate": [2.5],
             "backend": "openai_http",
             "backend_kwargs": {"target": "http://gpu-box:8000", "model": "Qwen/Qwen3-8B",
                                "api_key": "sk-live-abcdefghijklmnop", "request_format": None},
             "random_seed": 42, "outputs": ["json"], "max_seconds": 120, "max_requests": None},
    "benchmarks": [
        bench_v04(0, {"type_": "throughput", "worker_count": 8, "max_concurrency": 512, "rampup_duration": 0.0},
                  v06_backend, 1500, 0, 12, 25.0, 900.0, 22.0, 6.5, 1760001000.0),
        bench_v04(1, {"type_": "poisson", "rate": 2.5, "worker_count": 8, "max_concurrency": 64,
                      "random_seed": 42, "rampup_duration": 0.0},
                  v06_backend, 148, 2, 0, 2.45, 60.0, 9.5, 1.4, 1760001200.0),
    ]})


def report_v07(labels, benches):
    # 0.7 (v0.7.3 benchmark/schemas/report.py metadata version 2, config = BenchmarkScenario {metadata {labels},
    # spec BenchmarkArgs {backend {kind, target, model, api_key}, profile {kind, ...}, data [...]}}).
    return {
        "metadata": {"version": 2, "guidellm_version": "0.7.3", "python_version": "3.12.3",
                     "platform": "Linux-6.8.0-x86_64-with-glibc2.39"},
        "config": {
            "metadata": {"labels": labels},
            "spec": {"backend": {"kind": "openai_http", "target": "http://gpu-box:8000/v1", "model": MODEL + "-FP8",
                                 "request_format": None, "api_key": "**********", "api_routes": {},
                                 "timeout": None},
                     "profile": {"kind": benches[0][0]["type_"], "rampup_duration": 0.0},
                     "data": [{"kind": "huggingface", "source": "anon8231489123/ShareGPT_Vicuna_unfiltered",
                               "load_kwargs": {"token": "hf_abcdefghijklmnopqrstuvwx"}}],
                     "seed": {"kind": "random", "seed": 42}},
            "benchmarks": [None],
        },
        "benchmarks": [bench_v04(i, s, backend_info, *rest) for i, (s, *rest) in enumerate(benches)],
    }


labels_report = report_v07(
    {"variant": "fp8-w8a8-kv", "quantization": "fp8", "kv_cache_dtype": "fp8", "api_token": "hf_abcdefghijklmnop",
     "team": "inference"},
    [({"type_": "concurrent", "streams": 8, "worker_count": 8, "max_concurrency": 8, "rampup_duration": 0.0},
      400, 4, 0, 6.1, 80.0, 12.0, 3.3, 1760002000.0),
     ({"type_": "concurrent", "streams": 32, "worker_count": 8, "max_concurrency": 32, "rampup_duration": 0.0},
      380, 20, 5, 15.2, 410.0, 19.0, 5.1, 1760002100.0)])
write_json("guidellm/guidellm_v0.7_labels.json", labels_report)
# The same report as YAML: the reader must give the same runs from both.
with open("guidellm/guidellm_v0.7_labels.yaml", "w") as f:
    f.write(yaml.dump(labels_report))

# The same 0.7 shape as YAML (GuideLLM's save_file with a .yaml path: yaml.dump(model_dict)), with a constant-rate
# point whose every request errored (GuideLLM then writes zero successful distributions).
yaml_report = report_v07(
    {"label": "bf16-baseline", "kv_cache_dtype": "auto"},
    [({"type_": "constant", "rate": 4.0, "worker_count": 8, "max_concurrency": None, "rampup_duration": 0.0},
      240, 0, 0, 4.0, 55.0, 10.0, 2.7, 1760003000.0),
     ({"type_": "constant", "rate": 64.0, "worker_count": 8, "max_concurrency": 128, "rampup_duration": 0.0},
      0, 300, 12, 0.0, 0.0, 0.0, 0.0, 1760003100.0)])
with open("guidellm/guidellm_v0.7_allfailed.yaml", "w") as f:
    f.write(yaml.dump(yaml_report))


# Goodput, after 0.7.3 (vllm-project/guidellm PR #1085 and #1086, Sept 2026; schemas/benchmark/goodput.py GoodputSLO,
# GenerativeMetrics' slo_attainment / slo_determined_requests / slo_attainment_by_metric / request_goodput /
# output_token_goodput, BenchmarkConfig.slo): `--metrics '{"kind":"generative","slo":{...}}'` puts the objectives
# in config.spec.metrics and in each benchmark's config.slo (unset objectives dumped as null). The third benchmark's
# config has no slo (as a config written before the field) and its objectives could not be judged: attainment and
# goodput are null.
def goodput_bench(index, streams, ok, errored, rps, ttft, itl, lat, start, slo, conforming):
    b = bench_v04(index, {"type_": "concurrent", "streams": streams, "worker_count": 8, "max_concurrency": streams,
                          "rampup_duration": 0.0}, backend_info, ok, errored, 0, rps, ttft, itl, lat, start)
    m = b["metrics"]
    if slo is not None:
        b["config"]["slo"] = slo
    if conforming is None:
        m.update({"slo_attainment": None, "slo_determined_requests": 0, "slo_attainment_by_metric": None,
                  "request_goodput": None, "output_token_goodput": None})
        return b
    determined = ok + errored  # errored requests count against attainment; incomplete ones are left out
    m["slo_attainment"] = conforming / determined
    m["slo_determined_requests"] = determined
    m["slo_attainment_by_metric"] = {
        k: {"conforming_requests": conforming, "determined_requests": determined, "attainment": conforming / determined}
        for k, v in slo.items() if v is not None}
    good_rps = round(rps * conforming / ok, 6)
    m["request_goodput"] = status(good_rps, ok, errored, 0)
    m["output_token_goodput"] = status(round(good_rps * 256.0, 6), ok, errored, 0)
    return b


goodput_slo = {"ttft_ms": 200.0, "tpot_ms": 50.0, "e2el_ms": None}
goodput_report = report_v07({"variant": "fp8-w8a8", "quantization": "fp8"}, [({"type_": "concurrent", "streams": 8}, 1, 0, 0, 1.0, 1.0, 1.0, 1.0, 1760004000.0)])
goodput_report["metadata"]["guidellm_version"] = "0.8.0.dev0"
goodput_report["config"]["spec"]["profile"] = {"kind": "concurrent", "streams": [8, 32, 64], "rampup_duration": 0.0}
goodput_report["config"]["spec"]["metrics"] = {"kind": "generative", "sample_size": None,
                                               "prefer_response_metrics": True, "slo": goodput_slo}
goodput_report["benchmarks"] = [
    goodput_bench(0, 8, 400, 4, 6.8, 80.0, 12.0, 3.3, 1760004000.0, goodput_slo, 380),
    goodput_bench(1, 32, 380, 20, 15.2, 410.0, 19.0, 5.1, 1760004100.0, goodput_slo, 209),
    goodput_bench(2, 64, 390, 10, 16.0, 900.0, 26.0, 7.9, 1760004200.0, None, None),
]
write_json("guidellm/guidellm_goodput_after_0.7.3.json", goodput_report)

# GenAI-Perf: the statistics dict plus input_config = vars(args) (perf_analyzer genai-perf
# genai_perf/export_data/json_exporter.py @ 09628cd; metric names and units from genai_perf/metrics/*.py).
def stat(unit, center, with_pcts=True):
    d = {"unit": unit, "avg": center}
    if with_pcts:
        d.update({"p25": center * 0.97, "p50": center, "p75": center * 1.04, "p90": center * 1.1,
                  "p95": center * 1.15, "p99": center * 1.3, "min": center * 0.8, "max": center * 1.6,
                  "std": center * 0.1})
    return d


write_json("aiperf/genai_perf_profile_export_genai_perf.json", {
    "request_throughput": {"unit": "per sec", "avg": 5.25},
    "request_latency": stat("ms", 3050.0),
    "time_to_first_token": stat("ms", 95.0),
    "inter_token_latency": stat("ms", 11.5),
    "output_token_throughput": {"unit": "per sec", "avg": 1344.0},
    "output_token_throughput_per_user": stat("tokens/sec/user", 87.0),
    "output_sequence_length": stat("tokens", 256.0),
    "input_sequence_length": stat("tokens", 550.0),
    "input_config": {"model": ["Qwen/Qwen3-8B-FP8"], "backend": "vllm", "endpoint": "v1/chat/completions",
                     "endpoint_type": "chat", "service_kind": "openai", "streaming": True,
                     "url": "http://gpu-box:8000", "concurrency": 16, "request_rate": None,
                     "request_count": 100, "warmup_request_count": 10, "num_dataset_entries": 100,
                     "synthetic_input_tokens_mean": 550, "synthetic_input_tokens_stddev": 0,
                     "output_tokens_mean": 256, "output_tokens_stddev": 0, "random_seed": 42,
                     "tokenizer": "Qwen/Qwen3-8B-FP8", "profile_export_file": "profile_export.json",
                     "artifact_dir": "artifacts/Qwen_Qwen3-8B-FP8-openai-chat-concurrency16",
                     "extra_inputs": {"ignore_eos": True}},
})

# AIPerf 0.8 (schema 1.2) at a request rate, with errors and seconds for one latency (units are per object).
write_json("aiperf/aiperf_rate_errors_profile_export_aiperf.json", {
    "schema_version": "1.2", "aiperf_version": "0.8.0", "benchmark_id": "0f2c6f6e-0000-4000-8000-000000000001",
    "request_throughput": {"unit": "requests/sec", "avg": 7.8},
    "request_latency": {"unit": "sec", "avg": 2.4, "p50": 2.3, "p90": 3.1, "p99": 4.2, "min": 1.1, "max": 5.0,
                        "std": 0.5, "count": 460, "sum": 1104.0},
    "request_count": {"unit": "requests", "avg": 460.0},
    "error_request_count": {"unit": "requests", "avg": 20.0},
    "time_to_first_token": {"unit": "ms", "avg": 130.0, "p50": 120.0, "p90": 210.0, "p99": 400.0, "count": 460},
    "inter_token_latency": {"unit": "ms", "avg": 12.5, "p50": 12.0, "p90": 14.0, "p99": 18.0, "count": 460},
    "inter_chunk_latency": {"unit": "ms", "avg": 12.9, "p50": 12.2, "p90": 15.0, "p99": 26.0, "count": 117000},
    "output_token_throughput": {"unit": "tokens/sec", "avg": 1990.0},
    "total_token_throughput": {"unit": "tokens/sec", "avg": 9950.0},
    "goodput": {"unit": "requests/sec", "avg": 7.1},
    "input_sequence_length": {"unit": "tokens", "avg": 1020.0, "count": 460},
    "output_sequence_length": {"unit": "tokens", "avg": 255.0, "count": 460},
    "benchmark_duration": {"unit": "sec", "avg": 61.5},
    "input_config": {"endpoint": {"model_names": ["meta-llama/Llama-3.1-8B-Instruct"], "type": "chat",
                                  "streaming": True, "urls": ["http://gpu-box:8000"],
                                  "api_key": "sk-live-abcdefghijklmnop"},
                     "input": {"random_seed": 42},
                     "loadgen": {"request_rate": 8.0, "concurrency": 64, "request_count": 480},
                     "cli_command": "aiperf profile --model meta-llama/Llama-3.1-8B-Instruct --url http://gpu-box:8000"
                                    " --api-key sk-live-abcdefghijklmnop --header 'Authorization: Bearer abc123secret'"
                                    " --request-rate 8 --concurrency 64 --request-count 480"},
    "was_cancelled": False,
    "error_summary": [{"error_details": {"code": 503, "type": "ServiceUnavailable", "message": "overloaded"},
                       "count": 20}],
    "start_time": "2026-11-02T10:00:00.000000", "end_time": "2026-11-02T10:01:01.500000",
})
