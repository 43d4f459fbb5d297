#!/usr/bin/env python3
"""The Redis store beside the in-memory store: wrk POST throughput, interleaved (issue 10).

Two LiftRide servers run side by side on loopback, each in its own JVM with the same flags: one with
the in-memory store, one with --store redis://... against a real redis-server started here with the
project's servlet/redis/redis.conf (AOF, appendfsync everysec). Each round runs `wrk -t2 -c64` with
servlet/bench/post.lua (a unique Idempotency-Key per ride, as the load client sends) against one,
then the other, in alternating order. The figure is the ratio redis / memory of POSTs per second,
per round; Redis's own CPU is on the same 2 cores, so it is paid inside the ratio. With --always a
third server uses a second Redis with appendfsync always, to price closing the OS-crash window.

Every 201 is checked against the store afterwards: each server's ridesStored must cover the 2xx
answers wrk counted, and exceed them by at most 64 per run, because wrk stops on the clock with up to
one request per connection in flight, which the server may store after wrk stopped counting. CPU per
request is read from /proc for the server JVM and redis-server.

Usage: python3 bench/redis_bench.py [--rounds 5] [--seconds 10] [--always] [--skip-build]
Writes data/redis-bench.md. Loopback only; every run is bounded in time.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
POST_LUA = os.path.join(ROOT, "servlet", "bench", "post.lua")
REDIS_CONF = os.path.join(ROOT, "servlet", "redis", "redis.conf")
OUT = os.path.join(ROOT, "data", "redis-bench.md")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def ensure(program, package):
    if shutil.which(program):
        return
    print(f"{program} not found: installing Debian's {package}", file=sys.stderr)
    sh(["apt-get", "update", "-qq"])
    sh(["apt-get", "install", "-y", "-qq", package])


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, fsync):
        self.dir = tempfile.mkdtemp(prefix="liftride-bench-redis-")
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["redis-server", REDIS_CONF, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
             "--appendfsync", fsync, "--daemonize", "no", "--logfile", os.path.join(self.dir, "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        for _ in range(300):
            if subprocess.run(["redis-cli", "-p", str(self.port), "PING"], capture_output=True,
                              text=True).stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise SystemExit("redis-server did not start")

    def info(self, section):
        return subprocess.run(["redis-cli", "-p", str(self.port), "INFO", section], capture_output=True,
                              text=True).stdout

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class Server:
    def __init__(self, store):
        args = ["java", "-Xms512m", "-Xmx512m", "-jar", SERVER_JAR, "--host", "127.0.0.1", "--port", "0",
                "--store", store]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 60
        self.base = None
        while time.time() < deadline and not self.base:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"(http://127\.0\.0\.1:\d+/liftride)", line)
            self.base = m.group(1) if m else None
        if not self.base:
            self.proc.kill()
            raise SystemExit(f"server with --store {store} did not print its URL within 60 s")

    def rides_stored(self):
        with urllib.request.urlopen(self.base + "/statistics", timeout=10) as r:
            return json.load(r)["ridesStored"]

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def wrk(url, seconds, pids):
    env = dict(os.environ, KEYS="1")
    before = {pid: cpu_seconds(pid) for pid in pids}
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", "-s", POST_LUA, url],
                         capture_output=True, text=True, env=env, timeout=seconds + 60).stdout
    used = {pid: cpu_seconds(pid) - before[pid] for pid in pids}
    total = int(re.search(r"^\s*(\d+) requests in", out, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    non2xx = int(non2xx.group(1)) if non2xx else 0
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", out, re.M)
    scale = {"us": 0.001, "ms": 1, "s": 1000}
    return {
        "rps": float(re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M).group(1)),
        "ok": total - non2xx, "non2xx": non2xx,
        "cpu_us": {pid: used[pid] * 1e6 / max(1, total) for pid in pids},
        "p99_ms": float(p99.group(1)) * scale[p99.group(2)] if p99 else float("nan"),
    }


IN_FLIGHT_PER_RUN = 64  # wrk -c64: at most one unanswered request per connection when the clock stops


def reconcile(stored, ok, runs):
    """ridesStored minus the 2xx wrk counted: never below 0 (a lost 201), never above what was in flight."""
    extra = stored - ok
    verdict = "ok" if 0 <= extra <= IN_FLIGHT_PER_RUN * runs else "MISMATCH"
    return f"{verdict}: {extra:+,} ({stored:,} stored, {ok:,} answered 2xx, allowed 0..{IN_FLIGHT_PER_RUN * runs})"


def med(xs):
    return statistics.median(xs), min(xs), max(xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--always", action="store_true", help="also a Redis with appendfsync always")
    ap.add_argument("--skip-build", action="store_true")
    a = ap.parse_args()
    if not 1 <= a.rounds <= 50 or not 1 <= a.seconds <= 120:
        raise SystemExit("--rounds must be 1..50 and --seconds 1..120")
    for program, package in (("wrk", "wrk"), ("redis-server", "redis-server"), ("redis-cli", "redis-tools")):
        ensure(program, package)
    if not a.skip_build:
        sh(["mvn", "-B", "-q", "-DskipTests", "install"], cwd=ROOT)

    redises = {"redis": Redis("everysec")}
    if a.always:
        redises["redis-always"] = Redis("always")
    servers = {"memory": Server("memory")}
    for name, r in redises.items():
        servers[name] = Server(f"redis://127.0.0.1:{r.port}")
    results = {name: [] for name in servers}
    ok_total = {name: 0 for name in servers}
    try:
        for name, s in servers.items():  # warm-up: JIT and connection pools, not counted
            wrk(s.base, 5, [s.proc.pid])
            ok_total[name] = s.rides_stored()
        uptime_before = open("/proc/loadavg").read().split()[:3]
        names = list(servers)
        for rnd in range(a.rounds):
            order = names if rnd % 2 == 0 else list(reversed(names))
            for name in order:
                s = servers[name]
                pids = [s.proc.pid] + ([redises[name].proc.pid] if name in redises else [])
                r = wrk(s.base, a.seconds, pids)
                r["server_cpu_us"] = r["cpu_us"][s.proc.pid]
                r["redis_cpu_us"] = r["cpu_us"][redises[name].proc.pid] if name in redises else 0.0
                ok_total[name] += r["ok"]
                results[name].append(r)
                print(f"round {rnd + 1} {name}: {r['rps']:,.0f} req/s, non-2xx {r['non2xx']}, server "
                      f"{r['server_cpu_us']:.1f} µs/req, redis {r['redis_cpu_us']:.1f} µs/req", file=sys.stderr)
        uptime_after = open("/proc/loadavg").read().split()[:3]
        stored = {name: s.rides_stored() for name, s in servers.items()}
        mem = redises["redis"].info("memory")
        keys = int(re.search(r"keys=(\d+)", redises["redis"].info("keyspace")).group(1))
        used = int(re.search(r"used_memory:(\d+)", mem).group(1))
    finally:
        for s in servers.values():
            s.close()
        for r in redises.values():
            r.close()

    lines = ["# The Redis store beside the in-memory store", "",
             f"`python3 bench/redis_bench.py --rounds {a.rounds} --seconds {a.seconds}"
             + (" --always" if a.always else "") + f"`, {datetime.date.today()}, on this 2-core machine "
             f"(load average before {' '.join(uptime_before)}, after {' '.join(uptime_after)}). "
             "`wrk -t2 -c64` POSTs with a unique Idempotency-Key each (servlet/bench/post.lua, KEYS=1), "
             "interleaved rounds, the order alternating; one warm-up run per server not counted. Redis: "
             "servlet/redis/redis.conf (AOF, appendfsync everysec) on the same 2 cores, so its CPU is "
             "inside the ratio.", "",
             "| round | " + " | ".join(f"{n} req/s" for n in names) + " | "
             + " | ".join(f"{n} / memory" for n in names[1:]) + " |",
             "|---:|" + "---:|" * (len(names) * 2 - 1)]
    for i in range(a.rounds):
        row = [f"{results[n][i]['rps']:,.0f}" for n in names]
        row += [f"{results[n][i]['rps'] / results['memory'][i]['rps']:.2f}" for n in names[1:]]
        lines.append(f"| {i + 1} | " + " | ".join(row) + " |")
    lines += ["", "| store | req/s median (min-max) | ratio to memory, median of rounds (min-max) | p99 ms median "
              "| server CPU µs/req | redis CPU µs/req | non-2xx | ridesStored - 2xx (allowed 0..in flight) |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for n in names:
        rps = med([r["rps"] for r in results[n]])
        ratio = med([results[n][i]["rps"] / results["memory"][i]["rps"] for i in range(a.rounds)])
        lines.append(
            f"| {n} | {rps[0]:,.0f} ({rps[1]:,.0f}-{rps[2]:,.0f}) | {ratio[0]:.2f} ({ratio[1]:.2f}-{ratio[2]:.2f}) | "
            f"{statistics.median(r['p99_ms'] for r in results[n]):.2f} | "
            f"{statistics.median(r['server_cpu_us'] for r in results[n]):.1f} | "
            f"{statistics.median(r['redis_cpu_us'] for r in results[n]):.1f} | "
            f"{sum(r['non2xx'] for r in results[n])} | {reconcile(stored[n], ok_total[n], a.rounds)} |")
    lines += ["", f"Redis (everysec) memory after the run: {used / 2**20:.1f} MiB in {keys:,} Redis keys for "
              f"{stored['redis']:,} rides, each with its idempotency key (a field of the period's key hash, kept "
              f"24-48 h) and its share of the aggregates: about {used / max(1, stored['redis']):.0f} bytes a ride.", ""]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    if any("MISMATCH" in line for line in lines):
        raise SystemExit("a server's ridesStored does not reconcile with wrk's 2xx count: see the table")


if __name__ == "__main__":
    main()
