#!/usr/bin/env python3
"""The Redis store's cost: wrk POST throughput, Redis store / in-memory store (issue 17's method).

ONE server at a time, each on a fresh JVM (two servers side by side would share the 2 cores and slow
the in-memory one, which flatters the ratio): start the server (and, for the Redis store, a fresh
redis-server with the project's servlet/redis/redis.conf: AOF, appendfsync everysec), run
`wrk -t2 -c64` with servlet/bench/post.lua (a unique Idempotency-Key per ride, KEYS=1) for a
warm-up not counted, then the measured run, stop everything. Pairs are interleaved (memory, redis;
then redis, memory; ...) and the figure is the median of the pairs' ratios, with min-max. Redis runs
on the same cores, so its CPU is paid inside the ratio.

Every 201 is checked against the store: ridesStored after the measured run minus before it must cover
the 2xx wrk counted, and exceed them by at most 64 (one request per connection in flight when wrk's
clock stops, then stored). After each Redis run it also measures what Redis holds per ride, per
idempotency key, per skier-day and per skier-season (MEMORY USAGE), for the sizing rule in README.

Usage: python3 bench/redis_bench.py [--pairs 3] [--seconds 10] [--warmup 5] [--fsync everysec|always]
         [--skip-build] [--out data/redis-bench.md]
         [--jvm-arg=-Dliftride.redis.committers=4 ...]
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

from benchlib import BENCH_BUILT, bench_classpath, cpu_seconds, ensure, free_port, sh

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
POST_LUA = os.path.join(ROOT, "servlet", "bench", "post.lua")
REDIS_CONF = os.path.join(ROOT, "servlet", "redis", "redis.conf")
OUT = os.path.join(ROOT, "data", "redis-bench.md")


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
    def __init__(self, store, jvm_args=()):
        args = ["java", "-Xms512m", "-Xmx512m", *jvm_args, "-jar", SERVER_JAR, "--host", "127.0.0.1",
                "--port", "0", "--store", store]
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


def context_switches(pid):
    """Voluntary context switches of every thread of the process so far (a thread that blocked and woke)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                total += int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", f.read(), re.M).group(1))
        except (OSError, AttributeError):
            pass  # the thread ended meanwhile
    return total


def wrk(url, seconds, pids):
    env = dict(os.environ, KEYS="1")
    load = float(open("/proc/loadavg").read().split()[0])
    before = {pid: cpu_seconds(pid) for pid in pids}
    switches = {pid: context_switches(pid) for pid in pids}
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", "-s", POST_LUA, url],
                         capture_output=True, text=True, env=env, timeout=seconds + 60).stdout
    used = {pid: cpu_seconds(pid) - before[pid] for pid in pids}
    switches = {pid: context_switches(pid) - switches[pid] for pid in pids}
    total = int(re.search(r"^\s*(\d+) requests in", out, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    non2xx = int(non2xx.group(1)) if non2xx else 0
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", out, re.M)
    scale = {"us": 0.001, "ms": 1, "s": 1000}
    return {
        "rps": float(re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M).group(1)),
        "ok": total - non2xx, "non2xx": non2xx,
        "cpu_us": {pid: used[pid] * 1e6 / max(1, total) for pid in pids},
        "switches": {pid: switches[pid] / max(1, total) for pid in pids},
        "load": load,
        "p99_ms": float(p99.group(1)) * scale[p99.group(2)] if p99 else float("nan"),
    }


IN_FLIGHT_PER_RUN = 64  # wrk -c64: at most one unanswered request per connection when the clock stops


def reconcile(stored, ok):
    """ridesStored gained minus the 2xx wrk counted: never below 0 (a lost 201), never above what was in flight."""
    extra = stored - ok
    verdict = "ok" if 0 <= extra <= IN_FLIGHT_PER_RUN else "MISMATCH"
    return f"{verdict}: {extra:+,}"


def med(xs):
    return statistics.median(xs), min(xs), max(xs)


def memory_usage(redis, key):
    out = subprocess.run(["redis-cli", "-p", str(redis.port), "MEMORY", "USAGE", key, "SAMPLES", "0"],
                         capture_output=True, text=True).stdout.strip()
    fields = subprocess.run(["redis-cli", "-p", str(redis.port), "HLEN", key], capture_output=True,
                            text=True).stdout.strip()
    return int(out or 0), int(fields or 0)


def sizing(redis, baseline, stored):
    """Bytes Redis holds per ride, per idempotency key, per skier-day and per skier-season."""
    used = int(re.search(r"used_memory:(\d+)", redis.info("memory")).group(1))
    keys = subprocess.run(["redis-cli", "-p", str(redis.port), "--scan", "--pattern", "{lr:1:2022}:k:*"],
                          capture_output=True, text=True).stdout.split()
    key_bytes, key_fields = (sum(x) for x in zip(*[memory_usage(redis, k) for k in keys])) if keys else (0, 0)
    day_bytes, day_fields = memory_usage(redis, "{lr:1:2022}:d:1")
    tot_bytes, tot_fields = memory_usage(redis, "{lr:1:2022}:tot")
    return {"per_ride": (used - baseline) / max(1, stored), "rides": stored,
            "per_key": key_bytes / max(1, key_fields), "keys": key_fields,
            "per_skier_day": day_bytes / max(1, day_fields), "skier_days": day_fields,
            "per_skier_season": tot_bytes / max(1, tot_fields)}


def one_run(name, a):
    """A fresh JVM (and for the Redis store a fresh redis-server): warm-up, then the measured run."""
    redis = Redis(a.fsync) if name == "redis" else None
    server = None
    try:
        baseline = int(re.search(r"used_memory:(\d+)", redis.info("memory")).group(1)) if redis else 0
        server = Server(f"redis://127.0.0.1:{redis.port}" if redis else "memory", a.jvm_arg)
        pids = [server.proc.pid] + ([redis.proc.pid] if redis else [])
        wrk(server.base, a.warmup, pids)
        before = server.rides_stored()
        r = wrk(server.base, a.seconds, pids)
        r["check"] = reconcile(server.rides_stored() - before, r["ok"])
        r["server_cpu_us"] = r["cpu_us"][server.proc.pid]
        r["redis_cpu_us"] = r["cpu_us"][redis.proc.pid] if redis else 0.0
        r["server_switches"] = r["switches"][server.proc.pid]
        if redis:
            r["sizing"] = sizing(redis, baseline, server.rides_stored())
        print(f"{name}: {r['rps']:,.0f} req/s, non-2xx {r['non2xx']}, server {r['server_cpu_us']:.1f} µs/req, "
              f"redis {r['redis_cpu_us']:.1f} µs/req, {r['check']}", file=sys.stderr, flush=True)
        return r
    finally:
        if server:
            server.close()
        if redis:
            redis.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--jvm-arg", action="append", default=[], help="passed to both servers' JVMs")
    ap.add_argument("--fsync", choices=["everysec", "always"], default="everysec",
                    help="the Redis side's appendfsync (always: the price of closing the OS-crash window)")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args()
    if not 1 <= a.pairs <= 20 or not 1 <= a.seconds <= 120 or not 1 <= a.warmup <= 60:
        raise SystemExit("--pairs must be 1..20, --seconds 1..120 and --warmup 1..60")
    for program, package in (("wrk", "wrk"), ("redis-server", "redis-server"), ("redis-cli", "redis-tools")):
        ensure(program, package)
    if not a.skip_build:
        sh(["mvn", "-B", "-q", "-DskipTests", "install"], cwd=ROOT)
    load_before = " ".join(open("/proc/loadavg").read().split()[:3])
    pairs = []
    for i in range(a.pairs):
        order = ["memory", "redis"] if i % 2 == 0 else ["redis", "memory"]
        pairs.append({name: one_run(name, a) for name in order})
    load_after = " ".join(open("/proc/loadavg").read().split()[:3])
    write(a, pairs, load_before, load_after, probes())


def probes():
    """The store's own cost per ride without HTTP (StoreCostProbe): the handoff alone, then with Redis."""
    if not os.path.isfile(BENCH_BUILT):
        return [f"(StoreCostProbe not run: {BENCH_BUILT} is missing; build without --skip-build)"]
    probe = ["java", "-cp", bench_classpath(), "io.upic.liftride.server.store.redis.StoreCostProbe"]
    lines = [subprocess.run(probe + ["handoff", "4"], capture_output=True, text=True, timeout=60).stdout.strip()]
    redis = Redis("everysec")
    try:
        out = subprocess.run(probe + ["redis", str(redis.port), "4"], capture_output=True, text=True, timeout=60)
        lines.append(out.stdout.strip())
    finally:
        redis.close()
    return lines


def write(a, pairs, load_before, load_after, probe_lines):
    ratios = [p["redis"]["rps"] / p["memory"]["rps"] for p in pairs]
    lines = ["# The Redis store's cost: Redis store / in-memory store", "",
             f"`python3 bench/redis_bench.py --pairs {a.pairs} --seconds {a.seconds} --warmup {a.warmup} --fsync {a.fsync}"
             + "".join(f" --jvm-arg={j}" for j in a.jvm_arg) + f"`, {datetime.date.today()}, on a 2-core machine "
             f"shared with other builds and tests (load average before {load_before}, after {load_after}: "
             "the absolute figures move with that load; rerun on a quiet machine for a cleaner one). "
             "One server at a time, each on a fresh JVM (-Xmx512m) and, for the Redis store, a fresh "
             f"redis-server with servlet/redis/redis.conf (AOF, appendfsync {a.fsync}) on the same cores; "
             f"`wrk -t2 -c64` POSTs with a unique Idempotency-Key each (servlet/bench/post.lua, KEYS=1), "
             f"{a.warmup} s warm-up not counted, then {a.seconds} s measured; pairs interleaved, the order "
             "alternating.", "",
             "| pair | order | load (1 min, at each start) | memory req/s | redis req/s | redis / memory | redis p99 ms "
             "| server CPU µs/req (memory, redis) | redis CPU µs/req | server thread wake-ups/req (memory, redis) "
             "| ridesStored - 2xx (memory, redis; allowed 0..+64) |",
             "|---:|---|---|---:|---:|---:|---:|---|---:|---|---|"]
    for i, p in enumerate(pairs):
        m, r = p["memory"], p["redis"]
        loads = ", ".join(f"{p[name]['load']:.1f}" for name in p)
        lines.append(f"| {i + 1} | {' then '.join(p)} | {loads} | {m['rps']:,.0f} | {r['rps']:,.0f} | {ratios[i]:.2f} | "
                     f"{r['p99_ms']:.2f} | {m['server_cpu_us']:.1f}, {r['server_cpu_us']:.1f} | "
                     f"{r['redis_cpu_us']:.1f} | {m['server_switches']:.2f}, {r['server_switches']:.2f} | "
                     f"{m['check']}, {r['check']} |")
    ratio = med(ratios)
    mem_rps = med([p["memory"]["rps"] for p in pairs])
    red_rps = med([p["redis"]["rps"] for p in pairs])
    cpu = med([p["memory"]["server_cpu_us"] / (p["redis"]["server_cpu_us"] + p["redis"]["redis_cpu_us"])
               for p in pairs])
    size = pairs[-1]["redis"]["sizing"]
    lines += ["", f"**Redis / memory: {ratio[0]:.2f}** (median of {len(pairs)} pairs, min {ratio[1]:.2f}, "
              f"max {ratio[2]:.2f}); memory {mem_rps[0]:,.0f} req/s ({mem_rps[1]:,.0f}-{mem_rps[2]:,.0f}), "
              f"Redis {red_rps[0]:,.0f} req/s ({red_rps[1]:,.0f}-{red_rps[2]:,.0f}).", "",
              f"The same ratio from CPU per request, which the machine's load moves much less than req/s "
              f"(server CPU with memory / server + Redis CPU with Redis; what the ratio of req/s tends to when "
              f"the cores are the limit): **{cpu[0]:.2f}** (min {cpu[1]:.2f}, max {cpu[2]:.2f}).", "",
              "What Redis holds (last Redis run, MEMORY USAGE SAMPLES 0): "
              f"{size['per_ride']:.0f} bytes per ride all told ({size['rides']:,} rides, each with its key); "
              f"{size['per_key']:.0f} bytes per idempotency key ({size['keys']:,} keys, kept 24-48 h); "
              f"{size['per_skier_day']:.0f} bytes per skier-day ({size['skier_days']:,} skiers in one day's hash); "
              f"{size['per_skier_season']:.0f} bytes per skier-season. The sizing rule in README.md uses these.", "",
              "Where the JVM's time goes: the store alone, without HTTP (`java -cp bench/target/test-classes:$(cat bench/target/classpath.txt) "
              "io.upic.liftride.server.store.redis.StoreCostProbe handoff 4` and `... redis PORT 4`: 64 threads "
              "calling it as request threads would, 4 committers, 3 s warm-up, 6 s measured):", ""]
    lines += [f"    {line}" for line in probe_lines]
    lines += ["", "The handoff to a committer and back costs a few µs of CPU a ride and the whole store (handoff, "
              "Jedis encoding, Redis's answer) about 11: most of the extra server CPU per request with Redis is "
              "not in the store but in the threads around it. Profiled (perf on both processes, /proc context "
              "switches, /metrics batch sizes; 2026-11-24, shared machine): before this version each POST's "
              "request thread parked on its group-commit batch and was woken by the committer, 2.2 voluntary "
              "context switches per request in the server against 0.3 with the in-memory store, and the "
              "scheduler's switch path (finish_task_switch, futex wait/wake) was the largest single item in the "
              "server's profile; batch size (5 to 17 rides per FCALL, 1 to 4 committers) changed the server's "
              "CPU per request by less than the noise, so the cost is per request, not per batch. Now the POST "
              "is answered from the batch's completion (the request thread returns to the pool once the ride is "
              "queued; the committer writes the 201 and completes the AsyncContext): about 1.0 switch per "
              "request (the table's wake-ups column) and, in interleaved A/B runs of the two builds, about 20% "
              "less server CPU per request. What is left is Tomcat's dispatch of the completed request to a "
              "request thread (one wake-up, inherent to an answer that comes from another thread), the "
              "committers' own wake-ups, and Redis's function (about 9-10 µs of Redis CPU per ride, on the same "
              "cores). C2 compilation is still running during the measured 10 s (a fifth to a quarter of the "
              "samples on a busy machine, on both sides).", ""]
    lines += ["On a busy machine the req/s of a single run swings widely; the CPU-per-request ratio above moves "
              "much less and is the better estimate then. Rerun on a quiet machine: `python3 bench/redis_bench.py`.",
              ""]
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    if any("MISMATCH" in line for line in lines):
        raise SystemExit("a server's ridesStored does not reconcile with wrk's 2xx count: see the table")


if __name__ == "__main__":
    main()
