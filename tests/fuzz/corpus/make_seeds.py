#!/usr/bin/env python3
"""Writes the fuzzers' own seed inputs (tests/fuzz/corpus/<target>/): small, valid examples of each format, so that
every fuzzer starts from inputs that reach deep into its parser. The real-world files (../shared/fixtures, tests/data)
are read in place as further seeds by the CMake runs. Rerun after a format change: python3 make_seeds.py"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    folder = os.path.join(HERE, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def dumps(obj):
    return json.dumps(obj, indent=1)


# lm-eval results: v0.4 with groups, stderr "N/A", model_args as a string; v0.3.
v04 = {
    "results": {
        "mmlu": {"acc,none": 0.65, "acc_stderr,none": 0.004, "alias": "mmlu"},
        "mmlu_stem": {"acc,none": 0.55, "acc_stderr,none": "N/A", "alias": " - stem"},
        "gsm8k": {"exact_match,strict-match": 0.75, "exact_match_stderr,strict-match": 0.012,
                  "exact_match,flexible-extract": 0.77, "exact_match_stderr,flexible-extract": 0.011,
                  "alias": "gsm8k"},
        "wikitext": {"word_perplexity,none": 9.5, "word_perplexity_stderr,none": "N/A", "alias": "wikitext"},
    },
    "group_subtasks": {"mmlu": ["mmlu_stem"], "gsm8k": [], "wikitext": []},
    "configs": {"gsm8k": {"filter_list": [{"name": "strict-match"}, {"name": "flexible-extract"}]}},
    "higher_is_better": {"mmlu": {"acc": True}, "gsm8k": {"exact_match": True}, "wikitext": {"word_perplexity": False}},
    "n-shot": {"mmlu": 5, "gsm8k": 5, "wikitext": 0},
    "n-samples": {"gsm8k": {"original": 1319, "effective": 1319}},
    "config": {"model": "vllm", "model_args": "pretrained=meta-llama/Llama-3.1-8B,quantization=fp8,kv_cache_dtype=fp8"},
    "model_name": "meta-llama/Llama-3.1-8B",
    "lm_eval_version": "0.4.8",
    "date": 1755770130.5,
}
write("lm_eval_results", "v04.json", dumps(v04))
v03 = {"results": {"hellaswag": {"acc": 0.57, "acc_stderr": 0.005, "acc_norm": 0.76, "acc_norm_stderr": 0.004}},
       "versions": {"hellaswag": 0}, "config": {"model": "hf-causal", "model_args": "pretrained=huggyllama/llama-7b"}}
write("lm_eval_results", "v03.json", dumps(v03))
write("lm_eval_results", "nan.json",
      '{"results": {"t": {"acc,none": NaN, "acc_stderr,none": Infinity}}, "config": {"model_args": {"pretrained": "m"}}}')

# Sample logs: the first byte picks the task's filters (sample_logs_fuzzer.cpp): 0 gsm8k strict/flexible (config),
# 1 arc_challenge none, 2 drop (none known), 3 gsm8k three filters.
rows = []
for doc in range(3):
    for flt in ("strict-match", "flexible-extract"):
        rows.append({"doc_id": doc, "doc": {"question": "q"}, "target": "4", "arguments": {}, "resps": [["4"]],
                     "filtered_resps": ["4"], "filter": flt, "metrics": ["exact_match"], "doc_hash": "a%d" % doc,
                     "prompt_hash": "p%d" % doc, "target_hash": "t", "exact_match": float(doc % 2)})
write("sample_logs", "labelled", b"\x00" + "\n".join(json.dumps(r) for r in rows).encode() + b"\n")
old = [{k: v for k, v in r.items() if k != "filter"} for r in rows]
old.sort(key=lambda r: 0)
write("sample_logs", "old-layout", b"\x00" + "\n".join(json.dumps(r) for r in old).encode() + b"\n")
arc = [{"doc_id": i, "filter": "none", "acc": 1.0, "acc_norm": True, "doc_hash": "h"} for i in range(3)]
write("sample_logs", "arc", b"\x01" + "\n".join(json.dumps(r) for r in arc).encode())

# Judge scores: the first byte picks the name and format (judge_scores_fuzzer.cpp): 0 .jsonl, 1 .csv, 2 .json,
# 3 .txt (by content), 4-6 forced JSON Lines / CSV / JSON array; +7 the 0-10 scale.
jsonl = "\n".join(json.dumps({"id": "q%d" % i, "score": 1 + i % 5, "prompt": "p", "answer": "a", "comment": "c"})
                  for i in range(6))
write("judge_scores", "jsonl", b"\x00" + jsonl.encode())
write("judge_scores", "csv", b"\x01" + b'id,score,comment\r\nq1,4,"fine, mostly"\r\nq2,5,\r\n7,3.5,"say ""no"""\r\n')
write("judge_scores", "array", b"\x02" + b"[4, 5, 3, 4.5]")
write("judge_scores", "objects", b"\x03" + b'[{"id": 1, "score": "4"}, {"id": 2, "score": 2}]')
write("judge_scores", "csv-no-ids", b"\x05" + b"\xef\xbb\xbfscore\n1\n2\n")
write("judge_scores", "ten", b"\x07" + b'{"id": "a", "score": 9.5}\n{"id": "b", "score": 0}\n')

# Prometheus API responses.
write("prometheus_response", "matrix", dumps({"status": "success", "data": {"resultType": "matrix", "result": [
    {"metric": {"__name__": "vllm:cache_config_info", "cache_dtype": "auto"}, "values": [[1755770100, "1"]]},
    {"metric": {"__name__": "vllm:cache_config_info", "cache_dtype": "fp8"},
     "values": [[1755770400.5, "1"], [1755770415, "NaN"]]}]}}))
write("prometheus_response", "vector", dumps({"status": "success", "warnings": ["partial"], "data": {
    "resultType": "vector", "result": [{"metric": {"job": "vllm"}, "value": [1755770100.123, "+Inf"]}]}}))
write("prometheus_response", "scalar", '{"status":"success","data":{"resultType":"scalar","result":[1.5,"-Inf"]}}')
write("prometheus_response", "string", '{"status":"success","data":{"resultType":"string","result":[1,"text"]}}')
write("prometheus_response", "error",
      '{"status":"error","errorType":"bad_data","error":"exceeded maximum resolution of 11,000 points"}')
write("prometheus_response", "html", "<html><body>502 Bad Gateway</body></html>")

# Langfuse score pages (public API v2 and the older list without environments).
def score(i, data_type="NUMERIC", value=4.0):
    return {"id": "s%d" % i, "traceId": "t%d" % i, "name": "llm_judge_domain", "value": value, "dataType": data_type,
            "source": "API", "timestamp": "2026-08-21T10:%02d:00.000Z" % i, "environment": "production",
            "comment": "ok", "trace": {"tags": ["precision:fp8"]}}
write("langfuse_page", "v2", dumps({"data": [score(1), score(2, "BOOLEAN", 1), score(3, "CATEGORICAL", 0)],
                                    "meta": {"page": 1, "limit": 100, "totalItems": 3, "totalPages": 1}}))
legacy = [score(4)]
del legacy[0]["environment"]
write("langfuse_page", "legacy", dumps({"data": legacy, "meta": {"page": 2, "totalPages": 2}}))
write("langfuse_page", "empty", '{"data": [], "meta": null}')
write("langfuse_page", "error", dumps({"message": "Invalid request data",
                                       "error": [{"message": "Number must be less than or equal to 100",
                                                  "path": ["limit"]}]}))

# Hugging Face config.json (the official configs' fields that fp8dash reads).
llama = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
         "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
         "vocab_size": 128256, "max_position_embeddings": 131072, "tie_word_embeddings": False,
         "attention_bias": False, "mlp_bias": False, "head_dim": 128, "torch_dtype": "bfloat16",
         "rope_scaling": {"factor": 8.0, "rope_type": "llama3"}}
write("hf_config", "llama.json", dumps(llama))
qwen = {"architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584, "intermediate_size": 18944,
        "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064,
        "tie_word_embeddings": True, "max_position_embeddings": 131072}
write("hf_config", "qwen2.json", dumps(qwen))
write("hf_config", "moe.json", dumps({"model_type": "mistral", "num_local_experts": 8}))

# gpu/ benchmark JSON (as gpu::benchReportToJson writes it).
def stats(**kw):
    s = {"samples": 40, "throttled_samples": 0, "median_s": 1e-4, "noise": 0.004, "converged": True}
    s.update(kw)
    return s
gemm = []
for m in (1, 128):
    for prec, tf, sp in (("bf16", 400.0, 0), ("fp8_e4m3", 760.0, 1.9)):
        row = {"layer": "qkv", "m": m, "n": 6144, "k": 4096, "precision": prec, "fast_accum": False, "skipped": "",
               "algorithms_tried": 8, "tflops": tf, "bytes_per_s": 1e12, "roof_tflops": 989.0, "bound": "compute",
               "percent_of_roof": 40.0, "speedup_vs_bf16": sp}
        row.update(stats())
        gemm.append(row)
bench = {"created": "2026-11-29T14:03:05Z", "backend": "cuda", "model": "llama-3.1-8b",
         "device": {"available": True, "name": "NVIDIA H200", "compute_capability": "9.0",
                    "memory_bytes": 150754820096, "reason": "", "backend": "cuda", "multiprocessors": 132,
                    "peak": {"name": "NVIDIA H200 SXM", "fp8_dense_tflops": 1979.0, "bf16_dense_tflops": 989.0,
                             "memory_bandwidth_gbps": 4800.0}},
         "gemm": gemm, "gemm_skipped": "",
         "bandwidth": [dict(kernel="read", bytes=1 << 30, skipped="", bytes_per_s=4.1e12, percent_of_peak=85.0,
                            **stats())],
         "bandwidth_skipped": "",
         "kv": [{"scaling": s, "context": 1024, "rel_rmse": 0.03, "max_abs_error": 0.5, "cosine": 0.9995,
                 "key": {"rel_rmse": 0.033, "max_abs_error": 0.5, "cosine": 0.999},
                 "value": {"rel_rmse": 0.027, "max_abs_error": 0.25, "cosine": 0.999},
                 "attn_rel_error": 0.1, "elements": 1048576, "elements_per_s": 5e8}
                for s in ("none", "per_tensor", "per_head")],
         "kv_backend": "cuda",
         "kv_kernel": [dict(scaling="per_head", elements=1048576, skipped="", bytes_per_s=3e12, percent_of_peak=60.0,
                            matches_cpu=True, **stats())],
         "kv_skipped": "", "warnings": ["clocks were not locked"], "cancelled": False}
write("bench_results", "h200.json", dumps(bench))
cpu = {"created": "2026-11-29T14:03:05Z", "backend": "cpu", "model": "llama-3.1-8b",
       "device": {"available": False, "backend": "cpu", "name": "", "reason": "no NVIDIA driver is loaded"},
       "gemm": [], "gemm_skipped": "needs a GPU", "bandwidth": [], "bandwidth_skipped": "needs a GPU",
       "kv": bench["kv"][:1], "kv_backend": "cpu", "kv_kernel": [], "kv_skipped": "", "warnings": [],
       "cancelled": True}
write("bench_results", "cpu.json", dumps(cpu))
# The KV rows of the sweep contract: source, per-side saturated counts and scales, the attention figures.
kv_contract = dict(cpu, cancelled=False, kv=[
    {"scaling": s, "context": 2048,
     "source": {"kind": "dump", "description": "kv.safetensors (BF16)", "shape": [2, 2, 4096, 128]},
     "rel_rmse": 0.026, "max_abs_error": 0.5, "cosine": 0.9996,
     "key": {"rel_rmse": 0.027, "max_abs_error": 0.5, "cosine": 0.9996, "saturated": 3 if s == "none" else 0,
             "scales": scales},
     "value": {"rel_rmse": 0.025, "max_abs_error": 0.06, "cosine": 0.9997, "saturated": 0, "scales": scales},
     "attn_out_rel_rmse": 0.021, "attn_out_cosine": 0.9998, "attn_weight_tvd": 0.011, "attn_weight_tvd_max": 0.04,
     "attn_entropy": 2.7, "elements": 2097152, "seconds": 0.004, "elements_per_s": 5.2e8}
    for s, scales in (("none", [1.0]), ("per_tensor", [0.05, 0.06]), ("per_head", [0.02, 0.03, 0.04, 0.05]))])
write("bench_results", "kv_contract.json", dumps(kv_contract))

# Comparison and recovery files: the bundled demo (every section: runs, judge, timeline, benchmarks, capacity, notes,
# review) cut down to a few samples and points, so that a seed stays a few kilobytes.
demo_path = os.path.join(HERE, "..", "..", "..", "resources", "demo", "llama3-8b-instruct-fp8.fp8cmp")
with open(demo_path) as f:
    demo = json.load(f)
for side in ("baseline", "candidate"):
    demo["judge"][side]["samples"] = demo["judge"][side]["samples"][:4]
demo["judge"]["bootstrap"]["iterations"] = 100
for series in ("throughput", "quality"):
    s = demo["timeline"][series]
    for key in ("t", "v"):
        s[key] = s[key][::len(s[key]) // 10][:10]
demo["timeline"]["alerts"] = demo["timeline"].get("alerts", [])[:2]
demo["benchmarks"]["kv"] = demo["benchmarks"]["kv"][:2]
demo["notes"] = demo["notes"][:2]
write("comparison_file", "demo-v2-small.fp8cmp", json.dumps(demo))
evals_only = {k: v for k, v in demo.items() if k not in ("judge", "timeline", "benchmarks", "capacity")}
write("comparison_file", "evals-v2.fp8cmp", json.dumps(evals_only))
recovery = {"format": "fp8dash-recovery", "version": 1, "saved_at": "2026-08-21T10:15:30Z", "pid": 4242,
            "original_path": "/home/ana/review.fp8cmp", "display_name": "review.fp8cmp",
            "drafts": {"note": "half a thought", "decision_why": ""}, "document": evals_only}
write("recovery_file", "evals.fp8recovery", dumps(recovery))
recovery["document"] = demo
recovery["original_path"] = ""
write("recovery_file", "demo.fp8recovery", json.dumps(recovery))

# Safetensors K/V dumps (kv_dump_fuzzer): an 8-byte little-endian header length, the JSON header, the raw data.
import struct


def safetensors(tensors, metadata=None):
    header, offset, data = {}, 0, b""
    if metadata:
        header["__metadata__"] = metadata
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(text)) + text + data


def bf16(values):
    return b"".join(struct.pack("<f", v)[2:] for v in values)


kv_n = 2 * 2 * 4 * 4
write("kv_dump", "stacked-bf16.safetensors",
      safetensors([("key", "BF16", [2, 2, 4, 4], bf16([(i % 9 - 4) * 0.5 for i in range(kv_n)])),
                   ("value", "BF16", [2, 2, 4, 4], bf16([(i % 5 - 2) * 0.25 for i in range(kv_n)]))],
                  {"model": "test/tiny", "tokens": "4"}))
layer = []
for i in range(2):
    layer.append(("layers.%d.key" % i, "F16", [2, 3, 2], b"".join(struct.pack("<e", j * 0.5) for j in range(12))))
    layer.append(("layers.%d.value" % i, "F16", [2, 3, 2], b"".join(struct.pack("<e", -j) for j in range(12))))
write("kv_dump", "per-layer-f16.safetensors", safetensors(layer))
write("kv_dump", "stacked-f32.safetensors",
      safetensors([("key", "F32", [1, 1, 2, 2], struct.pack("<4f", 1, -2, 448, 1e-9)),
                   ("value", "F32", [1, 1, 2, 2], struct.pack("<4f", 0.5, 0, -0.0, 3))]))
whole = safetensors([("key", "BF16", [1, 1, 2, 2], bf16([1, 2, 3, 4])), ("value", "BF16", [1, 1, 2, 2], bf16([4, 3, 2, 1]))])
write("kv_dump", "truncated.safetensors", whole[:-3])
write("kv_dump", "bad-dtype.safetensors", whole.replace(b'"BF16"', b'"I8"  ', 1))
write("kv_dump", "overlap.safetensors", whole.replace(b"[8,16]", b"[4,12]", 1))


# AIPerf export followed by its server scrape (the aiperf_export target splits them at the marker line); a GenAI-Perf
# export at a request rate; small GuideLLM reports in YAML (0.7 labels, flow style) and JSON (0.2 shape).
aiperf_small = {
    "schema_version": "1.2", "aiperf_version": "0.8.0",
    "request_throughput": {"unit": "requests/sec", "avg": 2.0},
    "request_count": {"unit": "requests", "avg": 20.0},
    "time_to_first_token": {"unit": "ms", "avg": 50.0, "p50": 48.0, "p99": 90.0},
    "inter_token_latency": {"unit": "ms", "avg": 10.0, "p50": 9.5, "p99": 14.0},
    "inter_chunk_latency": {"unit": "ms", "avg": 10.5, "p50": 9.9, "p99": 20.0},
    "request_latency": {"unit": "sec", "avg": 2.1, "p50": 2.0, "p99": 3.0},
    "output_token_throughput": {"unit": "tokens/sec", "avg": 400.0},
    "input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 4},
                     "cli_command": "aiperf profile --api-key sk-0123456789abcdef --concurrency 4"},
}
write("aiperf_export", "aiperf_with_scrape.txt", dumps(aiperf_small) + "\n#server_metrics_export.csv\n"
      "Endpoint,Metric,Key,Value,Description\n"
      "h:8000,vllm:cache_config_info,cache_dtype,fp8,\"Cache, config\"\n"
      "h:8000,vllm:parallel_config_info,tensor_parallel_size,2,Parallel\n")
write("aiperf_export", "genai_perf_rate.json", dumps({
    "request_throughput": {"unit": "per sec", "avg": 3.0},
    "request_latency": {"unit": "ms", "avg": 900.0, "p50": 880.0, "p90": 1000.0},
    "time_to_first_token": {"unit": "ms", "avg": 40.0},
    "inter_token_latency": {"unit": "ms", "avg": 8.0},
    "input_config": {"model": ["m"], "request_rate": 3.0, "concurrency": None, "request_count": 30}}))
write("guidellm_report", "v07_flow.yaml",
      "metadata: {version: 2, guidellm_version: 0.7.3}\n"
      "config:\n  metadata:\n    labels: {variant: fp8, kv_cache_dtype: fp8}\n"
      "  spec: {backend: {kind: openai_http, target: 'http://h:8000', model: m}}\n"
      "benchmarks:\n"
      "- config: {strategy: {type_: poisson, rate: 2.5, max_concurrency: 8}}\n"
      "  metrics:\n"
      "    request_totals: {successful: 3, errored: 1, incomplete: 0, total: 4}\n"
      "    request_latency:\n"
      "      successful: {mean: 1.5, median: 1.4, std_dev: 0.1, count: 3,\n"
      "        percentiles: {p001: 1.0, p50: 1.4, p99: 2.0, p999: 2.1}}\n"
      "    inter_token_latency_ms:\n"
      "      successful: {mean: 9.0, count: 3, percentiles: {p90: 11.0}}\n"
      "  duration: 10.0\n")
write("guidellm_report", "v02_small.json", dumps({"benchmarks": [{
    "args": {"strategy": {"type_": "concurrent", "streams": 2}},
    "worker": {"backend_model": "m", "backend_target": "http://u:p@h:8000"},
    "request_loader": {"data": "prompt_tokens=16,output_tokens=8"},
    "request_totals": {"successful": 0, "errored": 2, "incomplete": 0, "total": 2},
    "metrics": {"time_to_first_token_ms": {"successful": {"mean": 0.0, "count": 0, "percentiles": {"p50": 0.0}}}},
    "start_time": 1749157168.0, "end_time": 1749157198.0, "duration": 30.0}]}))
