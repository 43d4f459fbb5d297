#!/usr/bin/env python3
"""How much JIT compilation fell inside a client run's measured window, by whose code.

Record a client run with every compilation event, then point this script at the recording:

  java "-XX:StartFlightRecording=filename=run.jfr,settings=profile,+jdk.Compilation#threshold=0ms" \\
       -jar client-part2/target/client-part2.jar -t 64 -s 20000 -m 10 -i URL --out data/runs/jit
  python3 bench/jit_in_run.py run.jfr [more.jfr ...]

The window runs from the first worker thread's start to the last one's end (the client's "wall
time"). Compilations that started inside it are summed by their duration (wall time of the compiler
thread, so on a busy machine more than its CPU), in three groups: client-part2's recording code
(io.upic.liftride.client.part2 and HdrHistogram), client-part1's engine (io.upic.liftride.client.engine),
and everything else (the SDK, OkHttp, the JDK). Needs the JDK's `jfr` tool on PATH.
"""
import re
import subprocess
import sys

WORKER = re.compile(r'thread = "liftride-(startup|peak|cooldown)-\d+"')
UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1000.0}


def seconds(stamp):
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def events(path, names):
    out = subprocess.run(["jfr", "print", "--events", names, path], capture_output=True, text=True, check=True).stdout
    return re.split(r"\n(?=jdk\.\w+ \{)", out)


def window(path):
    starts, ends = [], []
    for e in events(path, "jdk.ThreadStart,jdk.ThreadEnd"):
        if not WORKER.search(e):
            continue
        t = seconds(re.search(r"startTime = (\S+)", e).group(1))
        (starts if e.startswith("jdk.ThreadStart") else ends).append(t)
    if not starts or not ends:
        raise SystemExit(f"{path}: no liftride worker threads recorded")
    return min(starts), max(ends)


def group(method):
    if "client.part2" in method or "HdrHistogram" in method:
        return "part2 recording"
    if "client.engine" in method:
        return "part1 engine"
    return "other"


def main(paths):
    if not paths:
        raise SystemExit(__doc__)
    for path in paths:
        w0, w1 = window(path)
        totals = {"part2 recording": 0.0, "part1 engine": 0.0, "other": 0.0}
        for e in events(path, "jdk.Compilation"):
            d = re.search(r"duration = ([\d.]+) (ns|us|ms|s)\b", e)
            m = re.search(r"method = (.+)", e)
            st = re.search(r"startTime = (\S+)", e)
            if not (d and m and st) or not (w0 <= seconds(st.group(1)) <= w1):
                continue
            totals[group(m.group(1))] += float(d.group(1)) * UNITS[d.group(2)]
        parts = ", ".join(f"{k} {v:.0f} ms" for k, v in totals.items())
        print(f"{path}: run window {w1 - w0:.2f} s; compilation inside it: {parts}")


if __name__ == "__main__":
    main(sys.argv[1:])
