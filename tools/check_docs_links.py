#!/usr/bin/env python3
"""Keeps the documentation's links honest: every relative link and image in README.md and docs/*.md reaches a file
of the repository, every #fragment names a heading of its page (GitHub's anchors: lower case, punctuation dropped,
spaces as hyphens, -1, -2 … for repeats), every docs page opens with its title and a link back to the README, and the
README links every docs page. Links inside code spans and fenced blocks are text, not links. Plain python3.

usage: check_docs_links.py [REPOSITORY_ROOT]     exit 0 when all is well, 1 with one line per broken link on stderr
"""
import pathlib
import re
import sys
import urllib.parse

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def strip_code(text):
    """The text with fenced blocks and code spans blanked (line count kept)."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
            continue
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"(`+)(.+?)\1", lambda c: " " * len(c.group(0)), line))
    return "\n".join(out)


def slug(heading):
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading: its text
    text = text.strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for line in strip_code(path.read_text(encoding="utf-8")).split("\n"):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent).resolve()
    readme = root / "README.md"
    pages = sorted((root / "docs").glob("*.md"))
    problems = []
    cache = {}
    for page in [readme] + pages:
        text = page.read_text(encoding="utf-8")
        for number, line in enumerate(strip_code(text).split("\n"), 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                    continue
                where = f"{page.relative_to(root)}:{number}"
                path_part, _, fragment = target.partition("#")
                file = page if not path_part else (page.parent / urllib.parse.unquote(path_part)).resolve()
                if root not in file.parents and file != root:
                    problems.append(f"{where}: {target}: outside the repository")
                    continue
                if not file.exists():
                    problems.append(f"{where}: {target}: no such file")
                    continue
                if fragment:
                    if file.suffix != ".md":
                        problems.append(f"{where}: {target}: a fragment on a file that is not Markdown")
                        continue
                    if file not in cache:
                        cache[file] = anchors(file)
                    if urllib.parse.unquote(fragment) not in cache[file]:
                        problems.append(f"{where}: {target}: no heading #{fragment} in {file.relative_to(root)}")
    readme_text = readme.read_text(encoding="utf-8")
    for page in pages:
        lines = page.read_text(encoding="utf-8").split("\n")
        name = page.relative_to(root)
        if not lines or not lines[0].startswith("# "):
            problems.append(f"{name}:1: the page does not open with its title (# ...)")
        if not any("](../README.md)" in line for line in lines[:5]):
            problems.append(f"{name}: no link back to the README (../README.md) in its first lines")
        if f"](docs/{page.name})" not in readme_text:
            problems.append(f"README.md: does not link {name}")
    for p in problems:
        print(f"check_docs_links.py: {p}", file=sys.stderr)
    if not problems:
        print(f"check_docs_links.py: README.md and {len(pages)} docs pages, every link resolves")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
