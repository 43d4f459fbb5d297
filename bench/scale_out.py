#!/usr/bin/env python3
"""Scale-out with small servers: 1, 2 and 4 CPU-capped LiftRide servers behind nginx (issues 10 and 20).

Each run starts a fresh local cluster (`LocalCluster`: redis-server with its AOF, N servers sharing it,
each in a cgroup of its own capped at --server-cpus with a --server-cpu-period-ms quota period, nginx
round robin in front, all on loopback), warms it with uncounted client-part1 runs until the throughput
of two warm-ups in a row agrees within --settle (the JIT compiling inside a 0.25-CPU quota takes long),
then runs client-part1 (`--transport raw`, `--baseline 0`) through the front and measures, over that run
only: the client's throughput; each server's CPU (/proc/PID/stat, all its threads), the rides it stored
and the group-commit batches it sent (its own /metrics: liftride_redis_batch_rides); the CPU of nginx,
Redis and the client; how often the servers' quota was hit (cgroup cpu.stat nr_throttled / nr_periods);
and the load average. The server counts are interleaved (each round rotates their order).

Usage: python3 bench/scale_out.py [--rounds 3] [--servers 1,2,4] [--server-cpus 0.25]
                                  [--server-cpu-period-ms 10] [-t 256 -s 20000 -m 10]
                                  [--server-java-options=-XX:...] [--wan-rtt 40ms [--wan-jitter 5ms]]
                                  [--out-name scale-out]
                                  [--skip-build] [--from-json RESULTS]

Writes data/<out-name>.md and data/<out-name>.json (the summary per server count; keys documented at the
top of the .md) and every measured number to data/runs/<out-name>-<timestamp>/results.json (git-ignored;
--from-json rewrites the report from it). --server-java-options adds JVM options to every server (through
JAVA_TOOL_OPTIONS of the cluster launcher, which its servers inherit): for experiments such as
-Dliftride.redis.committers=1. Prints its own run time at the end.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
CLIENT_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
CLUSTER_JAR = os.path.join(ROOT, "cluster", "target", "liftride-cluster.jar")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(text):
    print(text, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    log("+ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def cpu_seconds(pid):
    """user+sys CPU seconds of a live process (all its threads), from /proc/PID/stat; 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return 0.0


# Kinds of server threads by their Java name (read with `jcmd PID Thread.print`, whose nid is the Linux tid):
# /proc keeps only 15 characters of a name, which cannot tell Tomcat's poller from its request threads
# ("http-nio-127.0.") nor the committers from the watchdog ("liftride-group-").
JAVA_THREAD_KINDS = ((r"-exec-\d+$", "exec"), (r"-(Client)?Poller(-\d+)?$", "poller"),
                     (r"-Acceptor(-\d+)?$", "acceptor"), (r"^liftride-group-commit-watchdog$", "watchdog"),
                     (r"^liftride-group-commit-\d+$", "committers"), (r"^C[12] CompilerThread", "jit"),
                     (r"^(VM Thread|GC Thread|G1 )", "gc+vm"))
# For threads started after the names were read (Tomcat grows its pool), by the 15 characters /proc keeps.
PROC_THREAD_KINDS = (("C2 CompilerThre", "jit"), ("C1 CompilerThre", "jit"), ("VM Thread", "gc+vm"),
                     ("GC Thread", "gc+vm"), ("G1 ", "gc+vm"), ("liftride-group-", "committers"),
                     ("http-nio-", "exec"))
THREAD_KINDS = ("exec", "poller", "acceptor", "committers", "watchdog", "jit", "gc+vm", "exited", "other")


def java_thread_names(pid):
    """{tid: Java thread name} of a live JVM, from `jcmd PID Thread.print` (nid = the Linux tid); {} if jcmd fails."""
    jcmd = os.path.join(os.path.dirname(os.path.realpath(shutil.which("java") or "java")), "jcmd")
    try:
        out = subprocess.run([jcmd, str(pid), "Thread.print"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        log(f"jcmd {pid} Thread.print failed ({e}): server threads split by their 15-character names only")
        return {}
    return {int(nid, 0): name for name, nid in re.findall(r'^"(.*)" .*?\bnid=(0x[0-9a-fA-F]+|\d+)\b', out, re.M)}


def thread_kind(java_name, proc_name):
    """A server thread's kind (THREAD_KINDS) from its Java name if known, else from its /proc name."""
    if java_name is not None:
        return next((k for pattern, k in JAVA_THREAD_KINDS if re.search(pattern, java_name)), "other")
    return next((k for prefix, k in PROC_THREAD_KINDS if proc_name.startswith(prefix)), "other")


def thread_stats(pid):
    """{tid: [15-character name, CPU seconds, voluntary context switches]} of a live process, from
    /proc/PID/task: the CPU from schedstat (nanoseconds, where stat counts 10 ms ticks), the switches from
    status (each one a time the thread blocked, so a wake-up later)."""
    stats = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return stats
    for tid in tids:
        base = f"/proc/{pid}/task/{tid}/"
        try:
            with open(base + "comm") as f:
                name = f.read().rstrip("\n")
            with open(base + "schedstat") as f:
                cpu = int(f.read().split()[0]) / 1e9
            with open(base + "status") as f:
                switches = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", f.read(), re.M).group(1))
        except (FileNotFoundError, ProcessLookupError, AttributeError):
            continue
        stats[int(tid)] = [name, cpu, switches]
    return stats


def thread_split(before, after, names, process_cpu):
    """({kind: CPU s}, {kind: voluntary switches}) of one server over a run: the threads alive at its end,
    by kind; what threads that ended during the run used is the process's CPU left over ("exited")."""
    cpu, blocks = {}, {}
    for tid, (proc_name, cpu1, sw1) in after.items():
        _, cpu0, sw0 = before.get(tid, (proc_name, 0.0, 0))
        kind = thread_kind(names.get(tid), proc_name)
        cpu[kind] = cpu.get(kind, 0.0) + cpu1 - cpu0
        blocks[kind] = blocks.get(kind, 0) + sw1 - sw0
    left = process_cpu - sum(cpu.values())
    if left > 0.01 * process_cpu:
        cpu["exited"] = left
    return cpu, blocks


def host_busy_seconds():
    """CPU seconds the whole machine was busy (every core, every process, the kernel), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def load_average():
    return os.getloadavg()[0]


class Cluster:
    """`java -jar liftride-cluster.jar --servers N --port 0 ...`, stopped with SIGTERM."""

    def __init__(self, servers, a):
        env = dict(os.environ)
        if a.server_java_options:
            env["JAVA_TOOL_OPTIONS"] = a.server_java_options
        cmd = ["java", "-Xmx128m", "-jar", CLUSTER_JAR, "--servers", str(servers), "--port", "0",
               "--server-jar", SERVER_JAR]
        if a.server_cpus:
            cmd += ["--server-cpus", str(a.server_cpus), "--server-cpu-period-ms", str(a.server_cpu_period_ms)]
        if getattr(a, "wan_rtt", None):
            cmd += ["--wan-rtt", a.wan_rtt, "--wan-jitter", a.wan_jitter]
        log("+ " + " ".join(cmd))
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.pids = {}  # group name (redis, server, nginx) -> [pid]
        self.server_urls = []
        self.management_urls = []  # each server's /metrics and /admin: never on its API port
        self.cgroups = []  # each capped server's cgroup directory
        self.front = None
        self.thread_names = []  # per server: {tid: Java thread name}, once read_thread_names() ran
        banner = []
        deadline = time.time() + 180
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            banner.append(line.rstrip())
            m = re.match(r"\s+(redis|server\d+|nginx)\s+(\S+)\s+pid (\d+)", line)
            if m:
                group = "server" if m.group(1).startswith("server") else m.group(1)
                self.pids.setdefault(group, []).append(int(m.group(3)))
                if group == "server":
                    self.server_urls.append(m.group(2))
                    self.management_urls.append(re.search(r"management (http://\S+)", line).group(1))
            m = re.search(r" in cgroup (\S+)$", line.rstrip())
            if m:
                self.cgroups.append(m.group(1))
            m = re.match(r"LiftRide cluster listening on (http://\S+)", line)
            if m:
                self.front = m.group(1)
                break
        if not self.front:
            self.close()
            raise SystemExit("the local cluster did not start:\n" + "\n".join(banner))

    def read_thread_names(self):
        """Maps each server's threads to their Java names (jcmd), so that the split by kind of thread is exact."""
        self.thread_names = [java_thread_names(pid) for pid in self.pids["server"]]

    def snapshot(self):
        """Every counter the report differences over a run."""
        servers = []
        for pid, url, group in zip(self.pids["server"], self.management_urls, self.cgroups or [None] * 99):
            rides, batches = batch_metrics(url)
            periods, throttled = cgroup_throttling(group)
            servers.append({"cpu_s": cpu_seconds(pid), "rides": rides, "batches": batches,
                            "periods": periods, "throttled": throttled, "tids": thread_stats(pid)})
        return {"servers": servers, "nginx": cpu_seconds(self.pids["nginx"][0]),
                "redis": cpu_seconds(self.pids["redis"][0]), "host": host_busy_seconds(), "load": load_average(),
                "t": time.monotonic()}

    def close(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def batch_metrics(management_url):
    """(rides, batches) this server sent to Redis so far: liftride_redis_batch_rides_sum and _count."""
    with urllib.request.urlopen(management_url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    values = dict(re.findall(r"^liftride_redis_batch_rides_(sum|count) (\S+)$", text, re.M))
    return float(values.get("sum", 0)), float(values.get("count", 0))


def cgroup_throttling(group):
    """(nr_periods, nr_throttled) of a server's cgroup (cpu.stat); (0, 0) uncapped."""
    if not group:
        return 0, 0
    with open(os.path.join(group, "cpu.stat")) as f:
        stat = dict(line.split() for line in f if len(line.split()) == 2)
    return int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0))


def client(front, a, runs, summary_path=None):
    """One client-part1 run through the front: (its summary JSON or None, its CPU seconds)."""
    cmd = ["java", "-jar", CLIENT_JAR, "-t", str(a.threads), "-s", str(a.skiers), "-m", str(runs),
           "--baseline", "0", "--transport", "raw", "--quiet", "-i", front]
    if summary_path:
        cmd += ["--summary-json", summary_path]
    log("+ " + " ".join(cmd))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    cpu = 0.0
    lines = []
    for line in p.stdout:  # the last sample before it exits is what it used
        lines.append(line)
        cpu = cpu_seconds(p.pid) or cpu
    p.wait()
    if p.returncode != 0:
        raise SystemExit(f"client-part1 exited {p.returncode}:\n{''.join(lines)}")
    out = "".join(lines)
    if summary_path:
        with open(summary_path) as f:
            return json.load(f), cpu
    m = re.search(r"throughput\s+([\d,.]+) req/s", out)
    return {"throughput": float(m.group(1).replace(",", "")) if m else 0.0}, cpu


def warm_up(cluster, a):
    """Uncounted runs until the servers' JIT compilers have settled: their compiler threads used at most
    --settle-jit µs per ride over the last warm-up, and its throughput is within --settle of the one before
    (at most --max-warmups). Returns each warm-up's (throughput, JIT µs per ride)."""
    seen = []
    for _ in range(a.max_warmups):
        before = cluster.snapshot()
        summary, _ = client(cluster.front, a, a.warmup_runs)
        after = cluster.snapshot()
        rides = sum(s1["rides"] - s0["rides"] for s0, s1 in zip(before["servers"], after["servers"]))
        jit = sum(thread_split(s0["tids"], s1["tids"], {}, s1["cpu_s"] - s0["cpu_s"])[0].get("jit", 0.0)
                  for s0, s1 in zip(before["servers"], after["servers"]))
        seen.append((summary["throughput"], jit * 1e6 / max(rides, 1)))
        log(f"  warm-up: {seen[-1][0]:,.0f} req/s, JIT {seen[-1][1]:.1f} us/ride")
        if (len(seen) >= 2 and seen[-1][1] <= a.settle_jit
                and abs(seen[-1][0] - seen[-2][0]) <= a.settle * max(seen[-1][0], seen[-2][0])):
            break
    return seen


def measure(cluster, a, summary_path):
    """The measured run: the client's summary and every counter's difference over it."""
    before = cluster.snapshot()
    summary, client_cpu = client(cluster.front, a, a.runs, summary_path)
    after = cluster.snapshot()
    elapsed = after["t"] - before["t"]
    servers = []
    for s0, s1, names in zip(before["servers"], after["servers"], cluster.thread_names or [{}] * 99):
        s = {k: s1[k] - s0[k] for k in s0 if k != "tids"}
        s["threads"], s["blocks"] = thread_split(s0["tids"], s1["tids"], names, s["cpu_s"])
        servers.append(s)
    rides = sum(s["rides"] for s in servers)
    server_cpu = sum(s["cpu_s"] for s in servers)
    periods = sum(s["periods"] for s in servers)
    return {
        "rps": summary["throughput"], "wall_s": summary["wallSeconds"], "ok": summary["successful"],
        "failed": summary["failed"], "mean_ms": summary["latencyMs"]["mean"], "p99_ms": summary["latencyMs"]["p99"],
        "elapsed_s": elapsed, "servers_detail": servers, "rides": rides,
        "batches": sum(s["batches"] for s in servers),
        "cpu_s": {"server": server_cpu, "nginx": after["nginx"] - before["nginx"],
                  "redis": after["redis"] - before["redis"], "client": client_cpu,
                  "host": after["host"] - before["host"]},
        "d_server_us": server_cpu * 1e6 / rides if rides else float("nan"),
        "throttled": sum(s["throttled"] for s in servers) / periods if periods else None,
        "load": [before["load"], after["load"]],
    }


def main():
    started = time.monotonic()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--servers", default="1,2,4")
    ap.add_argument("-t", "--threads", type=int, default=256)
    ap.add_argument("-s", "--skiers", type=int, default=20000)
    ap.add_argument("-m", "--runs", type=int, default=10, help="-m of the measured client-part1 run")
    ap.add_argument("--warmup-runs", type=int, default=3, help="-m of each uncounted warm-up run")
    ap.add_argument("--max-warmups", type=int, default=12)
    ap.add_argument("--settle-jit", type=float, default=1.0,
                    help="warm-ups stop once the servers' JIT compiler threads use at most this many µs per ride "
                         "(default 1.0)")
    ap.add_argument("--settle", type=float, default=0.05,
                    help="warm-ups stop when two in a row differ by at most this share (default 0.05)")
    ap.add_argument("--server-cpus", type=float, default=0.25,
                    help="cap each server at this much CPU (cgroup, needs root); 0 = uncapped")
    ap.add_argument("--server-cpu-period-ms", type=int, default=10, help="the cap's quota period (default 10)")
    ap.add_argument("--wan-rtt", default=None, help="Toxiproxy between client and nginx with this round trip, e.g. 40ms")
    ap.add_argument("--wan-jitter", default="0ms", help="with --wan-rtt: the round trip varies by up to +/- this")
    ap.add_argument("--server-java-options", default="", help="extra JVM options for every server")
    ap.add_argument("--out-name", default="scale-out", help="data/<out-name>.md and .json (default scale-out)")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--from-json", help="write the report from a results.json of an earlier run; run nothing")
    a = ap.parse_args()
    counts = [int(n) for n in a.servers.split(",")]
    if a.from_json:
        with open(a.from_json) as f:
            saved = json.load(f)
        a.__dict__.update(saved["args"])
        write_report(a, saved["counts"], saved["results"], saved["meta"])
        return

    if not a.skip_build:  # package, never install: the reactor build leaves the jars in each target/
        sh(["mvn", "-B", "-q", "-DskipTests", "package"], cwd=ROOT)
    for jar in (SERVER_JAR, CLUSTER_JAR, CLIENT_JAR):
        if not os.path.exists(jar):
            raise SystemExit(f"missing {jar}: build first (mvn -B -q -DskipTests package)")

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    runs_dir = os.path.join(ROOT, "data", "runs", f"{a.out_name}-{stamp}")
    os.makedirs(runs_dir, exist_ok=True)
    meta = {"date": str(datetime.date.today()), "load_before": load_average(), "cores": os.cpu_count(),
            "platform": platform.platform(), "runs_dir": os.path.relpath(runs_dir, ROOT)}
    results = []
    for rnd in range(a.rounds):
        order = counts[rnd % len(counts):] + counts[:rnd % len(counts)]  # each count goes first once
        for n in order:
            cluster = Cluster(n, a)
            try:
                warmups = warm_up(cluster, a)
                cluster.read_thread_names()
                r = measure(cluster, a, os.path.join(runs_dir, f"r{rnd + 1}-n{n}.json"))
            finally:
                cluster.close()
            r.update(round=rnd + 1, servers=n, warmups=warmups)
            results.append(r)
            log(f"round {rnd + 1}, {n} server(s): {r['rps']:,.0f} req/s, D_server {r['d_server_us']:.1f} us/ride, "
                f"host ceiling {host_ceiling(r, meta['cores']):,.0f} req/s, host busy "
                f"{r['cpu_s']['host'] / r['elapsed_s']:.2f} cores, "
                f"{r['rides'] / max(r['batches'], 1):.1f} rides/batch, throttled "
                f"{100 * (r['throttled'] or 0):.0f}% of periods, load {r['load'][0]:.1f}-{r['load'][1]:.1f}; "
                f"server CPU us/ride by thread: {threads_per_ride(r)}")
    meta["load_after"] = load_average()
    meta["script_seconds"] = time.monotonic() - started
    with open(os.path.join(runs_dir, "results.json"), "w") as f:
        json.dump({"args": {k: v for k, v in vars(a).items() if k != "from_json"}, "counts": counts,
                   "results": results, "meta": meta}, f, indent=1)
    write_report(a, counts, results, meta)
    log(f"bench/scale_out.py took {meta['script_seconds'] / 60:.1f} min")


def per_kind(r, field="threads"):
    """The servers' CPU seconds ("threads") or blocks ("blocks") by kind of thread over run r, summed over servers."""
    total = {}
    for s in r["servers_detail"]:
        for kind, value in s.get(field, {}).items():
            total[kind] = total.get(kind, 0.0) + value
    return total


def threads_per_ride(r):
    """The servers' CPU µs and blocks per ride by kind of thread, e.g. 'exec 30.1 us 1.52 blocks, poller ...'."""
    spent, blocks = per_kind(r), per_kind(r, "blocks")
    rides = max(r["rides"], 1)
    return ", ".join(f"{k} {v * 1e6 / rides:.1f} us {blocks.get(k, 0) / rides:.2f} blocks"
                     for k, v in sorted(spent.items(), key=lambda kv: -kv[1]))


def thread_medians(rs, field="threads", scale=1e6, digits=1):
    """Per kind of thread, the servers' CPU µs per ride (or blocks per ride: field="blocks", scale=1), median of
    the runs rs."""
    kinds = {}
    for r in rs:
        for kind, value in per_kind(r, field).items():
            kinds.setdefault(kind, []).append(value * scale / max(r["rides"], 1))
    return {k: round(med(v), digits) for k, v in sorted(kinds.items())}


def med(values):
    return statistics.median(values) if values else float("nan")


GROUPS = ("server", "nginx", "redis", "client")


def host_ceiling(r, cores):
    """The most rides per second this machine's cores could carry at run r's CPU per ride, every group's
    (servers, nginx, Redis, client) together, with nothing else running: cores / (sum of µs per ride)."""
    return cores * r["rides"] / sum(r["cpu_s"][g] for g in GROUPS)


def summary(a, counts, results, cores):
    """Per server count: the numbers data/<out-name>.json publishes (see KEYS)."""
    rows = []
    for n in counts:
        rs = [r for r in results if r["servers"] == n]
        if not rs:
            continue
        rps = [r["rps"] for r in rs]
        d = med([r["d_server_us"] for r in rs])
        cap = a.server_cpus or None
        rows.append({
            "servers": n, "rounds": len(rs),
            "throughput": {"median": round(med(rps), 1), "min": round(min(rps), 1), "max": round(max(rps), 1)},
            "scaling": round(med(rps) / med([r["rps"] for r in results if r["servers"] == counts[0]]) * counts[0], 3),
            "dServerMicros": round(d, 2),
            "capCpus": cap,
            "predictedThroughput": round(n * cap / (d * 1e-6), 1) if cap else None,
            "ridesPerBatch": round(med([r["rides"] / max(r["batches"], 1) for r in rs]), 2),
            "throttledShare": round(med([r["throttled"] for r in rs]), 3) if cap else None,
            "cpuCores": {g: round(med([r["cpu_s"][g] / r["elapsed_s"] for r in rs]), 3)
                         for g in ("server", "nginx", "redis", "client", "host") if g in rs[0]["cpu_s"]},
            "cpuMicrosPerRide": {g: round(med([r["cpu_s"][g] * 1e6 / r["rides"] for r in rs]), 1)
                                 for g in ("server", "nginx", "redis", "client")},
            "serverThreadsMicrosPerRide": thread_medians(rs),
            "serverThreadBlocksPerRide": thread_medians(rs, "blocks", 1, 2),
            "hostCeiling": round(med([host_ceiling(r, cores) for r in rs]), 1),
            "loadAverage": {"min": round(min(min(r["load"]) for r in rs), 2),
                            "max": round(max(max(r["load"]) for r in rs), 2)},
        })
    return rows


KEYS = [
    ("servers", "LiftRide servers behind nginx"),
    ("rounds", "measured runs at this server count (one per round)"),
    ("throughput.median/min/max", "client-part1's throughput over the rounds, requests (= rides) per second"),
    ("scaling", "median throughput / median throughput at the first server count, times that count"),
    ("dServerMicros", "D_server: the servers' CPU per ride in µs, median of rounds (all servers' CPU seconds over the "
                      "measured run / rides they stored)"),
    ("capCpus", "each server's CPU cap (CPUs), null if uncapped"),
    ("predictedThroughput", "the capacity-per-server model: servers × capCpus / D_server, rides per second"),
    ("ridesPerBatch", "rides per group-commit batch (one Redis FCALL), median of rounds"),
    ("throttledShare", "share of the servers' quota periods in which they were throttled, median of rounds"),
    ("cpuCores.G", "cores busy in group G (server = all servers, nginx, redis, client; host = the whole machine, "
                   "other processes and the kernel included, from /proc/stat): CPU s / run wall s, median"),
    ("cpuMicrosPerRide.G", "group G's CPU µs per ride, median of rounds"),
    ("serverThreadsMicrosPerRide.K", "the servers' CPU µs per ride by kind of thread K, each thread known by its Java "
                                     "name (jcmd Thread.print): exec (Tomcat's request threads), poller and acceptor "
                                     "(Tomcat's NIO poller and acceptor), committers (the group commit), watchdog (its "
                                     "timeout watchdog), jit (the compiler threads), gc+vm (the VM thread that runs the "
                                     "serial GC), exited (threads that ended during the run), other; median of rounds"),
    ("serverThreadBlocksPerRide.K", "times a server thread of kind K blocked (voluntary context switches: parked, "
                                    "waiting for a socket or a sleep) per ride, median of rounds; each block is a "
                                    "wake-up later, the fixed cost a lightly loaded thread pays per request"),
    ("hostCeiling", "the most rides/s the machine's cores could carry at this run's CPU per ride of all four "
                    "groups together (cores / (D_server + nginx + Redis + client µs per ride)), nothing else "
                    "running; median of rounds"),
    ("loadAverage.min/max", "the 1-minute load average seen at the start and end of the measured runs"),
]


def write_report(a, counts, results, meta):
    rows = summary(a, counts, results, meta["cores"])
    cap = a.server_cpus
    doc = {"generatedBy": "python3 bench/scale_out.py", "date": meta["date"], "cores": meta["cores"],
           "client": f"client-part1 --transport raw -t {a.threads} -s {a.skiers} -m {a.runs} --baseline 0",
           "capCpus": cap or None, "quotaPeriodMs": a.server_cpu_period_ms if cap else None,
           "serverJavaOptions": a.server_java_options, "keys": dict(KEYS), "byServers": rows}
    with open(os.path.join(ROOT, "data", a.out_name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    setup = (f"each server capped at {cap} CPU in a cgroup of its own, quota period {a.server_cpu_period_ms} ms "
             f"(`--server-cpus {cap} --server-cpu-period-ms {a.server_cpu_period_ms}`); client, nginx and Redis "
             "uncapped" if cap else "servers uncapped") + (
        f"; Toxiproxy between the client and nginx (`--wan-rtt {a.wan_rtt} --wan-jitter {a.wan_jitter}`)"
        if getattr(a, "wan_rtt", None) else "")
    md = [
        f"# Scale-out with small servers: 1, 2 and 4 servers behind nginx, {cap} CPU each" if cap else
        "# Scale-out on one machine: 1, 2 and 4 servers behind nginx",
        "",
        f"Generated by `python3 bench/scale_out.py` on {meta['date']} ({meta.get('script_seconds', 0) / 60:.0f} min): "
        f"{a.rounds} rounds, server counts interleaved (each round rotates their order; every run on a fresh "
        f"cluster warmed with uncounted `-m {a.warmup_runs}` runs until the servers' JIT compiler threads used at most "
        f"{a.settle_jit} µs per ride in one and its throughput was within {100 * a.settle:.0f}% of the one before, "
        f"at most {a.max_warmups} of them); measured run client-part1 `--transport raw -t {a.threads} -s {a.skiers} -m {a.runs} "
        f"--baseline 0` through the front (`LocalCluster --servers N`: nginx round robin with kept-alive upstream "
        f"connections, N servers, one redis-server with its AOF); {setup}."
        + (f" Server JVM options: `{a.server_java_options}`." if a.server_java_options else "")
        + f" Machine: {meta['cores']} cores, {meta['platform']}; load average (1 min) "
        f"{meta['load_before']:.1f} before, {meta.get('load_after', float('nan')):.1f} after.",
        "",
        f"Machine-readable: [{a.out_name}.json]({a.out_name}.json), one object per server count in `byServers`:",
        "",
    ]
    md += [f"- `{k}`: {v}" for k, v in KEYS]
    md += [
        "",
        "| servers | throughput req/s: median (min-max) | scaling | D_server µs/ride | predicted n×cap/D_server "
        "| host ceiling | rides/batch | server µs/ride: " + ", ".join(TABLE_KINDS) + " | server blocks/ride: "
        + ", ".join(BLOCK_KINDS) + " | throttled periods | cores busy: servers, nginx, redis, client; host "
        "| load avg (min-max) |",
        "|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---|---:|",
    ]
    for row in rows:
        md.append(summary_line(row))
    md += ["", ceiling_text(rows, meta["cores"])]
    md += [
        "",
        "## Every run",
        "",
        "| round | servers | warm-ups req/s | req/s | D_server µs/ride | per server: µs/ride, rides/batch, throttled "
        "| CPU µs/ride: nginx, redis, client | load avg | failed |",
        "|---:|---:|---|---:|---:|---|---|---:|---:|",
    ]
    for r in results:
        per = "; ".join(
            f"{s['cpu_s'] * 1e6 / max(s['rides'], 1):.0f}, {s['rides'] / max(s['batches'], 1):.1f}, "
            f"{100 * s['throttled'] / max(s['periods'], 1):.0f}%" for s in r["servers_detail"])
        md.append(
            f"| {r['round']} | {r['servers']} | {', '.join(f'{w[0]:,.0f}' for w in r['warmups'])} | {r['rps']:,.0f} | "
            f"{r['d_server_us']:.1f} | {per} | "
            + ", ".join(f"{r['cpu_s'][g] * 1e6 / r['rides']:.0f}" for g in ("nginx", "redis", "client"))
            + f" | {r['load'][0]:.1f}-{r['load'][1]:.1f} | {r['failed']} |")
    md += ["", f"Raw numbers: `{meta['runs_dir']}/results.json` (git-ignored).", ""]
    if chart(a, rows):
        md[md.index("## Every run") - 1:md.index("## Every run") - 1] = [
            "", f"![Measured and predicted throughput by server count]({a.out_name}.png)"]
    out = os.path.join(ROOT, "data", a.out_name + ".md")
    kept = kept_sections(out)
    with open(out, "w") as f:
        f.write("\n".join(md) + ("\n" + kept if kept else ""))
    log("wrote " + out + " and " + os.path.join("data", a.out_name + ".json"))


TABLE_KINDS = ("exec", "poller", "committers", "watchdog", "jit", "gc+vm", "other")
BLOCK_KINDS = ("exec", "poller", "committers")


def summary_line(row):
    """One server count's row of the summary table."""
    t, c, k = row["throughput"], row["cpuCores"], row["serverThreadsMicrosPerRide"]
    other = sum(v for kind, v in k.items() if kind not in TABLE_KINDS[:-1])  # other, acceptor, exited
    kinds = ", ".join(f"{k.get(kind, 0.0):.1f}" for kind in TABLE_KINDS[:-1]) + f", {other:.1f}"
    blocks = ", ".join(f"{row.get('serverThreadBlocksPerRide', {}).get(kind, 0.0):.2f}" for kind in BLOCK_KINDS)
    host = f"; {c['host']:.2f}" if "host" in c else ""
    return (f"| {row['servers']} | {t['median']:,.0f} ({t['min']:,.0f}-{t['max']:,.0f}) | x{row['scaling']:.2f} | "
            f"{row['dServerMicros']:.1f} | "
            + (f"{row['predictedThroughput']:,.0f}" if row["predictedThroughput"] else "-")
            + f" | {row['hostCeiling']:,.0f} | {row['ridesPerBatch']:.1f} | {kinds} | {blocks} | "
            + (f"{100 * row['throttledShare']:.0f}%" if row["throttledShare"] is not None else "uncapped")
            + f" | {c['server']:.2f}, {c['nginx']:.2f}, {c['redis']:.2f}, {c['client']:.2f}{host} | "
            f"{row['loadAverage']['min']:.1f}-{row['loadAverage']['max']:.1f} |")


def ceiling_text(rows, cores):
    """What this machine allows at best: every count at the first count's CPU per ride (no growth), bounded by
    the servers' quota and by the cores that the servers, nginx, Redis and the client share."""
    first = rows[0]
    cap = first["capCpus"]
    d1 = first["dServerMicros"]
    u1 = sum(first["cpuMicrosPerRide"][g] for g in GROUPS[1:])
    t1 = first["throughput"]["median"] / first["servers"]
    parts = []
    for row in rows[1:]:
        n = row["servers"]
        quota = n * cap * 1e6 / d1 if cap else float("inf")
        host = cores * 1e6 / (d1 + u1)
        parts.append(f"{n} servers {min(quota, host):,.0f} rides/s (x{min(quota, host) / t1:.2f}; "
                     + (f"quota {quota:,.0f}, " if cap else "") + f"cores {host:,.0f})")
    return (f"**Ceiling on this machine.** Even if no group's CPU per ride grew with the server count (all at the "
            f"first row's: D_server {d1:.1f} µs, nginx + Redis + client {u1:.1f} µs), n servers could carry at most "
            f"min(n × cap / D_server, {cores} cores / (D_server + nginx + Redis + client)) rides/s, with every core "
            f"busy with these four groups alone: " + "; ".join(parts) + " (scaling against the first row's "
            "measured throughput per server). The table's `host ceiling` column is the cores' bound at each "
            "row's own CPU per ride.")


KEEP_MARKER = "<!-- written by hand: bench/scale_out.py keeps everything from this line on -->"


def kept_sections(path):
    """What follows KEEP_MARKER in the existing report (the diagnosis, written by hand), marker included."""
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        text = f.read()
    return text[text.index(KEEP_MARKER):] if KEEP_MARKER in text else ""


def chart(a, rows):
    """data/<out-name>.png: measured throughput (median, min-max) and the model's prediction; False without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib is not installed (pip install matplotlib): no chart")
        return False
    ns = [r["servers"] for r in rows]
    mid = [r["throughput"]["median"] for r in rows]
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    ax.errorbar(ns, mid, yerr=[[m - r["throughput"]["min"] for m, r in zip(mid, rows)],
                               [r["throughput"]["max"] - m for m, r in zip(mid, rows)]],
                marker="o", capsize=4, label="measured (median, min-max)")
    if all(r["predictedThroughput"] for r in rows):
        ax.plot(ns, [r["predictedThroughput"] for r in rows], "s--", label="predicted: servers x cap / D_server")
    ax.plot(ns, [mid[0] * n / ns[0] for n in ns], "k:", linewidth=1, label="linear from 1 server")
    ax.set(title=f"Scale-out, {a.server_cpus or 'uncapped'} CPU per server", xlabel="LiftRide servers",
           ylabel="rides / s", xticks=ns)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(ROOT, "data", a.out_name + ".png"), dpi=110)
    return True


if __name__ == "__main__":
    main()
