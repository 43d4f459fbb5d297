#!/usr/bin/env python3
"""Time per module and the slowest test classes, from the log of one `mvn -B verify`.

Usage: mvn -B verify | tee verify.log; python3 bench/test_times.py verify.log [N]
Prints a Markdown table of the reactor's modules (wall time each, and the sum of their test
classes' own times) and the N (default 10) slowest classes.
"""
import re
import sys


def seconds(text):
    """Maven's '04:21 min', '42.209 s' or '1:02 h' as seconds."""
    text = text.strip()
    m = re.match(r"(\d+):(\d+) min", text)
    if m:
        return int(m.group(1)) * 60 + int(m.group(2))
    m = re.match(r"(\d+):(\d+) h", text)
    if m:
        return int(m.group(1)) * 3600 + int(m.group(2)) * 60
    return float(text.split()[0])


def main():
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    log = re.sub(r"\x1b\[[0-9;]*m", "", log)
    modules = re.findall(r"\[INFO\] (.+?) \.*\s*(SUCCESS|FAILURE|SKIPPED) \[\s*([^\]]+)\]", log)
    classes = re.findall(r"Tests run: (\d+).*?Time elapsed: ([0-9.,]+) s.*? in ([\w.$]+)", log)
    total = re.search(r"Total time:\s+(.+)", log)
    print("| module | wall (s) | result |\n|---|---:|---|")
    for name, result, took in modules:
        print(f"| {name.strip()} | {seconds(took):.0f} | {result} |")
    if total:
        print(f"| **total** | **{seconds(total.group(1)):.0f}** | |")
    print(f"\n| the {top} slowest classes | tests | s |\n|---|---:|---:|")
    rows = sorted(((float(t.replace(",", "")), c.split(".")[-1], int(n)) for n, t, c in classes), reverse=True)
    for took, name, count in rows[:top]:
        print(f"| `{name}` | {count} | {took:.1f} |")


if __name__ == "__main__":
    main()
