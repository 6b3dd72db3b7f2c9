#!/usr/bin/env bash
# The one prepared script for the lent GPU machine (nvcc, CMake and ninja; no Qt, nlohmann-json, libcurl or package
# registry). Run it first, before anything else, on a GPU machine: it checks the driver, builds only what a device run
# needs (the GPU-only build's runner and its two `gpu`-labelled test binaries, for this GPU's architecture only), runs
# the benchmark runner, then the GPU tests, and says in one verdict line whether real GPU figures came out.
#
#   tests/benchmarks/run_on_device.sh             the run (exits 0 only on a "verdict: ok")
#   tests/benchmarks/run_on_device.sh --dry-run   walks every step on any machine in seconds: checks the driver and
#                                                 GoogleTest for real, prints each command with its time limit, prints
#                                                 the runner's plan (what would be measured) and shows the verdict
#                                                 failing on a CPU report, as it must
#   tests/benchmarks/run_on_device.sh --verdict REPORT.json [GTEST.xml...]   the verdict alone (tests use it)
#   tests/benchmarks/run_on_device.sh --check-driver | --find-gtest          one step alone (tests use them)
#
# Everything lands under $OUT:
#   env.txt                      the machine: nvidia-smi, nvcc, cmake, CPU
#   configure.log build.log      the build
#   bench-<gpu>-<date>.json      fp8dash-gpu-bench all, rewritten after each section (a run stopped by its time limit
#                                keeps the sections it finished; the others say "not run")
#   bench.log                    the runner's progress lines
#   gtest-<suite>.xml, tests-<suite>.log   the GPU test binaries' results (GoogleTest XML: skips are visible there)
#   summary.txt                  what each step returned, and the verdict
#
# The verdict is "ok" only when the report's top-level "backend" is "cuda" (the runner falls back to the CPU and
# exits 0 without a GPU, so an exit code proves nothing) and every GPU test ran: none skipped, none failed.
#
# Time: one overall budget (FP8DASH_DEVICE_BUDGET_S, default 330 s, so a rerun fits in a 15-minute device lease with
# the machine's start), every step capped inside it: driver check ~1 s, configure <= 60 s, build <= 150 s (16 cores,
# one CUDA architecture), runner <= what is left less 60 s for the tests, tests <= 60 s.
#
# Environment: OUT, FP8DASH_DEVICE_BUILD_DIR (build/gpu-only), FP8DASH_DEVICE_JOBS (nproc),
# FP8DASH_DEVICE_CUDA_ARCHS (default: this GPU's, from nvidia-smi; 89;90 when unknown), FP8DASH_DEVICE_CONTEXTS
# (1024,4096,16384,65536), FP8DASH_DEVICE_SECONDS_PER_CASE (0.5), FP8DASH_DEVICE_RUNNER (dry run: a runner binary for
# the plan), FP8DASH_DEVICE_SYSROOT (tests: a fake root for the GoogleTest search).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${FP8DASH_DEVICE_BUILD_DIR:-$root/build/gpu-only}"
jobs="${FP8DASH_DEVICE_JOBS:-$(nproc 2>/dev/null || echo 16)}"
budget="${FP8DASH_DEVICE_BUDGET_S:-330}"
contexts="${FP8DASH_DEVICE_CONTEXTS:-1024,4096,16384,65536}"
seconds_per_case="${FP8DASH_DEVICE_SECONDS_PER_CASE:-0.5}"
sysroot="${FP8DASH_DEVICE_SYSROOT:-}"
gpu_tests=(fp8dash_gpu_device_tests fp8dash_gpu_bench_device_tests)
# nvidia-smi numbers GPUs in PCI order; make CUDA do the same, so "-i 0" and CUDA device 0 are one GPU.
export CUDA_DEVICE_ORDER=PCI_BUS_ID

start=$(date +%s)
failed=0
last_rc=0
dry=0
summary=/dev/null

log() { echo "[run_on_device $(($(date +%s) - start))s] $*" | tee -a "$summary"; }
left() { echo $((budget - ($(date +%s) - start))); }
# cap SECONDS [RESERVE]: the smaller of SECONDS and what the budget leaves after RESERVE seconds for later steps.
cap() {
    local want=$1 reserve=${2:-0} l
    l=$(($(left) - reserve))
    ((l < want)) && want=$l
    ((want < 10)) && want=10
    echo "$want"
}
# step NAME LOGFILE TIMEOUT command...: runs it under `timeout` (or, in a dry run, says what it would run).
step() {
    local name=$1 logfile=$2 limit=$3 rc=0
    shift 3
    if ((dry)); then
        log "$name: would run (limit ${limit}s): $*"
        last_rc=0
        return 0
    fi
    log "$name: start (limit ${limit}s)"
    timeout -k 20 "$limit" "$@" >"$logfile" 2>&1 || rc=$?
    last_rc=$rc
    if ((rc == 0)); then log "$name: ok"; else
        log "$name: FAILED rc=$rc$( ((rc == 124 || rc == 137)) && echo ' (time limit)') (see $(basename "$logfile"))"
        failed=1
    fi
    return 0
}

# ---- The steps that tests can run alone

# The driver, in one line. CUDA 13 needs a driver >= 580 (CUDA 13.0 release notes: >= 580.65.06 on Linux), CUDA 12
# >= 525, CUDA 11 >= 450. The toolkit's major version comes from nvcc (FP8DASH_DEVICE_CUDA_MAJOR overrides it).
cuda_major() {
    if [[ -n "${FP8DASH_DEVICE_CUDA_MAJOR:-}" ]]; then echo "$FP8DASH_DEVICE_CUDA_MAJOR"; return; fi
    local nvcc
    nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
    [[ -x "$nvcc" ]] && "$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p' | head -n 1
}
check_driver() {
    local major need version driver_major
    major="$(cuda_major || true)"
    case "$major" in 13) need=580 ;; 12) need=525 ;; 11) need=450 ;; *) need=0 ;; esac
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        echo "driver: FAILED: no NVIDIA driver (nvidia-smi not found); CUDA ${major:-?} needs a driver >= $need"
        return 1
    fi
    version="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')"
    if [[ ! "$version" =~ ^[0-9]+ ]]; then
        echo "driver: FAILED: nvidia-smi reports no driver version (${version:-nothing}): no usable GPU"
        return 1
    fi
    driver_major="${version%%.*}"
    if ((need > 0 && driver_major < need)); then
        echo "driver: FAILED: driver $version is older than CUDA $major needs (>= $need): no GPU test or figure can run"
        return 1
    fi
    echo "driver: ok: $version$( ((need > 0)) && echo " (CUDA $major needs >= $need)")"
}

# GoogleTest: sources carried along, Debian's sources, or an installed package's CMake config. Each path is tested on
# its own: one missing path must not hide another that is there.
find_gtest() {
    local p
    for p in "$root/third_party/googletest/CMakeLists.txt" "$sysroot/usr/src/googletest/CMakeLists.txt" \
        "$sysroot"/usr/lib/*/cmake/GTest/GTestConfig.cmake "$sysroot/usr/lib/cmake/GTest/GTestConfig.cmake" \
        "$sysroot"/usr/lib64/cmake/GTest/GTestConfig.cmake "$sysroot"/usr/local/lib/cmake/GTest/GTestConfig.cmake \
        "$sysroot"/usr/local/lib/*/cmake/GTest/GTestConfig.cmake; do
        if [[ -f "$p" ]]; then
            echo "googletest: $p"
            return 0
        fi
    done
    echo "googletest: none (no package, no /usr/src/googletest, no third_party/googletest: run packaging/stage-gpu-deps.sh)"
    return 1
}

# verdict REPORT [GTEST_XML...]: "verdict: ok" only with a CUDA report and every GPU test run, none skipped or failed.
verdict() {
    local json=$1 problems=() xml tests=0 skipped=0 failures=0 names=""
    shift
    if [[ ! -s "$json" ]]; then
        problems+=("no report ($json is missing or empty)")
    elif ! grep -Eq '^  "backend": "cuda",?$' "$json"; then
        # The writer indents by two: the top-level key is the one at two spaces (the device's own "backend" is deeper).
        local backend reason
        backend="$(sed -n 's/^  "backend": "\([^"]*\)".*/\1/p' "$json" | head -n 1)"
        reason="$(sed -n 's/^  "gemm_skipped": "\(.*\)",\{0,1\}$/\1/p' "$json" | head -n 1)"
        problems+=("the report's backend is \"${backend:-?}\", not \"cuda\"${reason:+: $reason}")
    fi
    if (($# == 0)); then
        problems+=("no GPU test ran (no GoogleTest XML)")
    fi
    for xml in "$@"; do
        if [[ ! -s "$xml" ]]; then
            problems+=("no result from $(basename "$xml") (not built, crashed or stopped)")
            continue
        fi
        tests=$((tests + $(grep -c '<testcase ' "$xml" || true)))
        local s f
        s=$(grep -c 'result="skipped"' "$xml" || true)
        f=$(grep -c '<failure' "$xml" || true)
        skipped=$((skipped + s))
        failures=$((failures + f))
        if ((s > 0)); then
            names+="$(grep 'result="skipped"' "$xml" | sed -n 's/.*<testcase name="\([^"]*\)".*classname="\([^"]*\)".*/ \2.\1/p' | tr -d '\n')"
        fi
    done
    ((skipped > 0)) && problems+=("$skipped GPU test(s) skipped:$names")
    ((failures > 0)) && problems+=("$failures GPU test failure(s)")
    if [[ -s "$json" ]] && grep -Eq '^  "cancelled": true' "$json"; then
        problems+=("the report is incomplete (cancelled: the runner was stopped)")
    fi
    if ((${#problems[@]} == 0)); then
        echo "verdict: ok: GPU figures in $(basename "$json"), $tests GPU tests run, none skipped or failed"
        return 0
    fi
    local p
    echo "verdict: FAILED"
    for p in "${problems[@]}"; do echo "  - $p"; done
    return 1
}

# This GPU's architecture for nvcc ("9.0" -> 90), or nothing when nvidia-smi cannot say.
gpu_arch() {
    nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | head -n 1 | tr -d ' .'
}

case "${1:-}" in
--verdict) shift; verdict "$@"; exit ;;
--check-driver) check_driver; exit ;;
--find-gtest) find_gtest; exit ;;
--dry-run) dry=1 ;;
"") ;;
-h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) echo "run_on_device.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

if ((dry)); then
    OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/fp8dash-device-dry.XXXXXX")}"
else
    OUT="${OUT:-$root/out-device}"
fi
mkdir -p "$OUT"
summary="$OUT/summary.txt"
: >"$summary"
((dry)) && log "DRY RUN: nothing is built or measured; every step says what it would do (output in $OUT)"

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -a)"
    echo "cpus: $(nproc)"
    command -v nvidia-smi >/dev/null && nvidia-smi || echo "nvidia-smi: not found"
    command -v nvcc >/dev/null && nvcc --version || { [[ -x /usr/local/cuda/bin/nvcc ]] && /usr/local/cuda/bin/nvcc --version; } || echo "nvcc: not found"
    cmake --version | head -n 1
    command -v ninja >/dev/null && echo "ninja $(ninja --version)" || echo "ninja: not found"
} >"$OUT/env.txt" 2>&1 || true
log "machine: $(nproc) CPUs; details in env.txt"

# 1. The driver, before anything costs time.
if driver_line="$(check_driver)"; then
    log "$driver_line"
else
    log "$driver_line"
    if ((dry)); then
        log "(a real run stops here with the verdict FAILED; the dry run goes on)"
    else
        log "verdict: FAILED: no usable driver, nothing built or measured"
        exit 1
    fi
fi

# 2. One CUDA architecture: this GPU's. Below sm_89 there are no FP8 tensor cores and the kernels are not built.
archs="${FP8DASH_DEVICE_CUDA_ARCHS:-}"
if [[ -z "$archs" ]]; then
    arch="$(gpu_arch || true)"
    if [[ "$arch" =~ ^[0-9]+$ ]]; then
        if ((arch < 89)); then
            log "gpu: sm_$arch has no FP8 tensor cores (sm_$arch): fp8dash's GPU benchmarks need compute capability 8.9 or newer"
            ((dry)) || { log "verdict: FAILED: no FP8 GPU"; exit 1; }
        fi
        archs="$arch"
    else
        archs="89;90"
    fi
fi
log "gpu: CUDA architectures $archs"

# 3. GoogleTest (the GPU tests need it; without it the runner still builds, and the verdict fails: no GPU test ran).
tests=ON
if gtest_line="$(find_gtest)"; then log "$gtest_line"; else
    log "$gtest_line: building without the tests"
    tests=OFF
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
configure=(cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DFP8DASH_GPU_ONLY=ON
    -DFP8DASH_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=$archs")
step configure "$OUT/configure.log" "$(cap 60)" "${configure[@]}" "-DFP8DASH_BUILD_TESTS=$tests"
if ((last_rc != 0)) && [[ $tests == ON ]]; then
    tests=OFF
    step "configure without tests" "$OUT/configure-notests.log" "$(cap 60)" "${configure[@]}" -DFP8DASH_BUILD_TESTS=OFF
fi

# 4. Only what the run needs: the runner and the two GPU test binaries (the unit and exhaustive suites are CPU code
# that CI runs; they would double the build for nothing GPU-specific).
targets=(fp8dash-gpu-bench)
[[ $tests == ON ]] && targets+=("${gpu_tests[@]}")
step build "$OUT/build.log" "$(cap 150 120)" cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# 5. The runner: the report is what the run is for. SIGTERM at the cap makes it finish the section it is in.
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n 1 || true)"
gpu="$(echo "${gpu:-no-gpu}" | tr -cs 'A-Za-z0-9' '-' | sed 's/^-*//; s/-*$//' | tr 'A-Z' 'a-z')"
json="$OUT/bench-${gpu:-gpu}-$(date -u +%Y%m%d-%H%M%S).json"
runner="$build/tests/benchmarks/fp8dash-gpu-bench"
runner_args=(all --seconds-per-case "$seconds_per_case" --contexts "$contexts")
if ((dry)); then
    plan_runner="${FP8DASH_DEVICE_RUNNER:-}"
    for candidate in "$runner" "$root"/build/*/tests/benchmarks/fp8dash-gpu-bench; do
        [[ -z "$plan_runner" && -x "$candidate" ]] && plan_runner="$candidate"
    done
    step runner "$OUT/bench.log" "$(cap 400 60)" "$runner" "${runner_args[@]}" --out "$json"
    if [[ -n "$plan_runner" ]]; then
        log "runner plan (from $plan_runner; on the GPU the same cases run on the device):"
        "$plan_runner" "${runner_args[@]}" --plan 2>&1 | while IFS= read -r line; do log "  $line"; done
    else
        log "runner plan: no fp8dash-gpu-bench built here to print it (cmake --build build/ci --target fp8dash-gpu-bench)"
    fi
elif [[ -x "$runner" ]]; then
    reserve=0
    [[ $tests == ON ]] && reserve=60
    step runner "$OUT/bench.log" "$(cap 400 "$reserve")" "$runner" "${runner_args[@]}" --out "$json"
    [[ -s "$json" ]] && log "report: $(basename "$json") ($(wc -c <"$json") bytes)" || log "no report written"
else
    log "runner not built: no report"
    failed=1
fi

# 6. The GPU tests, each binary with its GoogleTest XML (a skipped test is visible there, not in an exit code).
xmls=()
if [[ $tests == ON ]]; then
    for suite in "${gpu_tests[@]}"; do
        xml="$OUT/gtest-$suite.xml"
        xmls+=("$xml")
        step "$suite" "$OUT/tests-$suite.log" "$(cap 60)" "$build/tests/gpu/$suite" "--gtest_output=xml:$xml"
    done
fi

# 7. The verdict.
if ((dry)); then
    log "verdict: a real run requires $(basename "$json") with \"backend\": \"cuda\" and every test in ${xmls[*]:-(no GPU tests: GoogleTest missing)} run, none skipped or failed"
    if [[ -n "${plan_runner:-}" ]]; then
        cpu_json="$OUT/dry-cpu-report.json"
        "$plan_runner" kv --cpu --contexts 32 --quiet --out "$cpu_json" >/dev/null 2>&1 || true
        log "verdict on a CPU report (what a machine without a usable GPU produces), which must fail:"
        verdict "$cpu_json" 2>&1 | while IFS= read -r line; do log "  $line"; done || true
    fi
    log "expected time on the device: at most $budget s (driver ~1 s, configure <= 60 s, build <= 150 s, runner and tests in what is left)"
    log "dry run done in $(($(date +%s) - start)) s"
    exit 0
fi
if verdict_text="$(verdict "$json" "${xmls[@]}")"; then
    while IFS= read -r line; do log "$line"; done <<<"$verdict_text"
else
    while IFS= read -r line; do log "$line"; done <<<"$verdict_text"
    failed=1
fi
log "done (failed=$failed) in $(($(date +%s) - start)) s"
exit "$failed"
