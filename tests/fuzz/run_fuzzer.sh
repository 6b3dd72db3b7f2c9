#!/usr/bin/env bash
# One fuzzer's run (README.md here): replays every input under REGRESSIONS, then fuzzes from the seed folders that
# exist, keeping new inputs in WORKDIR/corpus and writing any crash, hang or leak to WORKDIR. Exits non-zero on a
# crash, a hang (over 10 s on one input), a leak or any sanitizer report. The build writes run_<name>.sh, which calls
# this with the fuzzer's own options; the caller adds the limit (-max_total_time=S or -runs=N).
# Usage: run_fuzzer.sh FUZZER WORKDIR REGRESSIONS [libFuzzer options...] -- [SEED_DIR...]
set -euo pipefail
fuzzer=$1 work=$2 regressions=$3
shift 3
options=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do options+=("$1"); shift; done
[ $# -gt 0 ] && shift
seeds=()
for dir in "$@"; do
  if [ -d "$dir" ]; then seeds+=("$dir"); else echo "run_fuzzer: seed folder $dir is absent; skipped"; fi
done
mkdir -p "$work/corpus"
common=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/")

mapfile -t known < <(find "$regressions" -type f ! -name '*.md' 2>/dev/null | sort)
if [ ${#known[@]} -gt 0 ]; then
  echo "run_fuzzer: replaying ${#known[@]} regression input(s) from $regressions"
  "$fuzzer" "${common[@]}" "${known[@]}"
fi
"$fuzzer" "${common[@]}" -print_final_stats=1 "${options[@]}" "$work/corpus" "${seeds[@]}"
