#!/usr/bin/env bash
# The documentation's screenshots, made from the real app (docs/development.md, "Screenshots"): runs
# fp8dash-screenshots (tools/screenshots/) on the offscreen platform with one 1920 x 1080 screen at 96 dpi, UTC, the C
# locale and settings of its own, and writes every main-window tab at 1366x768 and 1920x1080 in the light and dark
# themes, the New Comparison dialog and every slide of the demo's presentation as PNGs, then checks them
# (tools/check_screenshots.py). After a UI change, run it and commit the pictures docs/ embeds:
#
#   tools/make_screenshots.sh                      # into docs/images/ (the driver from build/*/tools/screenshots)
#   tools/make_screenshots.sh --out /tmp/shots     # anywhere else
#   tools/make_screenshots.sh --check              # into a temporary folder, checked and removed (the ctest test)
#
# --driver PATH names the fp8dash-screenshots binary (default: the newest under build/). Every picture is kept
# (docs/screenshots.md shows them all); --all is accepted for older instructions and changes nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/docs/images"
driver=""
check=0
all=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --driver) driver="$2"; shift 2 ;;
    --check) check=1; shift ;;
    --all) all=1; shift ;;
    *) echo "usage: $0 [--out DIR | --check] [--driver PATH] [--all]" >&2; exit 2 ;;
  esac
done
if [ -z "$driver" ]; then
  driver="$(ls -t "$root"/build/*/tools/screenshots/fp8dash-screenshots 2>/dev/null | head -n 1 || true)"
  if [ -z "$driver" ]; then
    echo "make_screenshots.sh: no fp8dash-screenshots under build/: build it first (cmake --build --preset dev --target fp8dash-screenshots) or pass --driver" >&2
    exit 2
  fi
fi
if [ ! -x "$driver" ]; then
  echo "make_screenshots.sh: --driver $driver: not an executable" >&2
  exit 2
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/screens.json" <<'JSON'
{"screens": [{"name": "screen", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "dpr": 1.0}]}
JSON
shots="$scratch/shots"
# Settings, caches and runtime files of its own: nothing of the user's session shows in the pictures.
mkdir -p "$scratch/home" "$scratch/runtime"
chmod 700 "$scratch/runtime"
env -u QT_SCALE_FACTOR -u QT_SCREEN_SCALE_FACTORS -u QT_FONT_DPI -u QT_STYLE_OVERRIDE -u GTK_THEME \
  HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/home/.config" XDG_DATA_HOME="$scratch/home/.local/share" \
  XDG_CACHE_HOME="$scratch/home/.cache" XDG_RUNTIME_DIR="$scratch/runtime" TZ=UTC LC_ALL=C.UTF-8 LANG=C.UTF-8 \
  QT_QPA_PLATFORM="offscreen:configfile=$scratch/screens.json" QT_QPA_PLATFORMTHEME= \
  "$driver" --out "$shots" --variants "$root/tests/data/lm-eval-variants/qwen3.5-27b"
python3 -B "$root/tools/check_screenshots.py" "$shots"

if [ "$check" = 1 ]; then
  exit 0
fi
mkdir -p "$out"
# docs/images holds every picture (docs/screenshots.md shows them all; the Guide embeds only what its pages show).
cp "$shots"/*.png "$out/"
echo "make_screenshots.sh: $(ls "$shots"/*.png | wc -l) pictures in $out"
