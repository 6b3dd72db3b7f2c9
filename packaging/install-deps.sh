#!/usr/bin/env bash
# Installs what fp8dash needs to build, test and run on Debian 12 (bookworm), from Debian's packages only.
# Idempotent: installs only what is missing, and does nothing (not even apt-get update) when all is there.
# Usage: packaging/install-deps.sh [--tests]  (as root, or with sudo available)
#   --tests  also what the test suite needs (Debian's prometheus, whose promtool and server the client's tests run
#            on loopback, and victoria-metrics, run beside it; Clang with its sanitizer and libFuzzer runtimes for the sanitize preset). Left out of a
#            plain install: the package also sets up a Prometheus service on port 9090.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config     # toolchain (CMake 3.25 in bookworm)
  qt6-base-dev qt6-charts-dev libgl-dev            # Qt 6 Widgets, Charts, Network, Concurrent, DBus, Test
  libqt6opengl6-dev                                # Qt6OpenGL's CMake package, which Qt6Charts needs (only a
                                                   # Recommends of qt6-base-dev, so --no-install-recommends skips it)
  qt6-svg-dev                                      # QSvgGenerator: charts exported as SVG
  qtkeychain-qt6-dev                               # QtKeychain: remembered credentials in the system keychain
  nlohmann-json3-dev libcurl4-openssl-dev          # JSON, HTTP
  libsimdjson-dev                                  # simdjson: core's fast JSON parsing
  libcpp-httplib-dev                               # cpp-httplib: the HTTP server of `fp8dash exporter` (/metrics)
  libbenchmark-dev                                 # Google Benchmark: tests/benchmarks/speed (built with the rest)
  libboost-dev                                     # Boost.Math distributions (header-only)
  libyaml-cpp-dev                                  # yaml-cpp: GuideLLM's YAML reports (fp8dash serving)
  libgtest-dev libgmock-dev                        # GoogleTest
  fonts-dejavu-core                                # a font for offscreen rendering and minimal desktops
)
if [ "${1:-}" = "--tests" ]; then
  packages+=(prometheus)                           # prometheus + promtool: the client's tests run a real server
  packages+=(victoria-metrics)                     # a real VictoriaMetrics beside it (the scale-out backend tests)
  packages+=(libcmark-dev)                        # cmark: the Markdown escaper's tests parse what it wrote
  packages+=(poppler-utils)                        # pdfinfo + pdftotext: the PDF report's test reads its pages
  packages+=(openssl)                              # openssl req/s_server: a TLS peer whose certificate names another host
  packages+=(clang-14 clang libclang-rt-14-dev)    # the sanitize preset: ASan/UBSan/LSan and libFuzzer runtimes
  packages+=(llvm-14)                              # llvm-symbolizer: sanitizer reports with file:line stacks
  packages+=(lld)                                  # the ci and sanitize presets link with lld (faster than GNU ld)
  packages+=(clang-format)                         # tools/check_format.sh: .ci/run checks the sources' format
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--tests]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
