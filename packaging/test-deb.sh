#!/usr/bin/env bash
# Builds the Debian package with cpack into a temporary folder and checks it without installing it (no root):
# the control fields, the file list, the desktop integration files agreeing with each other, the man page, and the
# extracted binary running.
# Usage: packaging/test-deb.sh CPACK BUILD_DIR VERSION
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 CPACK BUILD_DIR VERSION" >&2
  exit 2
fi
cpack=$1 build=$2 version=$3
app_id=io.github.fp8dash.Fp8dash
mime_type=application/x-fp8dash-comparison

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/fp8dash-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

# -B keeps the package and cpack's staging folder out of the build folder.
if ! "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log" >&2
  echo "FAIL: cpack -G DEB" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)
deb="$work/out/fp8dash_${version}_${arch}.deb"
if [ ! -f "$deb" ]; then
  echo "FAIL: no $(basename "$deb"); cpack wrote: $(cd "$work/out" && ls -- *.deb 2>/dev/null || true)" >&2
  exit 1
fi

# Control data.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = fp8dash ] || fail "Package is '$(field Package)', not fp8dash"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', not $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)', not $arch"
depends=$(field Depends)
[ -n "$depends" ] || fail "Depends is empty"
for lib in libqt6widgets6 libcurl4 libc6; do
  grep -Eq "(^|, )$lib( |,|$)" <<<"$depends" || fail "Depends does not name $lib: $depends"
done
[ -n "$(field Maintainer)" ] || fail "Maintainer is empty"
[ -n "$(field Description)" ] || fail "Description is empty"

# File list.
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/files"
expected=(
  /usr/bin/fp8dash
  "/usr/share/applications/$app_id.desktop"
  "/usr/share/metainfo/$app_id.metainfo.xml"
  /usr/share/mime/packages/fp8dash.xml
  "/usr/share/icons/hicolor/48x48/apps/$app_id.png"
  "/usr/share/icons/hicolor/128x128/apps/$app_id.png"
  "/usr/share/icons/hicolor/256x256/apps/$app_id.png"
  "/usr/share/icons/hicolor/scalable/apps/$app_id.svg"
  /usr/share/man/man1/fp8dash.1.gz
)
for f in "${expected[@]}"; do
  grep -Fxq "$f" "$work/files" || fail "the package lacks $f"
done
dpkg-deb -c "$deb" | grep -E ' \./usr/bin/fp8dash$' | grep -q '^-rwxr-xr-x' || fail "/usr/bin/fp8dash is not mode 755"

# Extract and check that the pieces agree: the desktop file starts the binary on files of the MIME type the XML
# declares, with an icon the package holds; the metainfo launches that desktop file.
root="$work/root"
dpkg-deb -x "$deb" "$root"
desktop="$root/usr/share/applications/$app_id.desktop"
if [ -f "$desktop" ]; then
  grep -Fxq 'Exec=fp8dash %F' "$desktop" || fail "desktop file: Exec is not 'fp8dash %F'"
  grep -Fxq "MimeType=$mime_type;" "$desktop" || fail "desktop file: MimeType is not $mime_type"
  icon=$(sed -n 's/^Icon=//p' "$desktop")
  [ -f "$root/usr/share/icons/hicolor/256x256/apps/$icon.png" ] || fail "desktop file: no 256x256 icon named '$icon'"
fi
mime_xml="$root/usr/share/mime/packages/fp8dash.xml"
if [ -f "$mime_xml" ]; then
  grep -Fq "type=\"$mime_type\"" "$mime_xml" || fail "MIME XML does not declare $mime_type"
  grep -Fq 'pattern="*.fp8cmp"' "$mime_xml" || fail "MIME XML has no *.fp8cmp glob"
fi
metainfo="$root/usr/share/metainfo/$app_id.metainfo.xml"
if [ -f "$metainfo" ]; then
  grep -Fq "<id>$app_id</id>" "$metainfo" || fail "metainfo: id is not $app_id"
  grep -Fq "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" ||
    fail "metainfo: launchable is not $app_id.desktop"
  grep -Fq "<release version=\"$version\"" "$metainfo" || fail "metainfo: no release $version"
  grep -Fq "<mediatype>$mime_type</mediatype>" "$metainfo" || fail "metainfo: does not provide $mime_type"
fi
man="$root/usr/share/man/man1/fp8dash.1.gz"
if [ -f "$man" ]; then
  gzip -dc "$man" | grep -q "^\.TH FP8DASH 1 .*\"fp8dash $version\"" || fail "man page: no .TH line with $version"
fi

# The extracted binary runs (its libraries come from the system, as the installed package's would).
bin="$root/usr/bin/fp8dash"
if [ -x "$bin" ]; then
  out=$(QT_QPA_PLATFORM=offscreen "$bin" --version 2>&1) || fail "fp8dash --version exited with $?: $out"
  [ "$out" = "fp8dash $version" ] || fail "fp8dash --version printed '$out', not 'fp8dash $version'"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed for $(basename "$deb")" >&2
  exit 1
fi
echo "ok: $(basename "$deb") ($(wc -l <"$work/files") entries; Depends: $depends)"
