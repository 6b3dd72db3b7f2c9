#!/usr/bin/env bash
# Stages the sources the GPU-only build needs but the GPU machine lacks (it has nvcc, CMake and ninja, but no package
# registry): GoogleTest, copied from Debian's libgtest-dev sources (/usr/src/googletest) into third_party/googletest,
# which tests/CMakeLists.txt builds when find_package(GTest) finds nothing. third_party/ is git-ignored: carry it to
# the GPU machine explicitly.
#
# usage: packaging/stage-gpu-deps.sh [DEST]   (default: <repo>/third_party)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${1:-$here/../third_party}"
source_dir="${FP8DASH_GTEST_SOURCES:-/usr/src/googletest}"

if [[ ! -f "$source_dir/CMakeLists.txt" || ! -d "$source_dir/googletest" ]]; then
    echo "stage-gpu-deps: no GoogleTest sources at $source_dir (install libgtest-dev, or set FP8DASH_GTEST_SOURCES)" >&2
    exit 1
fi

mkdir -p "$dest"
target="$dest/googletest"
# Replace, never merge: a stale copy of another version would build a mix of both.
rm -rf "$target.tmp"
mkdir -p "$target.tmp"
# googlemock is not needed (BUILD_GMOCK=OFF) but the top-level CMakeLists.txt of the distribution refers to it.
cp -a "$source_dir/." "$target.tmp/"
rm -rf "$target"
mv "$target.tmp" "$target"

version="$(sed -n 's/.*GOOGLETEST_VERSION \([0-9.]*\).*/\1/p' "$target/CMakeLists.txt" | head -n 1)"
echo "stage-gpu-deps: GoogleTest ${version:-(unknown version)} staged in $(cd "$target" && pwd) ($(du -sh "$target" | cut -f1))"
