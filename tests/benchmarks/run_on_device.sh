#!/usr/bin/env bash
# The one prepared script for the lent GPU machine (nvcc, CMake and ninja; no Qt, nlohmann-json, libcurl or package
# registry): configures the GPU-only build with CUDA, builds it, runs the gpu/ test suites (unit, gpu and exhaustive
# labels) and the benchmark runner, and leaves everything under $OUT:
#   env.txt                          the machine: nvidia-smi, nvcc, cmake, CPU
#   configure.log build.log          the build
#   ctest.log ctest-junit.xml LastTest.log   the tests
#   bench-<gpu>-<date>.json          fp8dash-gpu-bench all (the report; "cancelled": true if it ran out of time)
#   bench.log                        the runner's progress lines
#   summary.txt                      what each step returned
# Time-limit friendly: every step has a cap inside one overall budget (FP8DASH_DEVICE_BUDGET_S, default 470 s), and
# the runner is stopped with SIGTERM near the end, which makes it print what it finished. Keeps going after a failed
# step so whatever was produced is saved; exits non-zero if any step failed.
#
# Needs GoogleTest: a system package or third_party/googletest (packaging/stage-gpu-deps.sh, carried along); without
# either the tests are left out and the runner still builds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$root/out-device}"
build="${FP8DASH_DEVICE_BUILD_DIR:-$root/build/gpu-only}"
jobs="${FP8DASH_DEVICE_JOBS:-16}"
budget="${FP8DASH_DEVICE_BUDGET_S:-470}"
archs="${FP8DASH_DEVICE_CUDA_ARCHS:-89;90}"
mkdir -p "$OUT"
start=$(date +%s)
failed=0
last_rc=0

log() { echo "[run_on_device $(( $(date +%s) - start ))s] $*" | tee -a "$OUT/summary.txt"; }
left() { echo $(( budget - ($(date +%s) - start) )); }
# cap SECONDS: the smaller of SECONDS and what the budget leaves, keeping `reserve` seconds for later steps.
cap() {
    local want=$1 reserve=${2:-0} l
    l=$(( $(left) - reserve ))
    (( l < want )) && want=$l
    (( want < 10 )) && want=10
    echo "$want"
}
step() {  # step NAME LOGFILE TIMEOUT command...
    local name=$1 logfile=$2 limit=$3 rc=0
    shift 3
    log "$name: start (limit ${limit}s)"
    timeout -k 20 "$limit" "$@" >"$logfile" 2>&1 || rc=$?
    last_rc=$rc
    if (( rc == 0 )); then log "$name: ok"; else log "$name: FAILED rc=$rc (see $(basename "$logfile"))"; failed=1; fi
    return 0
}

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -a)"
    echo "cpus: $(nproc)"
    command -v nvidia-smi >/dev/null && nvidia-smi || echo "nvidia-smi: not found"
    command -v nvcc >/dev/null && nvcc --version || { [[ -x /usr/local/cuda/bin/nvcc ]] && /usr/local/cuda/bin/nvcc --version; } || echo "nvcc: not found"
    cmake --version | head -n 1
    command -v ninja >/dev/null && echo "ninja $(ninja --version)" || echo "ninja: not found"
} >"$OUT/env.txt" 2>&1 || true

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
tests=ON
if [[ ! -f "$root/third_party/googletest/CMakeLists.txt" && ! -f /usr/src/googletest/CMakeLists.txt ]] &&
   ! ls /usr/lib/*/cmake/GTest/GTestConfig.cmake /usr/lib/cmake/GTest/GTestConfig.cmake >/dev/null 2>&1; then
    log "no GoogleTest (package or sources): building without the tests"
    tests=OFF
fi

configure=(cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DFP8DASH_GPU_ONLY=ON
    -DFP8DASH_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=$archs")
step configure "$OUT/configure.log" "$(cap 120)" "${configure[@]}" "-DFP8DASH_BUILD_TESTS=$tests"
if (( last_rc != 0 )) && [[ $tests == ON ]]; then
    tests=OFF
    step "configure without tests" "$OUT/configure-notests.log" "$(cap 120)" "${configure[@]}" -DFP8DASH_BUILD_TESTS=OFF
fi

# The runner first (it is what the report needs), then the test suites.
step "build runner" "$OUT/build-runner.log" "$(cap 240 200)" cmake --build "$build" -j "$jobs" --target fp8dash-gpu-bench
if [[ $tests == ON ]]; then
    step "build tests" "$OUT/build.log" "$(cap 240 200)" cmake --build "$build" -j "$jobs"
    step ctest "$OUT/ctest.log" "$(cap 150 150)" ctest --test-dir "$build" -L 'gpu|unit|exhaustive' \
        --output-on-failure --timeout 120 -j 4 --output-junit "$OUT/ctest-junit.xml"
    cp "$build/Testing/Temporary/LastTest.log" "$OUT/" 2>/dev/null || true
fi

runner="$build/tests/benchmarks/fp8dash-gpu-bench"
if [[ -x "$runner" ]]; then
    gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n 1 || true)"
    gpu="$(echo "${gpu:-no-gpu}" | tr -cs 'A-Za-z0-9' '-' | sed 's/^-*//; s/-*$//' | tr 'A-Z' 'a-z')"
    json="$OUT/bench-${gpu:-gpu}-$(date -u +%Y%m%d-%H%M%S).json"
    # SIGTERM at the cap: the runner cancels, and prints the cases it finished.
    # The KV error metrics are the CPU's code on bit-identical codes, so the longest contexts add CPU time (cache
    # generation, error sums) but nothing GPU-specific: 128K is left to FP8DASH_DEVICE_CONTEXTS.
    contexts="${FP8DASH_DEVICE_CONTEXTS:-1024,4096,16384,65536}"
    step "runner all" "$OUT/bench.log" "$(cap 400 5)" "$runner" all --seconds-per-case 1 --contexts "$contexts" \
        --out "$json"
    [[ -s "$json" ]] && log "report: $(basename "$json") ($(wc -c <"$json") bytes)" || log "no report written"
else
    log "runner not built: no report"
    failed=1
fi

log "done (failed=$failed)"
exit "$failed"
