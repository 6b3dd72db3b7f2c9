#!/usr/bin/env bash
# Checks run_on_device.sh's decisions without a GPU, through its single-step modes and fakes:
#   --find-gtest    each GoogleTest location tested on its own (a fake root holding only the multiarch package config)
#   --check-driver  a fake nvidia-smi reporting a driver too old for CUDA 13, a new enough one, and none at all
#   --verdict       reports written by the real runner (CPU, and the same edited to the top-level backend "cuda") and
#                   GoogleTest XML written by real test binaries (one whose tests all skip here, one that passes)
# usage: test_run_on_device.sh RUNNER SKIPPING_TEST_BINARY PASSING_TEST_BINARY PASSING_FILTER
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runner=$1 skipping=$2 passing=$3 filter=$4
tmp="$(mktemp -d "${TMPDIR:-/tmp}/fp8dash-device-script.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
failures=0

# A copy of the script in a tree of its own, so the repository's third_party/ (if staged) is not found.
mkdir -p "$tmp/repo/tests/benchmarks"
cp "$here/run_on_device.sh" "$tmp/repo/tests/benchmarks/"
script="$tmp/repo/tests/benchmarks/run_on_device.sh"

# expect NAME RC PATTERN -- command...: the command's exit code and a line of its output.
expect() {
    local name=$1 want_rc=$2 pattern=$3 rc=0 out
    shift 4
    out="$("$@" 2>&1)" || rc=$?
    if [[ $rc -ne $want_rc ]] || ! grep -qF -- "$pattern" <<<"$out"; then
        echo "FAIL $name: rc=$rc (want $want_rc), output:"
        echo "$out" | sed 's/^/    /'
        echo "    wanted a line containing: $pattern"
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

# ---- GoogleTest detection
mkdir -p "$tmp/root-none" "$tmp/root-multiarch/usr/lib/x86_64-linux-gnu/cmake/GTest" "$tmp/root-src/usr/src/googletest"
touch "$tmp/root-multiarch/usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake"
touch "$tmp/root-src/usr/src/googletest/CMakeLists.txt"
expect "gtest: none" 1 "googletest: none" -- env FP8DASH_DEVICE_SYSROOT="$tmp/root-none" "$script" --find-gtest
# The multiarch package alone: a test of two paths at once (`ls A B`) missed it when the other path was absent.
expect "gtest: multiarch package only" 0 "x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake" -- \
    env FP8DASH_DEVICE_SYSROOT="$tmp/root-multiarch" "$script" --find-gtest
expect "gtest: Debian sources only" 0 "usr/src/googletest/CMakeLists.txt" -- \
    env FP8DASH_DEVICE_SYSROOT="$tmp/root-src" "$script" --find-gtest

# ---- The driver check: a PATH of the tools the script uses, plus a fake nvidia-smi (or none)
mkdir -p "$tmp/bin-none" "$tmp/bin-old" "$tmp/bin-new"
for tool in bash env dirname basename date nproc head tr sed grep cat mktemp; do
    for dir in bin-none bin-old bin-new; do ln -sf "$(command -v "$tool")" "$tmp/$dir/$tool"; done
done
printf '#!/bin/sh\necho "575.57.08"\n' >"$tmp/bin-old/nvidia-smi"
printf '#!/bin/sh\necho "580.65.06"\n' >"$tmp/bin-new/nvidia-smi"
chmod +x "$tmp/bin-old/nvidia-smi" "$tmp/bin-new/nvidia-smi"
expect "driver: too old for CUDA 13" 1 "driver 575.57.08 is older than CUDA 13 needs (>= 580)" -- \
    env PATH="$tmp/bin-old" FP8DASH_DEVICE_CUDA_MAJOR=13 "$script" --check-driver
expect "driver: new enough" 0 "driver: ok: 580.65.06 (CUDA 13 needs >= 580)" -- \
    env PATH="$tmp/bin-new" FP8DASH_DEVICE_CUDA_MAJOR=13 "$script" --check-driver
expect "driver: none" 1 "no NVIDIA driver (nvidia-smi not found)" -- \
    env PATH="$tmp/bin-none" FP8DASH_DEVICE_CUDA_MAJOR=13 "$script" --check-driver

# ---- The verdict, on real outputs
"$runner" kv --cpu --contexts 32 --quiet --out "$tmp/cpu.json" >/dev/null
# The device object's own "backend" (four spaces in) says "cuda" in every CUDA build, GPU or not: not enough.
sed 's/^    "backend": "cpu"/    "backend": "cuda"/' "$tmp/cpu.json" >"$tmp/cpu-on-cuda-build.json"
sed 's/^  "backend": "cpu"/  "backend": "cuda"/' "$tmp/cpu.json" >"$tmp/cuda.json"
sed 's/^  "cancelled": false/  "cancelled": true/' "$tmp/cuda.json" >"$tmp/cuda-cancelled.json"
grep -q '^  "backend": "cuda",$' "$tmp/cuda.json" || { echo "FAIL setup: the runner's JSON layout changed"; exit 1; }
"$skipping" "--gtest_output=xml:$tmp/skipped.xml" >/dev/null 2>&1 || true
"$passing" "--gtest_filter=$filter" "--gtest_output=xml:$tmp/passed.xml" >/dev/null 2>&1
have_skip=1
grep -q 'result="skipped"' "$tmp/skipped.xml" || have_skip=0

expect "verdict: GPU report, tests run" 0 "verdict: ok" -- "$script" --verdict "$tmp/cuda.json" "$tmp/passed.xml"
expect "verdict: CPU report" 1 'the report'"'"'s backend is "cpu", not "cuda"' -- \
    "$script" --verdict "$tmp/cpu.json" "$tmp/passed.xml"
expect "verdict: CPU report from a CUDA build" 1 'backend is "cpu"' -- \
    "$script" --verdict "$tmp/cpu-on-cuda-build.json" "$tmp/passed.xml"
if ((have_skip)); then
    expect "verdict: a GPU test skipped" 1 "GPU test(s) skipped:" -- \
        "$script" --verdict "$tmp/cuda.json" "$tmp/passed.xml" "$tmp/skipped.xml"
else
    echo "skip verdict: a GPU test skipped ($(basename "$skipping") skips nothing here: a GPU is usable)"
fi
expect "verdict: no test result" 1 "no result from missing.xml" -- \
    "$script" --verdict "$tmp/cuda.json" "$tmp/missing.xml"
expect "verdict: no tests at all" 1 "no GPU test ran" -- "$script" --verdict "$tmp/cuda.json"
expect "verdict: no report" 1 "no report" -- "$script" --verdict "$tmp/none.json" "$tmp/passed.xml"
expect "verdict: stopped runner" 1 "the report is incomplete" -- \
    "$script" --verdict "$tmp/cuda-cancelled.json" "$tmp/passed.xml"

if ((failures > 0)); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
