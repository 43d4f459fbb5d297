#!/usr/bin/env python3
"""What do the Prometheus metrics cost on the hot path? (issue 18, "Prometheus metrics")

Interleaved rounds, each a fresh server JVM (embedded launcher, in-memory store) on loopback, one server at a
time: with metrics on (the default: every request is also recorded into its route/method/status timer with a
histogram, and the JVM, Tomcat and store meters exist) and with -Dliftride.metrics=off (EndpointStats keeps only
its /statistics counters). Each round warms the JVM with wrk for --warmup seconds, then measures wrk POSTs
(servlet/bench/post.lua, -t2 -c64) for --seconds. The order alternates round by round, so a drift of the shared
machine hits both alike; the 1-minute load average is read before every measurement and published.
With metrics on, /metrics is read after the measurement to show the requests were recorded.

Then, in isolation, the JMH benchmark EndpointStatsCostBenchmark (module bench/): EndpointStats.record for the
ride POST with metrics off and on, two threads, in ns per request; the difference over the server's CPU per
request (the least contended cell with metrics off) estimates the share of a CPU-bound server's throughput the
metrics take, with far less noise than req/s on a shared machine.

Usage: python3 bench/metrics_cost.py [--rounds 5] [--seconds 10] [--warmup 5] [--skip-build]
Writes data/metrics-cost.md. Loopback only; every run is bounded by wrk's duration.
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import urllib.request

import benchlib
from benchlib import BENCH_BUILT, bench_classpath, cpu_seconds, free_port, load1, med_range, sh

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
POST_LUA = os.path.join(ROOT, "servlet", "bench", "post.lua")
OUT = os.path.join(ROOT, "data", "metrics-cost.md")
RIDE_COUNT = re.compile(r'^liftride_http_requests_seconds_count\{method="POST",.*?status="201"\} (\S+)$', re.M)




def wrk(port, seconds):
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", "-s", POST_LUA,
                          f"http://127.0.0.1:{port}/liftride"],
                         capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M).group(1))
    total = int(re.search(r"^\s*(\d+) requests in", out, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if non2xx:
        raise SystemExit("wrk saw non-2xx answers:\n" + out)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", out, re.M)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    return rps, total, p99_ms


def one(port, metrics, args):
    management = benchlib.free_port()
    server = benchlib.start_server(
        SERVER_JAR, port, [f"-Dliftride.metrics={metrics}", "-Dliftride.drain.graceMillis=0"], management)
    try:
        wrk(port, args.warmup)
        load = load1()
        cpu0 = cpu_seconds(server.pid)
        rps, total, p99 = wrk(port, args.seconds)
        cpu_us = (cpu_seconds(server.pid) - cpu0) * 1e6 / total
        recorded = ""
        if metrics == "on":
            text = urllib.request.urlopen(f"http://127.0.0.1:{management}/liftride/metrics", timeout=10).read().decode()
            recorded = f"{float(RIDE_COUNT.search(text).group(1)):,.0f}"
        return {"rps": rps, "requests": total, "p99": p99, "load": load, "recorded": recorded, "cpu_us": cpu_us}
    finally:
        server.terminate()
        server.wait(timeout=60)


def jmh():
    """EndpointStatsCostBenchmark's scores, ns per request: {"metricsOff": (score, error), "metricsOn": ...}."""
    out = subprocess.run(["java", "-cp", bench_classpath(), "org.openjdk.jmh.Main", "EndpointStatsCostBenchmark"], capture_output=True,
                         text=True, timeout=600).stdout
    scores = {}
    for name in ("metricsOff", "metricsOn"):
        m = re.search(name + r"\s+avgt\s+\d+\s+([\d.]+)\s+±\s+([\d.]+)\s+ns/op", out)
        if not m:
            raise SystemExit("no JMH score for " + name + ":\n" + out)
        scores[name] = (float(m.group(1)), float(m.group(2)))
    return scores


def report(args, rows, scores):
    on = [r["on"]["rps"] for r in rows]
    off = [r["off"]["rps"] for r in rows]
    ratio = [r["on"]["rps"] / r["off"]["rps"] for r in rows]
    cpu_ratio = [r["on"]["cpu_us"] / r["off"]["cpu_us"] for r in rows]
    loads = [r[m]["load"] for r in rows for m in ("on", "off")]
    lines = [
        "# What do the Prometheus metrics cost on the hot path?",
        "",
        f"Measured {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} on "
        f"{platform.node()} ({os.cpu_count()} cores) by `python3 bench/metrics_cost.py --rounds {args.rounds} "
        f"--seconds {args.seconds} --warmup {args.warmup}`. The machine is shared with other builds and tests: "
        f"its 1-minute load average before the measurements was {med_range(loads, '{:.1f}')} "
        "(median, min-max), so expect noise.",
        "",
        "Each cell is a fresh server JVM (`java -Xms512m -Xmx512m -jar liftride-server.jar`, in-memory store), "
        f"warmed by {args.warmup} s of wrk, then {args.seconds} s of `wrk -t2 -c64 -s servlet/bench/post.lua` "
        "POSTs measured; one server at a time, metrics on (the default) and `-Dliftride.metrics=off` in "
        "interleaved pairs whose order alternates.",
        "",
        "| round | order | on req/s | off req/s | on / off | server CPU µs/req on | off | on / off "
        "| on p99 ms | off p99 ms | load on / off | rides /metrics recorded (on) |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for i, (r, rt, ct) in enumerate(zip(rows, ratio, cpu_ratio)):
        lines.append(f"| {i + 1} | {r['order']} | {r['on']['rps']:,.0f} | {r['off']['rps']:,.0f} | {rt:.3f} "
                     f"| {r['on']['cpu_us']:.1f} | {r['off']['cpu_us']:.1f} | {ct:.3f} "
                     f"| {r['on']['p99']:.2f} | {r['off']['p99']:.2f} | {r['on']['load']:.1f} / "
                     f"{r['off']['load']:.1f} | {r['on']['recorded']} |")
    cost = 1 - statistics.median(ratio)
    lines += [
        "",
        f"- metrics on: median {med_range(on, '{:,.0f}')} req/s; off: median {med_range(off, '{:,.0f}')} req/s",
        f"- throughput on / off, per round: median {med_range(ratio, '{:.3f}')}: a cost of {cost * 100:.1f}% of "
        "throughput at the median (the bound is 3%)",
        f"- server CPU per request on / off, per round: median {med_range(cpu_ratio, '{:.3f}')}: "
        f"{(statistics.median(cpu_ratio) - 1) * 100:+.1f}% CPU per request at the median. When the server is "
        "CPU-bound its throughput is cores / CPU per request, so this is the throughput cost; it depends far "
        "less than req/s on what the other processes of a shared machine do, since it counts only the "
        "server's own CPU.",
        "",
        "What the hot path does with metrics on: the one `System.nanoTime()` pair RouteServlet already takes for "
        "`/statistics` is also recorded into a Micrometer timer found by array index (route, method, status), "
        "which updates its count, sum, max and histogram buckets; nothing is allocated or looked up in a map.",
    ]
    off_cpu_ns = min(r["off"]["cpu_us"] for r in rows) * 1000
    extra = scores["metricsOn"][0] - scores["metricsOff"][0]
    lines += [
        "",
        "In isolation (`java -cp bench/target/test-classes:$(cat bench/target/classpath.txt) org.openjdk.jmh.Main EndpointStatsCostBenchmark`: JMH, 2 threads "
        "recording the ride POST into the same statistics, 3 x 2 s warm-up, 5 x 2 s measured, load average "
        f"{scores['load']:.1f}): metrics off {scores['metricsOff'][0]:.0f} ± {scores['metricsOff'][1]:.0f} ns "
        f"per request, on {scores['metricsOn'][0]:.0f} ± {scores['metricsOn'][1]:.0f} ns: {extra:.0f} ns more. "
        f"Against the server's least contended CPU per request above ({off_cpu_ns / 1000:.1f} µs, metrics off) "
        f"that is {extra / off_cpu_ns * 100:.1f}% of a CPU-bound server's throughput.",
    ]
    if min(ratio) <= 1 <= max(ratio):
        lines.append(f"The per-round ratios span {min(ratio):.3f}-{max(ratio):.3f} and include 1: the rounds "
                     "scatter more than the metrics cost, which is below this comparison's resolution.")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--skip-build", action="store_true")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    if not args.skip_build:
        sh(["mvn", "-B", "-q", "-pl", "servlet,bench", "-am", "package", "-DskipTests",
            "-Dspotless.check.skip=true", "-Dcheckstyle.skip=true"], cwd=ROOT)
    rows = []
    for r in range(args.rounds):
        order = ["on", "off"] if r % 2 == 0 else ["off", "on"]
        row = {"order": f"{order[0]} first"}
        for metrics in order:
            row[metrics] = one(free_port(), metrics, args)
            print(f"round {r + 1} metrics {metrics}: {row[metrics]['rps']:,.0f} req/s "
                  f"(load {row[metrics]['load']:.1f})", file=sys.stderr, flush=True)
        rows.append(row)
    load = load1()
    scores = jmh()
    scores["load"] = load
    report(args, rows, scores)


if __name__ == "__main__":
    main()
