#!/usr/bin/env bash
# Checks that every tracked C++ and CUDA source follows the repository's .clang-format (clang-format --dry-run
# -Werror): prints each file that would change and exits 1 if any would, 0 when all are formatted.
#   tools/check_format.sh            check (what .ci/run does, before the builds)
#   tools/check_format.sh --fix      format those files in place (clang-format -i)
# Sources: tracked *.cpp, *.cc, *.h, *.hpp, *.cu, *.cuh, except third_party/ (other projects' code, kept as shipped).
# The CUDA sources are included: Debian's clang-format 14 keeps the launch syntax `kernel<<<grid, block, 0, s>>>(...)`
# intact (checked by formatting gpu/ and building it with nvcc, FP8DASH_CUDA=ON). CLANG_FORMAT picks the binary
# (default clang-format; the rule is the version Debian 12 ships, 14: other versions may format a few lines apart).
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" >/dev/null; then
  echo "check_format: $clang_format not found (Debian: clang-format; packaging/install-deps.sh --tests installs it)" >&2
  exit 2
fi
mapfile -d '' files < <(git ls-files -z -- '*.cpp' '*.cc' '*.h' '*.hpp' '*.cu' '*.cuh' ':!:third_party/**')
if [ ${#files[@]} -eq 0 ]; then
  echo "check_format: no tracked sources found (run from a git checkout)" >&2
  exit 2
fi
if [ "${1:-}" = "--fix" ]; then
  printf '%s\0' "${files[@]}" | xargs -0 "$clang_format" -i
  echo "check_format: formatted ${#files[@]} files"
  exit 0
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--fix]" >&2
  exit 2
fi
# One clang-format process per 50 files; each unformatted file is named once (not once per differing line).
bad=$(printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$clang_format" --dry-run 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$bad" ]; then
  echo "check_format: $(wc -l <<<"$bad") of ${#files[@]} files do not follow .clang-format ($("$clang_format" --version)):"
  sed 's/^/  /' <<<"$bad"
  echo "check_format: run tools/check_format.sh --fix (clang-format -i) and commit the result"
  exit 1
fi
echo "check_format: all ${#files[@]} files follow .clang-format"
