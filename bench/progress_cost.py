#!/usr/bin/env python3
"""Does the progress output cost throughput? (issue 11, "Live progress")

Interleaved rounds of the same client-part1 run against one server JVM on loopback: once with --quiet (no
progress at all: no ticker thread, nothing printed) and once with stderr going to a file, which is what a CI
log gets by default (the ticker thread sums the workers' counters every second and a plain line is printed
every 10 s). The order alternates round by round, so a drift of the shared 2-core machine hits both alike.
Throughput and wall time come from each run's --summary-json; the client's CPU time from the OS.

Usage: python3 bench/progress_cost.py [--rounds 5] [--threads 32] [--skiers 20000] [--skip-build]
Writes data/progress-cost.md. Loopback only; every run is bounded by the plan.
"""
import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile

import benchlib
from benchlib import free_port, med_range, sh

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
CLIENT_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
OUT = os.path.join(ROOT, "data", "progress-cost.md")


def run_client(port, args, quiet, tmp):
    summary = os.path.join(tmp, "summary.json")
    errfile = os.path.join(tmp, "stderr.txt")
    cmd = ["java", "-jar", CLIENT_JAR, "-t", str(args.threads), "-s", str(args.skiers), "--baseline", "0",
           "-i", f"127.0.0.1:{port}", "--summary-json", summary] + (["--quiet"] if quiet else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(errfile, "w") as err:  # a file, not a terminal: the default progress is the plain 10 s line
        code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err, timeout=600).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        raise SystemExit(f"client exited {code}: {' '.join(cmd)}\n" + open(errfile).read())
    with open(summary) as f:
        s = json.load(f)
    with open(errfile) as f:
        lines = [l for l in f.read().splitlines() if l.startswith("[")]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"throughput": s["throughput"], "wall": s["wallSeconds"], "requests": s["successful"],
            "cpu": cpu, "progress_lines": len(lines), "example": lines[0] if lines else ""}


def reading(ratio):
    lo, hi = min(ratio), max(ratio)
    if lo <= 1 <= hi:
        return (f"Reading: the per-round ratio spans {lo:.3f}-{hi:.3f} and includes 1, so no cost is measurable: "
                f"on this shared machine the rounds scatter by about ±{max(1 - lo, hi - 1) * 100:.0f}%, which is "
                "the resolution of this comparison. The progress thread's work per second (summing each worker's "
                "two volatile counters, formatting one line every 10 s) is far below that.")
    return (f"Reading: every round's ratio is {'below' if hi < 1 else 'above'} 1 ({lo:.3f}-{hi:.3f}): "
            "a difference this comparison can see.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--skiers", type=int, default=20000)
    ap.add_argument("--skip-build", action="store_true")
    args = ap.parse_args()
    if not args.skip_build:
        sh(["mvn", "-B", "-q", "-pl", "servlet,client-part1", "-am", "package", "-DskipTests",
            "-Dspotless.check.skip=true", "-Dcheckstyle.skip=true"], cwd=ROOT)
    port = free_port()
    server = benchlib.start_server(SERVER_JAR, port)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            print("warm-up run (not counted)", file=sys.stderr, flush=True)
            run_client(port, args, True, tmp)
            for r in range(args.rounds):
                order = [True, False] if r % 2 == 0 else [False, True]
                res = {}
                for quiet in order:
                    res[quiet] = run_client(port, args, quiet, tmp)
                    print(f"round {r + 1} {'quiet' if quiet else 'progress'}: {res[quiet]['throughput']:.0f} req/s",
                          file=sys.stderr, flush=True)
                rows.append((r + 1, "quiet first" if order[0] else "progress first", res[True], res[False]))
    finally:
        server.terminate()
        server.wait(timeout=30)

    q = [x[2]["throughput"] for x in rows]
    p = [x[3]["throughput"] for x in rows]
    ratio = [x[3]["throughput"] / x[2]["throughput"] for x in rows]
    qc = [x[2]["cpu"] * 1e6 / x[2]["requests"] for x in rows]
    pc = [x[3]["cpu"] * 1e6 / x[3]["requests"] for x in rows]
    lines = [
        "# Does the progress output cost throughput?",
        "",
        f"Measured {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} on "
        f"{platform.node()} ({os.cpu_count()} cores, shared with other builds: expect noise) by "
        f"`python3 bench/progress_cost.py --rounds {args.rounds} --threads {args.threads} --skiers {args.skiers}`.",
        "",
        f"The same client-part1 run (`-t {args.threads} -s {args.skiers} --baseline 0`, "
        f"{rows[0][2]['requests']:,} requests) against one server JVM on loopback, in interleaved pairs "
        "whose order alternates: `--quiet` (no progress thread, nothing printed) and stderr to a file (what a "
        "CI log gets: the progress thread reads the workers' counters every second and a plain line is "
        "printed every 10 s). Throughput and wall time from each run's `--summary-json`; the client JVM's CPU "
        "time (user + system) from the OS. One unmeasured run first warms the server.",
        "",
        "| round | order | quiet req/s | progress req/s | progress / quiet | quiet CPU µs/req | progress CPU µs/req "
        "| progress lines |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for (n, order, a, b), rt in zip(rows, ratio):
        lines.append(f"| {n} | {order} | {a['throughput']:,.0f} | {b['throughput']:,.0f} | {rt:.3f} "
                     f"| {a['cpu'] * 1e6 / a['requests']:.1f} | {b['cpu'] * 1e6 / b['requests']:.1f} "
                     f"| {b['progress_lines']} |")
    lines += [
        "",
        f"- quiet: median {med_range(q, '{:,.0f}')} req/s; progress to a file: median {med_range(p, '{:,.0f}')} req/s",
        f"- progress / quiet, per round: median {med_range(ratio, '{:.3f}')}",
        f"- client CPU per request: quiet {med_range(qc, '{:.1f}')} µs, progress {med_range(pc, '{:.1f}')} µs",
        f"- a progress line as the log shows it: `{rows[0][3]['example']}`",
        "",
        reading(ratio),
        "",
    ]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
