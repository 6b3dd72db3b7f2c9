#!/usr/bin/env python3
"""Checks dump_kv_cache.py without torch (which this machine lacks): the script compiles, imports without torch, and
cache_layers takes each cache form transformers returns (the legacy tuple, DynamicCache with key_cache/value_cache,
DynamicCache with layers) to the same [(key, value)] per layer, in layer order. Run: python3 test_dump_kv_cache.py"""
import importlib.util
import os
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("dump_kv_cache", os.path.join(HERE, "dump_kv_cache.py"))
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)  # imports nothing heavy at module level


class CacheLayers(unittest.TestCase):
    expected = [("k0", "v0"), ("k1", "v1"), ("k2", "v2")]

    def test_legacy_tuple(self):
        self.assertEqual(script.cache_layers((("k0", "v0"), ("k1", "v1"), ("k2", "v2"))), self.expected)

    def test_dynamic_cache_lists(self):
        cache = types.SimpleNamespace(key_cache=["k0", "k1", "k2"], value_cache=["v0", "v1", "v2"])
        self.assertEqual(script.cache_layers(cache), self.expected)

    def test_dynamic_cache_layers(self):
        layers = [types.SimpleNamespace(keys="k%d" % i, values="v%d" % i) for i in range(3)]
        self.assertEqual(script.cache_layers(types.SimpleNamespace(layers=layers)), self.expected)


if __name__ == "__main__":
    unittest.main()
