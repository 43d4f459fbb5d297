#!/usr/bin/env python3
"""The open model's CPU per request beside wrk2's, on one server; not a test.

One liftride-server.jar on a free loopback port; then, one at a time on fresh processes and interleaved over
rounds (the order rotates each round), three generators each send about --requests rides at 3,000 req/s:

  wrk2     wrk -t2 -c64 -R3000 -d(requests/3000)s -s servlet/bench/post.lua (built from github.com/giltene/wrk2
           and cached in ~/.cache/liftride/wrk2, or --wrk2 PATH)
  raw/sdk  java -jar client-part1.jar -t 64 -s (requests/9) -m 10 --rate 3000 --transport raw|sdk --verbose,
           with the client's other flags at their defaults, as a user runs it

Per run: the generator's whole-process CPU over its life (user + system from wait4's rusage: JVM start, JIT,
baseline and GC included) per request it sent, the server's CPU per request meanwhile, the achieved rate, and for
the client its peak phase's send lag p99. The clients share one temporary user.home, so the first client run of
each transport finds no stored calibration and warms up (marked in the table); later ones reuse what it stored.

Usage: python3 bench/open_cost.py [--rounds 3] [--requests 90000] [--skip-build] [--wrk2 PATH] [--out FILE]
                                  [--client-jar JAR] [--label TEXT] [--logs DIR] [--java-opt OPTION ...]
Writes data/open-cost.md. The machine's load average is recorded before and after each run.
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
import tempfile
import time

from benchlib import cpu_seconds, free_port, loadavg, med_range, sh, start_server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
PART1_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
POST_LUA = os.path.join(ROOT, "servlet", "bench", "post.lua")
WRK2_CACHE = os.path.expanduser("~/.cache/liftride/wrk2")
WRK2_REPO = "https://github.com/giltene/wrk2"
RATE = 3000
LOGS = None  # --logs: a folder that keeps every generator's output
JAVA_OPTS = []  # --java-opt: JVM options for the client's runs


def wrk2_binary(given):
    """wrk2's executable: --wrk2, the cached build, `wrk2` on the PATH, or a fresh build from WRK2_REPO."""
    cached = os.path.join(WRK2_CACHE, "wrk")
    for candidate in (given, cached, shutil.which("wrk2")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "wrk2")
        sh(["git", "clone", "--depth", "1", WRK2_REPO, src])
        sh(["make", "-C", src], stdout=sys.stderr)  # bundles LuaJIT; needs gcc, make, libssl-dev, zlib1g-dev
        os.makedirs(WRK2_CACHE, exist_ok=True)
        shutil.copy2(os.path.join(src, "wrk"), cached)
    return cached


def run_measured(cmd, server_pid, timeout, env=None):
    """Runs cmd to its end; its output, rusage CPU seconds (all threads, whole life) and the server's CPU meanwhile."""
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    load = loadavg()
    server0 = cpu_seconds(server_pid)
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.time() + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.time() > deadline:
                p.kill()
                raise SystemExit(f"timed out after {timeout} s: {' '.join(cmd)}")
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if LOGS:
        with open(os.path.join(LOGS, f"{time.time():.0f}-{os.path.basename(cmd[0])}.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n" + text)
    if p.returncode != 0:
        raise SystemExit(f"exit {p.returncode}: {' '.join(cmd)}\n{text}")
    return text, usage.ru_utime + usage.ru_stime, cpu_seconds(server_pid) - server0, load


def run_wrk2(wrk2, base, requests, server_pid):
    seconds = max(1, round(requests / RATE))
    cmd = [wrk2, "-t2", "-c64", f"-d{seconds}s", f"-R{RATE}", "-s", POST_LUA, base]
    out, cpu, server_cpu, load = run_measured(cmd, server_pid, seconds + 60)
    sent = int(re.search(r"^\s*(\d+) requests in", out, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"gen": "wrk2", "requests": sent, "cpu_s": cpu, "server_cpu_s": server_cpu, "load": load,
            "rps": float(re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M).group(1)),
            "failed": int(non2xx.group(1)) if non2xx else 0, "lag_p99_ms": float("nan"), "warmed": False}


def num(s):
    return float(s.replace(",", ""))


def run_client(jar, transport, base, requests, server_pid, home):
    skiers = max(64, round(requests / 9))  # -m 10: 0.9 x 10 requests per skier
    cmd = ["java", f"-Duser.home={home}", *JAVA_OPTS, "-jar", jar, "-t", "64", "-s", str(skiers), "-m", "10",
           "--rate", str(RATE), "-i", base, "--transport", transport, "--verbose"]
    out, cpu, server_cpu, load = run_measured(cmd, server_pid, 900)
    m = re.search(r"^\s+requests\s+([\d,]+) successful, ([\d,]+) failed, ([\d,]+) retries; "
                  r"wall ([\d.]+) s, ([\d,.]+) req/s", out, re.M)
    if not m:
        raise SystemExit("no counts in the client's output:\n" + out)
    # the open-model table's peak row: offered, achieved, ratio, lag mean, lag p99, lag max, late sends
    peak = re.search(r"^\s+peak\s+\d+\s+([\d,.]+)\s+([\d,.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d,]+)\s*$",
                     out, re.M)
    ok, failed = int(num(m.group(1))), int(num(m.group(2)))
    return {"gen": transport, "requests": ok + failed, "cpu_s": cpu, "server_cpu_s": server_cpu, "load": load,
            "rps": num(m.group(5)), "failed": failed, "peak_rps": num(peak.group(2)) if peak else float("nan"),
            "lag_p99_ms": float(peak.group(5)) if peak else float("nan"),
            "warmed": "Warming up" in out}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--requests", type=int, default=90_000)
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--wrk2", help="a wrk2 executable (default: the cached build, or build it)")
    ap.add_argument("--client-jar", default=PART1_JAR)
    ap.add_argument("--label", default="", help="what this client build is, for the page's heading")
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "open-cost.md"))
    ap.add_argument("--logs", help="a folder to keep every generator's output in")
    ap.add_argument("--java-opt", action="append", default=[], help="a JVM option for the client's runs (repeatable)")
    ap.add_argument("--from-log", help="no runs: rewrite the page from an earlier run's stderr (its result lines)")
    a = ap.parse_args()
    global LOGS
    LOGS = a.logs
    JAVA_OPTS.extend(a.java_opt)
    if a.from_log:
        with open(a.from_log) as f:
            runs = [eval(line, {"nan": float("nan")}) for line in f if line.startswith("{'gen'")]  # our own dicts
        started = datetime.datetime.fromtimestamp(os.path.getmtime(a.from_log), datetime.timezone.utc)
        write(a, started.strftime("%Y-%m-%d %H:%M UTC (finished)"), runs)
        return
    if not a.skip_build:
        sh(["mvn", "-B", "-q", "-o", "-DskipTests", "-pl", "client-part1,servlet", "-am", "package"], cwd=ROOT)
    for jar in (SERVER_JAR, a.client_jar):
        if not os.path.exists(jar):
            raise SystemExit(f"missing {jar}: build first (mvn -DskipTests -pl client-part1 -am package)")
    wrk2 = wrk2_binary(a.wrk2)
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    port = free_port()
    base = f"http://127.0.0.1:{port}/liftride"
    runs = []
    server = start_server(SERVER_JAR, port)
    try:
        # the server's JIT warms on a discarded wrk2 run, so no generator pays for the server's compilation
        run_wrk2(wrk2, base, a.requests // 3, server.pid)
        with tempfile.TemporaryDirectory() as home:
            gens = ["wrk2", "raw", "sdk"]
            for i in range(a.rounds):
                for g in gens[i % 3:] + gens[:i % 3]:
                    r = (run_wrk2(wrk2, base, a.requests, server.pid) if g == "wrk2"
                         else run_client(a.client_jar, g, base, a.requests, server.pid, home))
                    r["round"] = i + 1
                    r["load_after"] = loadavg()
                    runs.append(r)
                    print({k: v for k, v in r.items()}, file=sys.stderr, flush=True)
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
    write(a, started, runs)


def fmt(x, spec):
    return "" if x is None or x != x else spec.format(x)


def per_request_us(r, key):
    return r[key] * 1e6 / r["requests"]


def write(a, started, runs):
    L = ["# The open model's CPU per request beside wrk2's\n"]
    opts = "".join(f" --java-opt={o}" for o in a.java_opt)
    L.append(f"`python3 bench/open_cost.py --rounds {a.rounds} --requests {a.requests}{opts}` on {started},"
             f" {platform.node()} ({os.cpu_count()} cores, shared with other work: the load average is beside"
             f" every run){' - ' + a.label if a.label else ''}.\n")
    L.append("One `liftride-server.jar` (in memory) on loopback. Each generator sends about"
             f" {a.requests:,} rides at {RATE:,} req/s on a fresh process, one at a time, the order rotating each"
             " round: wrk2 `-t2 -c64 -R3000`, client-part1 `-t 64 --rate 3000 -m 10` with `--transport raw` and"
             " with the generated SDK (other flags at their defaults). *CPU* = the generator's whole-process user +"
             " system time over its life (wait4's rusage: JVM start, JIT, baseline, GC) per request it sent."
             " The client's plan runs its three phases (startup and cooldown at a quarter of the rate), so it takes"
             " longer than wrk2 for the same requests. *warmed up* = no stored calibration, so that run warmed"
             " the JVM up first (a user's first run against a server).\n")
    L.append("| round | generator | requests | CPU (µs/request) | server CPU (µs/request) | achieved (req/s)"
             " | peak achieved (req/s) | peak send lag p99 (ms) | failed | warmed up | load average before → after |")
    L.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in runs:
        L.append(f"| {r['round']} | {r['gen']} | {r['requests']:,} | {per_request_us(r, 'cpu_s'):.1f}"
                 f" | {per_request_us(r, 'server_cpu_s'):.1f} | {r['rps']:,.0f}"
                 f" | {fmt(r.get('peak_rps'), '{:,.0f}')} | {fmt(r['lag_p99_ms'], '{:.3f}')} | {r['failed']}"
                 f" | {'yes' if r['warmed'] else ''} | {r['load']} → {r['load_after']} |")
    # a wrk2 run that fell short of the rate (the shared machine starved the server) is no yardstick
    valid = [per_request_us(r, "cpu_s") for r in runs if r["gen"] == "wrk2" and r["rps"] >= 0.95 * RATE]
    L.append(f"\nMedians (min-max) over the rounds; the ratio divides by wrk2's median over its {len(valid)} runs that"
             f" achieved at least 95% of the rate ({statistics.median(valid) if valid else float('nan'):.1f} µs):\n")
    L.append("| generator | CPU (µs/request) | / wrk2's | server CPU (µs/request) | peak send lag p99 (ms) |")
    L.append("|---|---:|---:|---:|---:|")
    for g in ("wrk2", "raw", "sdk"):
        rs = [r for r in runs if r["gen"] == g]
        cpu = [per_request_us(r, "cpu_s") for r in rs]
        ratio = statistics.median(cpu) / statistics.median(valid) if valid else float("nan")
        lags = [r["lag_p99_ms"] for r in rs if r["lag_p99_ms"] == r["lag_p99_ms"]]
        L.append(f"| {g} | {med_range(cpu, '{:.1f}')} | {ratio:.2f}"
                 f" | {med_range([per_request_us(r, 'server_cpu_s') for r in rs], '{:.1f}')}"
                 f" | {med_range(lags) if lags else ''} |")
    L.append("")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))
    print("wrote " + a.out, file=sys.stderr)


if __name__ == "__main__":
    main()
