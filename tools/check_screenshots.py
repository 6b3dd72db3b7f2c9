#!/usr/bin/env python3
"""Checks a folder written by tools/make_screenshots.sh (fp8dash-screenshots): every picture the docs can embed is
there, is a PNG of the size its name says, and is not blank. Plain python3 (reads the PNG chunks with zlib).

usage: check_screenshots.py DIR     exit 0 when all is well, 1 with one line per problem on stderr
"""
import pathlib
import re
import struct
import sys
import zlib

SIZES = ["1366x768", "1920x1080"]
THEMES = ["light", "dark"]
TABS = ["evals", "layers", "judge", "timeline", "benchmarks", "capacity", "serving", "review"]
# The demo's deck: cover, offline evals, domain judge, production timeline, local benchmarks, capacity, what FP8 buys
# on your server, verdict.
MIN_SLIDES = 8


def png_info(path):
    """(width, height, distinct byte values of the decompressed image data) of a PNG; raises ValueError."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, width, height, idat = 8, None, None, b""
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    if width is None or not idat:
        raise ValueError("no IHDR or IDAT chunk")
    return width, height, len(set(zlib.decompress(idat)))


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = pathlib.Path(argv[1])
    problems = []

    def check(name, size=None):
        path = folder / name
        if not path.is_file() or path.stat().st_size == 0:
            problems.append(f"{path}: missing or empty")
            return
        try:
            width, height, distinct = png_info(path)
        except (ValueError, zlib.error, struct.error) as e:
            problems.append(f"{path}: unreadable PNG ({e})")
            return
        if size is not None and f"{width}x{height}" != size:
            problems.append(f"{path}: {width}x{height} pixels, the name says {size}")
        if width < 200 or height < 150:
            problems.append(f"{path}: only {width}x{height} pixels")
        if distinct < 16:
            problems.append(f"{path}: blank ({distinct} distinct byte values in its image data)")

    for tab in TABS:
        for size in SIZES:
            for theme in THEMES:
                check(f"{tab}-{size}-{theme}.png", size)
    for theme in THEMES:
        check(f"new-comparison-{theme}.png")
    slides = sorted(p.name for p in folder.glob("slide-*-1920x1080-light.png"))
    numbers = [int(re.match(r"slide-(\d+)-", s).group(1)) for s in slides]
    if numbers != list(range(1, len(numbers) + 1)) or len(numbers) < MIN_SLIDES:
        problems.append(f"{folder}: slides {numbers}, expected 1 … n with n ≥ {MIN_SLIDES}")
    for s in slides:
        check(s, "1920x1080")
    for p in problems:
        print(f"check_screenshots.py: {p}", file=sys.stderr)
    if not problems:
        print(f"check_screenshots.py: {len(list(folder.glob('*.png')))} pictures in {folder}, all as expected")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
