#!/usr/bin/env python3
"""The SDK path's cost per request, client-part1.jar builds side by side.

    python3 bench/sdk_path.py LABEL=JAR LABEL=JAR... [--probe-rounds 5] [--threads 1,4] [--requests 10000] [--rounds 0]

Each JAR is client-part1/target/client-part1.jar built at some commit or with some change (copy each
aside before building the next); the first is the reference the others are compared with. One server JVM
(bench.py's BareServer, so build first) serves them all, on loopback. Every run is a fresh JVM, and the
order of the builds rotates every round.

  1. bench/SdkProbe.java, per thread count of --threads: that many SDK senders, one per thread, sending
     --requests warm-up then --requests measured requests between them: the senders' thread CPU, the process's CPU and the
     bytes the senders allocate, per request. Allocation is the steadiest figure on a shared machine,
     thread CPU the next; 4 threads on a 2-core machine show what contention between workers costs.
  2. with --rounds N > 0, bench.py's own client run (`-t 64 -s 20000 -l 40 -m 10 --baseline 10000
     --transport sdk`) between 5 s wrk POST runs: throughput / the mean of the two wrk runs around it,
     and the client's CPU per attempt as it prints it; at a load average above the core count its
     ratios move by 10% from run to run.

Writes data/sdk-path.md with the medians (min-max), every run, and the 1-minute load average at each run.
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench as B  # noqa: E402

PROBE = os.path.join(HERE, "SdkProbe.java")


def probe(jar, base, threads, requests):
    each = str(requests // threads)
    out = subprocess.run(["java", "-Xmx512m", "-cp", jar, PROBE, base, each, each, str(threads)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=600).stdout
    m = re.search(r"thread_cpu_us ([\d.]+) process_cpu_us ([\d.]+) alloc_bytes ([\d.]+) wall_us ([\d.]+)", out)
    if not m:
        raise SystemExit("SdkProbe failed:\n" + out)
    return dict(zip(("thread_us", "process_us", "alloc_bytes", "wall_us"), map(float, m.groups())))


def med(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def summary(rows, key, fmt):
    xs = [r[key] for r in rows]
    return f"{fmt.format(med(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


def rotated(labels, i):
    k = i % len(labels)
    return labels[k:] + labels[:k]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", metavar="LABEL=JAR")
    ap.add_argument("--probe-rounds", type=int, default=5)
    ap.add_argument("--threads", default="1,4")
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "data", "sdk-path.md"))
    ap.add_argument("--append", action="store_true", help="add to --out rather than replace it")
    a = ap.parse_args()
    jars = dict(b.split("=", 1) for b in a.builds)
    labels = list(jars)
    counts = [int(t) for t in a.threads.split(",")]
    runs = {s: [] for s in labels}
    probes = {(s, t): [] for s in labels for t in counts}
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if a.rounds:
        B.ensure_wrk()
    server = B.Server()
    try:
        base = server.base
        for i in range(a.probe_rounds):
            for t in counts:
                for side in rotated(labels, i):
                    load = os.getloadavg()[0]
                    p = probe(jars[side], base, t, a.requests)
                    p.update(round=i + 1, load=load, side=side, threads=t)
                    probes[(side, t)].append(p)
                    print(f"probe {p}", file=sys.stderr, flush=True)
        wrk = B.run_wrk(base, 5, server=server)["rps"] if a.rounds else 0
        for i in range(a.rounds):
            for side in rotated(labels, i):
                B.CLIENT_JAR = jars[side]
                load = os.getloadavg()[0]
                c = B.run_client(base, "sdk", 64, 20000, 10, 10000)
                after = B.run_wrk(base, 5, server=server)["rps"]
                runs[side].append({"round": i + 1, "side": side, "rps": c["rps"], "ratio": c["rps"] / ((wrk + after) / 2),
                                   "cpu_us": c["cpu_us_per_req"], "load": load})
                wrk = after
                print(f"client {runs[side][-1]}", file=sys.stderr, flush=True)
    finally:
        server.close()
    write(a, started, labels, counts, runs, probes)


def write(a, started, labels, counts, runs, probes):
    every = [p for ps in probes.values() for p in ps] + [r for rs in runs.values() for r in rs]
    loads = [r["load"] for r in every]
    lines = ["", "---", ""] if a.append else ["# The SDK path's cost per request, build against build", ""]
    lines += [
        f"Generated by `python3 bench/sdk_path.py {' '.join(a.builds)} --probe-rounds {a.probe_rounds} "
        f"--threads {a.threads} --requests {a.requests} --rounds {a.rounds}{' --append' if a.append else ''}` from {started}. 1-minute load average during the runs "
        f"{min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores. Fresh JVM per run, builds in rotating "
        "order; medians (min-max). Δ is the median's difference from the first build's: positive means the build "
        "costs more.",
    ]
    for t in counts:
        ref = probes[(labels[0], t)]
        lines += ["", f"## SdkProbe, {t} sender thread{'s' if t > 1 else ''}, {a.requests:,} requests "
                  f"after {a.requests:,} (split between the threads), run of {started}", "",
                  "| build | bytes allocated / request | Δ bytes | thread CPU µs / request | Δ µs "
                  "| process CPU µs / request | wall µs / request |",
                  "|---|---|---|---|---|---|---|"]
        for side in labels:
            p = probes[(side, t)]
            d_bytes = med([r["alloc_bytes"] for r in p]) - med([r["alloc_bytes"] for r in ref])
            d_us = med([r["thread_us"] for r in p]) - med([r["thread_us"] for r in ref])
            lines.append(f"| {side} | {summary(p, 'alloc_bytes', '{:,.0f}')} | {d_bytes:+,.0f} | "
                         f"{summary(p, 'thread_us', '{:.1f}')} | {d_us:+.1f} | {summary(p, 'process_us', '{:.1f}')} | "
                         f"{summary(p, 'wall_us', '{:.0f}')} |")
    if a.rounds:
        lines += ["", "## bench.py's client run, 64 threads, between wrk runs", "",
                  "| build | SDK / wrk | client CPU µs per attempt | req/s |", "|---|---|---|---|"]
        for side in labels:
            r = runs[side]
            lines.append(f"| {side} | {summary(r, 'ratio', '{:.2f}')} | {summary(r, 'cpu_us', '{:.0f}')} | "
                         f"{summary(r, 'rps', '{:,.0f}')} |")
    lines += ["", f"## Every run ({started})", "", "| round | threads | build | bytes | thread µs | process µs | wall µs | load |",
              "|---|---|---|---|---|---|---|---|"]
    for p in sorted((p for ps in probes.values() for p in ps), key=lambda p: (p["round"], p["threads"])):
        lines.append(f"| {p['round']} | {p['threads']} | {p['side']} | {p['alloc_bytes']:,.0f} | {p['thread_us']:.1f} | "
                     f"{p['process_us']:.1f} | {p['wall_us']:.0f} | {p['load']:.1f} |")
    if a.rounds:
        lines += ["", "| round | build | SDK / wrk | CPU µs / attempt | req/s | load |", "|---|---|---|---|---|---|"]
        for r in sorted((r for rs in runs.values() for r in rs), key=lambda r: r["round"]):
            lines.append(f"| {r['round']} | {r['side']} | {r['ratio']:.2f} | {r['cpu_us']:.0f} | {r['rps']:,.0f} | "
                         f"{r['load']:.1f} |")
    with open(a.out, "a" if a.append else "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
