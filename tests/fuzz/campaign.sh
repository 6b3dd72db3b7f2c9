#!/usr/bin/env bash
# A long fuzzing campaign over the targets of a build configured with FP8DASH_FUZZ (README.md here), one after the
# other, each for RUNS executions (default 1,000,000), with a summary line per target: executions, exec/s,
# coverage (edges) and features, corpus size, peak memory. Logs go to BUILD/tests/fuzz/work/<name>/campaign.log.
# Usage: tests/fuzz/campaign.sh [BUILD_DIR (build/sanitize)] [RUNS] [TARGET...]
set -uo pipefail
build=${1:-build/sanitize}
runs=${2:-1000000}
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(lm_eval_results sample_logs judge_scores comparison_file recovery_file prometheus_response langfuse_page
           hf_config bench_results)
fi
status=0
printf '%-20s %10s %8s %7s %7s %7s %8s %s\n' target execs exec/s cov ft corpus rss_mb result
for t in "${targets[@]}"; do
  script="$build/tests/fuzz/run_$t.sh"
  [ -x "$script" ] || { echo "$t: $script is missing (configure with -DFP8DASH_FUZZ=ON and build)"; status=1; continue; }
  log="$build/tests/fuzz/work/$t/campaign.log"
  mkdir -p "$(dirname "$log")"
  if "$script" -runs="$runs" > "$log" 2>&1; then result=ok; else result="FAILED (see $log)"; status=1; fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  printf '%-20s %10s %8s %7s %7s %7s %8s %s\n' "$t" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
    "${rss:-?}" "$result"
done
exit $status
