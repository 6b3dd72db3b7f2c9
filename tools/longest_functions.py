#!/usr/bin/env python3
"""Print the N longest functions and the source files over 800 lines in core/, ui/, app/ and gpu/.

    tools/longest_functions.py [N] [--root DIR] [--max-lines 800]

A function's length is counted from the line of its name to its closing brace, inclusive. The project's rule: no
source file over 800 lines, no function over 150 lines. Informational: the exit code is 0 whatever it finds.

How it works, and its limits: a simple scan, not a C++ parser. Comments, string literals (raw strings too) and
character literals are blanked first; then braces are matched. A `{` opens a function body when the text before it
(back to the previous `;`, `{` or `}` at the same level) has a parameter list and is not a control statement;
namespace, class, struct, union and `extern "C"` blocks are scanned inside; other blocks (enums, aggregate
initialisers) are skipped. Constructor initialiser lists with braces (`m_x{1}`) are recognised by the identifier
right before the brace. Lambdas and local classes count as part of the function that holds them. Macros that expand
to braces, preprocessor branches that each open a brace, and digit separators (1'000) can confuse it; none of these
occur at function level in this tree today.
"""
import argparse
import os
import re
import sys

DIRS = ("core", "ui", "app", "gpu")
EXTS = (".cpp", ".h", ".hpp", ".cu", ".cuh", ".cc")
SCOPE_RE = re.compile(r"\b(namespace|class|struct|union)\b[^()]*$|\bextern\s*$")
CONTROL = {"if", "for", "while", "switch", "catch", "do", "else", "try", "return", "sizeof", "decltype"}


def blank(text):
    """Comments, strings and character literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2 : j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")  # a digit separator
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def match_brace(s, i):
    """Index of the `}` that closes the `{` at i."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(s) - 1


def function_name(header):
    """The name before the parameter list, or None when the header is no function's."""
    header = re.sub(r"^\s*(#.*\n)+", "", header)
    if "(" not in header or header.rstrip().endswith("="):
        return None
    depth, start = 0, -1
    for k, ch in enumerate(header):
        if ch == "(":
            if depth == 0 and start < 0:
                start = k
            depth += 1
        elif ch == ")":
            depth -= 1
    words = re.findall(r"[~\w:]+(?:<[^()]*>)?(?:\s*\[\s*\])?|\]", header[:start])
    if not words:
        return None
    name = words[-1]
    if name.split("::")[-1] in CONTROL or name == "]":
        return "lambda" if name == "]" else None
    return name


def functions(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        s = blank(f.read())
    line_of = lambda pos: s.count("\n", 0, pos) + 1
    found = []
    i, last = 0, 0  # `last`: where the current header starts
    n = len(s)
    while i < n:
        c = s[i]
        if c in ";}":
            last = i + 1
        elif c == "{":
            header = s[last:i]
            if SCOPE_RE.search(header.strip()) or header.strip().startswith("extern"):
                last = i + 1  # scan inside the namespace/class
            else:
                name = function_name(header)
                if name is None:
                    i = match_brace(s, i)
                    last = i + 1
                else:
                    # Braces of a constructor's initialiser list: the identifier right before them.
                    j = i
                    while re.search(r"[\w>]\s*$", s[last:j]) and re.search(r"\)\s*:[^:]", header):
                        j = match_brace(s, j) + 1
                        k = s.find("{", j)
                        if k < 0:
                            break
                        j = k
                    end = match_brace(s, j)
                    begin = last + len(header) - len(header.lstrip())
                    first = line_of(begin + len(re.match(r"(\s*(template\s*<[^{]*?>\s*)?)", s[begin:i]).group(1)))
                    found.append((line_of(end) - first + 1, first, name))
                    i = end
                    last = i + 1
        i += 1
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=10)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--max-lines", type=int, default=800)
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    everything, big = [], []
    for d in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames.sort()
            for fn in sorted(filenames):
                if not fn.endswith(EXTS):
                    continue
                p = os.path.join(dirpath, fn)
                rel = os.path.relpath(p, root)
                with open(p, encoding="utf-8", errors="replace") as f:
                    lines = sum(1 for _ in f)
                if lines > args.max_lines:
                    big.append((lines, rel))
                everything += [(length, rel, line, name) for length, line, name in functions(p)]
    everything.sort(key=lambda t: (-t[0], t[1], t[2]))
    print(f"The {args.n} longest functions (lines, file:line, name):")
    for length, rel, line, name in everything[: args.n]:
        print(f"  {length:5d}  {rel}:{line}  {name}")
    print(f"Files over {args.max_lines} lines:" + ("" if big else " none"))
    for lines, rel in sorted(big, reverse=True):
        print(f"  {lines:5d}  {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
