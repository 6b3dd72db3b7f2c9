#!/usr/bin/env python3
"""Dump a Hugging Face causal LM's K/V cache for `fp8dash bench kv --kv-dump FILE`.

Runs the model once over a long prompt (a text file, repeated until long enough, or a built-in passage) of --tokens
tokens and writes the cache it built as safetensors: tensors "key" and "value" of shape
[layers, kv_heads, tokens, head_dim] in the model's dtype (BF16 for most), keys as the model caches them (after
RoPE), with __metadata__ "model" and "tokens". Needs torch, transformers (the tuple cache of older versions and the
DynamicCache of >= 4.36 both work) and safetensors, and memory for the model plus twice the file (the cache, then its
stacked copy on the CPU). Models whose layers cache different token counts (sliding-window layers) are refused.

File size: layers x kv_heads x tokens x head_dim x 2 bytes x 2 (K and V). Llama-3.1-8B at 32K tokens:
32 x 8 x 32768 x 128 x 2 x 2 = 4 GiB.

    python3 dump_kv_cache.py meta-llama/Llama-3.1-8B --tokens 32768 --prompt book.txt -o llama-32k.safetensors
    fp8dash bench kv --kv-dump llama-32k.safetensors
"""
import argparse

PASSAGE = ("The committee met in the long room above the harbour to weigh the engineers' report on the new turbines. "
           "Each page listed a measurement, the instrument that took it, and the error the maker claimed for it. ")


def cache_layers(past):
    """[(key, value)] per layer, each [batch, kv_heads, tokens, head_dim], from any cache form transformers returns."""
    if hasattr(past, "layers") and all(hasattr(l, "keys") for l in past.layers):  # DynamicCache, transformers >= 4.56
        return [(l.keys, l.values) for l in past.layers]
    if hasattr(past, "key_cache"):  # DynamicCache, transformers 4.36 to 4.55
        return list(zip(past.key_cache, past.value_cache))
    return [(kv[0], kv[1]) for kv in past]  # the legacy tuple of (key, value) per layer


def main():
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", help="a Hugging Face model id or a local folder")
    p.add_argument("--tokens", type=int, default=32768, help="prompt length in tokens (default 32768)")
    p.add_argument("--prompt", help="a text file (repeated to reach --tokens); default: a built-in passage")
    p.add_argument("-o", "--output", required=True, help="the .safetensors file to write")
    a = p.parse_args()
    tokenizer = AutoTokenizer.from_pretrained(a.model)
    model = AutoModelForCausalLM.from_pretrained(a.model, torch_dtype="auto", device_map="auto")
    text = open(a.prompt, encoding="utf-8").read() if a.prompt else PASSAGE
    ids = tokenizer(text, return_tensors="pt").input_ids
    ids = ids.repeat(1, -(-a.tokens // ids.shape[1]))[:, : a.tokens].to(model.device)
    base = getattr(model, model.base_model_prefix, model)  # without the LM head: no 32K x vocab logits
    with torch.no_grad():
        past = base(input_ids=ids, use_cache=True).past_key_values
    layers = cache_layers(past)
    if len({k.shape for k, _ in layers}) != 1:
        raise SystemExit("the layers cache different shapes (sliding-window layers?): %s" % {k.shape for k, _ in layers})
    key = torch.stack([k[0].cpu() for k, _ in layers]).contiguous()
    value = torch.stack([v[0].cpu() for _, v in layers]).contiguous()
    save_file({"key": key, "value": value}, a.output, metadata={"model": a.model, "tokens": str(ids.shape[1])})
    print("%s: key and value %s %s, %.2f GiB" % (a.output, list(key.shape), key.dtype, 2 * key.nbytes / 2**30))


if __name__ == "__main__":
    main()
