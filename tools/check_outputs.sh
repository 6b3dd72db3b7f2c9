#!/usr/bin/env bash
# Byte-identity check for refactors: runs one fp8dash binary over the repository's fixtures and the bundled demo and
# writes every output under OUTDIR, one file per command (stdout, then a line with the exit code; stderr beside it).
# Run it once with the binary of the base commit and once with yours, then `diff -r BASE_OUT NEW_OUT`: an empty diff
# means the outputs of compare, report (every format), demo, bench kv, capacity and plan did not change. Compare two
# binaries built the same way: a build without CUDA (FP8DASH_CUDA=OFF) says so in bench kv's device lines, where a
# CUDA build on a machine without a driver names the driver.
#
#   tools/check_outputs.sh BIN OUTDIR
#
# What it runs: compare on the real lm-eval fixtures (/work/shared/fixtures, or $FP8DASH_FIXTURES) and on the test
# data (sample logs found and ignored, judge score files alone and with runs, a control run, --map, --cautious,
# --save, several candidates against one baseline), report on the saved files and on tests/data/comparison-files
# in every --format and every --out extension,
# demo likewise, bench kv on the CPU (one small context), capacity and plan for one case, and the error paths
# (missing file, bad option) for their messages. The timeline subcommand needs a Prometheus server, so it is not
# run; the timeline's output is covered by the reports of the demo, which carries a production timeline.
#
# Masked, because they legitimately vary between runs (nothing else is):
#  - the time of the run: every date-time of today (UTC) becomes @NOW@ (the comparison file's "created", the
#    reports' "Report written" and footer lines, the benchmark's header); a run that crosses midnight UTC shows a
#    spurious difference, run it again;
#  - the benchmark's timings (bench kv only): seconds and rates in its JSON, the Melem/s column of its text table;
#  - PDF: compared as `pdftotext -layout` text (Qt embeds the creation date and orders font subsets differently
#    on each run, so the PDF bytes never repeat);
#  - the working directory: every command runs inside a scratch copy with relative paths, and the scratch path is
#    replaced by "@WORK@" where an output echoes a resolved absolute path.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 BIN OUTDIR" >&2
    exit 2
fi
BIN=$(readlink -f "$1")
OUT=$(mkdir -p "$2" && readlink -f "$2")
REPO=$(cd "$(dirname "$0")/.." && pwd)
FIX=${FP8DASH_FIXTURES:-/work/shared/fixtures}
[ -x "$BIN" ] || { echo "$0: $BIN is not an executable" >&2; exit 2; }
[ -d "$FIX/lm-eval" ] || { echo "$0: no lm-eval fixtures in $FIX (set FP8DASH_FIXTURES)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/fp8dash-check.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp -r "$FIX/lm-eval" "$WORK/fixtures"
cp -r "$REPO/tests/data/lm-eval-samples" "$REPO/tests/data/lm-eval" "$REPO/tests/data/comparison-files" \
    "$REPO/tests/data/lm-eval-ladder" "$REPO/tests/data/lm-eval-variants" "$WORK/"
mkdir -p "$WORK/judge" "$WORK/saved" "$WORK/out"
cd "$WORK" || exit 2
export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 TZ=UTC

# Judge score files: q1..q8, baseline as JSON Lines, candidate as CSV (the two formats compare reads).
for i in 1 2 3 4 5 6 7 8; do
    echo "{\"id\": \"q$i\", \"score\": $(((i * 7) % 5 + 1)), \"prompt\": \"question $i\"}"
done >judge/bf16.jsonl
{
    printf 'id,score,comment\r\n'
    for i in 1 2 3 4 5 6 7 8; do printf 'q%d,%d,"fine, mostly"\r\n' "$i" $(((i * 3) % 5 + 1)); done
} >judge/fp8.csv

TODAY=$(date -u +%F)
mask() {
    sed -E -e "s#$WORK#@WORK@#g" -e "s/$TODAY([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?(Z| UTC)?)?/@NOW@/g" \
        -e "s/(D:)?$(date -u +%Y%m%d)[0-9]{6}Z?/@NOW@/g" | if [ -n "${BENCH:-}" ]; then mask_timings; else cat; fi
}
# Benchmark timings vary from run to run: the JSON's seconds and rates, the text table's last column (Melem/s).
mask_timings() {
    sed -E -e 's/("(seconds|[a-z_]*per_s|[a-z_]*_ms|[a-z_]*_us)": )[-0-9.e+]+/\1MASKED/' \
        -e '/^  [a-z_]+ +[0-9]+ +[0-9.]+ /s/ +[-0-9.e+]+$/ MASKED/'
}

# run NAME ARGS...: stdout to OUT/NAME.out (with the exit code), stderr to OUT/NAME.err.
run() {
    local name=$1
    shift
    "$BIN" "$@" >"$WORK/stdout" 2>"$WORK/stderr"
    local rc=$?
    { mask <"$WORK/stdout"; echo "[exit $rc]"; } >"$OUT/$name.out"
    mask <"$WORK/stderr" >"$OUT/$name.err"
}
# keep FILE NAME: a written file into OUT/NAME (PDF as its text).
keep() {
    if [ ! -f "$1" ]; then
        echo "(not written)" >"$OUT/$2"
    elif [[ "$1" == *.pdf ]]; then
        { pdfinfo "$1" | grep -E '^(Pages|Page size):'; pdftotext -layout "$1" - | mask; } >"$OUT/$2.txt"
    else
        mask <"$1" >"$OUT/$2"
    fi
}

FX=fixtures
SAMPLES=lm-eval-samples
NEW_BF16=$SAMPLES/new-layout/bf16/meta-llama__Llama-3.1-8B-Instruct/results_2026-08-21T10-15-30.123456.json
NEW_FP8=$SAMPLES/new-layout/fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic
OLD_BF16=$SAMPLES/old-layout/bf16
OLD_FP8=$SAMPLES/old-layout/fp8
GRP_BF16=$SAMPLES/group/bf16
GRP_FP8=$SAMPLES/group/fp8
SEED_BF16=lm-eval/seed-pair/bf16
SEED_FP8=lm-eval/seed-pair/fp8

# compare on the real lm-eval fixtures
for fmt in text json markdown; do
    run compare-mmlu-$fmt compare $FX/llama3-8b-instruct_mmlu_v0.4.2.json $FX/llama3-8b-base_mmlu_v0.4.2.json --format $fmt
done
run compare-mmlu-save compare $FX/llama3-8b-instruct_mmlu_v0.4.2.json $FX/llama3-8b-base_mmlu_v0.4.2.json \
    --save saved/mmlu.fp8cmp --baseline-label Instruct --candidate-label Base
run compare-mmlu-cautious compare $FX/llama3-8b-instruct_mmlu_v0.4.2.json $FX/llama3-8b-base_mmlu_v0.4.2.json --cautious \
    --go-below 0.2 --investigate-above 0.9 --format json
run compare-gsm8k-self compare $FX/llama3-8b-instruct_gsm8k_v0.4.2.json $FX/llama3-8b-instruct_gsm8k_v0.4.2.json
run compare-gsm8k-self-allow compare $FX/llama3-8b-instruct_gsm8k_v0.4.2.json $FX/llama3-8b-instruct_gsm8k_v0.4.2.json \
    --allow-incomparable --format json
run compare-truthfulqa-arc compare $FX/llama3-8b-instruct_truthfulqa_v0.4.2.json $FX/powerbot-8b_arc-challenge_v0.4.3ish.json
run compare-qwen-self compare $FX/qwen2.5-7b_multi-task_v0.4.8.json $FX/qwen2.5-7b_multi-task_v0.4.8.json \
    --allow-incomparable --format markdown
run compare-gemma-na compare $FX/gemma-2b-vllm-bf16_afrimmlu_na-stderr_v0.4.10dev.json \
    $FX/gemma-2b-vllm-bf16_afrimmlu_na-stderr_v0.4.10dev.json --allow-incomparable --format json
run compare-v03 compare $FX/llama-7b_common-sense_v0.3-format.json $FX/llama-7b_common-sense_v0.3-format.json \
    --allow-incomparable --metric hellaswag=acc_norm --format json
run compare-map compare $FX/llama3-8b-instruct_mmlu_v0.4.2.json $FX/llama3-8b-base_mmlu_v0.4.2.json --map mmlu=mmlu \
    --metric mmlu=acc,none --format json --fail-on monitor

# compare with sample logs (found beside the results, and ignored), a control run, judge scores
for fmt in text json markdown; do
    run compare-samples-new-$fmt compare $NEW_BF16 $NEW_FP8 --format $fmt
done
run compare-samples-new-none compare $NEW_BF16 $NEW_FP8 --no-sample-logs --format json
run compare-samples-old compare $OLD_BF16 $OLD_FP8 --format json
run compare-samples-group compare $GRP_BF16 $GRP_FP8 --format json
run compare-samples-group-text compare $GRP_BF16 $GRP_FP8
run compare-seed-control compare $SEED_BF16 $SEED_FP8 --control $SEED_BF16 --allow-incomparable --format json
run compare-seed-control-text compare $SEED_BF16 $SEED_FP8 --control $SEED_BF16 --allow-incomparable
for fmt in text json markdown; do
    run compare-judge-only-$fmt compare --judge-baseline judge/bf16.jsonl --judge-candidate judge/fp8.csv --format $fmt
done
run compare-judge-scale compare --judge-baseline judge/bf16.jsonl --judge-candidate judge/fp8.csv --judge-scale 0-10 \
    --format json
run compare-judge-save compare --judge-baseline judge/bf16.jsonl --judge-candidate judge/fp8.csv --save saved/judge.fp8cmp
run compare-all compare $NEW_BF16 $NEW_FP8 --judge-baseline judge/bf16.jsonl --judge-candidate judge/fp8.csv \
    --control $NEW_BF16 --allow-incomparable --save saved/all.fp8cmp --format json
run compare-all-text compare $NEW_BF16 $NEW_FP8 --judge-baseline judge/bf16.jsonl --judge-candidate judge/fp8.csv \
    --control $NEW_BF16 --allow-incomparable --cautious
run compare-samples-save compare $NEW_BF16 $NEW_FP8 --save saved/samples.fp8cmp

# several candidates against one baseline: the layer ladder (with its sample logs) and the two variant sets
LADDER=lm-eval-ladder
for fmt in text json markdown; do
    run compare-ladder-$fmt compare $LADDER/bf16 $LADDER/w8a8 $LADDER/w8a8-kv $LADDER/w8a8-kv-cal --format $fmt
done
run compare-ladder-labels compare $LADDER/bf16 $LADDER/w8a8 $LADDER/w8a8-kv --label bf16 --label w --label wkv
run compare-ladder-save compare $LADDER/bf16 $LADDER/w8a8 $LADDER/w8a8-kv $LADDER/w8a8-kv-cal --accept monitor \
    --save saved/ladder.fp8cmp
for m in qwen3.5-27b qwen3-30b-a3b-thinking-2507; do
    V=lm-eval-variants/$m
    run compare-variants-$m compare $V/bf16 $V/fp8-kv $V/fp8-weights $V/fp8-weights-kv --format json
    run compare-variants-$m-text compare $V/bf16 $V/fp8-kv $V/fp8-weights $V/fp8-weights-kv
done

# error paths: their messages name the file or the option
run compare-missing compare $FX/no-such.json $FX/llama3-8b-base_mmlu_v0.4.2.json
run compare-bad-number compare $FX/llama3-8b-instruct_mmlu_v0.4.2.json $FX/llama3-8b-base_mmlu_v0.4.2.json --go-below x
run compare-bad-scale compare --judge-baseline judge/bf16.jsonl --judge-candidate judge/fp8.csv --judge-scale 5
run compare-one-judge compare --judge-baseline judge/bf16.jsonl
run report-missing report saved/no-such.fp8cmp
run bench-bad-contexts bench kv --cpu --contexts 10x
run capacity-bad-gpus capacity --model llama-3.1-8b --gpu h100-sxm --gpus 0

# the saved comparison files themselves
for f in saved/*.fp8cmp; do keep "$f" "$(basename "$f")"; done

# report on the saved files and the repository's v1 files, every format and every --out extension
for f in saved/*.fp8cmp comparison-files/v1/*.fp8cmp; do
    b=$(basename "$f" .fp8cmp)
    for fmt in text json markdown; do run report-$b-$fmt report "$f" --format $fmt; done
    for ext in html md txt json pdf; do
        run report-$b-out-$ext report "$f" --out out/$b.$ext
        keep out/$b.$ext report-$b.$ext
    done
done

# demo, every format and every --out extension (its timeline is the production section of these reports)
for fmt in text json markdown; do run demo-$fmt demo --format $fmt; done
for ext in html md txt json pdf; do
    run demo-out-$ext demo --out out/demo.$ext
    keep out/demo.$ext demo.$ext
done

# bench kv on the CPU (one small context, one layer: well under ten seconds), capacity and plan for one case
BENCH=1 run bench-kv bench kv --cpu --contexts 1024 --kv-layers 1 --format json
BENCH=1 run bench-kv-text bench kv --cpu --contexts 1024 --kv-layers 1
for fmt in text json; do
    run capacity-$fmt capacity --model llama-3.1-8b --gpu h100-sxm --kv fp8 --context 32768 --format $fmt
    run plan-$fmt plan --model llama-3.1-8b --gpu h100-sxm --tasks mmlu,gsm8k --format $fmt
done
run help --help
echo "$0: outputs of $BIN in $OUT ($(ls "$OUT" | wc -l) files)"
