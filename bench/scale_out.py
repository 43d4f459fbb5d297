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


THREAD_CLASSES = (("C2 CompilerThre", "jit"), ("C1 CompilerThre", "jit"), ("VM Thread", "gc+vm"),
                  ("GC Thread", "gc+vm"), ("G1 ", "gc+vm"), ("liftride-group-", "committers"),
                  ("http-nio-", "tomcat"))


def thread_cpu(pid):
    """A process's CPU seconds by kind of thread (jit, gc+vm, committers, tomcat, other), from /proc/PID/task."""
    spent = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return spent
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                text = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        kind = next((k for prefix, k in THREAD_CLASSES if name.startswith(prefix)), "other")
        spent[kind] = spent.get(kind, 0.0) + (int(fields[11]) + int(fields[12])) / CLK_TCK
    return spent


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
        self.cgroups = []  # each capped server's cgroup directory
        self.front = None
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

    def snapshot(self):
        """Every counter the report differences over a run."""
        servers = []
        for pid, url, group in zip(self.pids["server"], self.server_urls, self.cgroups or [None] * 99):
            rides, batches = batch_metrics(url)
            periods, throttled = cgroup_throttling(group)
            servers.append({"cpu_s": cpu_seconds(pid), "rides": rides, "batches": batches,
                            "periods": periods, "throttled": throttled, "threads": thread_cpu(pid)})
        return {"servers": servers, "nginx": cpu_seconds(self.pids["nginx"][0]),
                "redis": cpu_seconds(self.pids["redis"][0]), "load": load_average(), "t": time.monotonic()}

    def close(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def batch_metrics(server_url):
    """(rides, batches) this server sent to Redis so far: liftride_redis_batch_rides_sum and _count."""
    with urllib.request.urlopen(server_url + "/metrics", timeout=10) as response:
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
        jit = sum(s1["threads"].get("jit", 0.0) - s0["threads"].get("jit", 0.0)
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
    servers = [{k: (s1[k] - s0[k] if k != "threads" else
                    {c: s1[k].get(c, 0.0) - s0[k].get(c, 0.0) for c in s1[k]}) for k in s0}
               for s0, s1 in zip(before["servers"], after["servers"])]
    rides = sum(s["rides"] for s in servers)
    server_cpu = sum(s["cpu_s"] for s in servers)
    periods = sum(s["periods"] for s in servers)
    return {
        "rps": summary["throughput"], "wall_s": summary["wallSeconds"], "ok": summary["successful"],
        "failed": summary["failed"], "mean_ms": summary["latencyMs"]["mean"], "p99_ms": summary["latencyMs"]["p99"],
        "elapsed_s": elapsed, "servers_detail": servers, "rides": rides,
        "batches": sum(s["batches"] for s in servers),
        "cpu_s": {"server": server_cpu, "nginx": after["nginx"] - before["nginx"],
                  "redis": after["redis"] - before["redis"], "client": client_cpu},
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
                r = measure(cluster, a, os.path.join(runs_dir, f"r{rnd + 1}-n{n}.json"))
            finally:
                cluster.close()
            r.update(round=rnd + 1, servers=n, warmups=warmups)
            results.append(r)
            log(f"round {rnd + 1}, {n} server(s): {r['rps']:,.0f} req/s, D_server {r['d_server_us']:.1f} us/ride, "
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


def threads_per_ride(r):
    """The servers' CPU µs per ride by kind of thread, e.g. 'tomcat 40, committers 8, jit 3, ...'."""
    spent = {}
    for s in r["servers_detail"]:
        for kind, seconds in s["threads"].items():
            spent[kind] = spent.get(kind, 0.0) + seconds
    return ", ".join(f"{k} {v * 1e6 / max(r['rides'], 1):.1f}" for k, v in sorted(spent.items(), key=lambda kv: -kv[1]))


def thread_medians(rs):
    """The servers' CPU µs per ride by kind of thread, median of the runs rs."""
    kinds = {}
    for r in rs:
        spent = {}
        for s in r["servers_detail"]:
            for kind, seconds in s["threads"].items():
                spent[kind] = spent.get(kind, 0.0) + seconds
        for kind, seconds in spent.items():
            kinds.setdefault(kind, []).append(seconds * 1e6 / max(r["rides"], 1))
    return {k: round(med(v), 1) for k, v in sorted(kinds.items())}


def med(values):
    return statistics.median(values) if values else float("nan")


def summary(a, counts, results):
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
                         for g in ("server", "nginx", "redis", "client")},
            "cpuMicrosPerRide": {g: round(med([r["cpu_s"][g] * 1e6 / r["rides"] for r in rs]), 1)
                                 for g in ("server", "nginx", "redis", "client")},
            "serverThreadsMicrosPerRide": thread_medians(rs),
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
    ("cpuCores.G", "cores busy in group G (server = all servers, nginx, redis, client): CPU s / run wall s, median"),
    ("cpuMicrosPerRide.G", "group G's CPU µs per ride, median of rounds"),
    ("serverThreadsMicrosPerRide.K", "the servers' CPU µs per ride by kind of thread K (tomcat: http-nio-*, committers: "
                                     "the group commit, jit: the compiler threads, gc+vm: the VM thread that runs the "
                                     "serial GC, other), median of rounds"),
    ("loadAverage.min/max", "the 1-minute load average seen at the start and end of the measured runs"),
]


def write_report(a, counts, results, meta):
    rows = summary(a, counts, results)
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
        "| rides/batch | server µs/ride: tomcat, committers, jit, gc+vm | throttled periods "
        "| cores busy: servers, nginx, redis, client | load avg (min-max) |",
        "|---:|---:|---:|---:|---:|---:|---|---:|---|---:|",
    ]
    for row in rows:
        t, c = row["throughput"], row["cpuCores"]
        md.append(
            f"| {row['servers']} | {t['median']:,.0f} ({t['min']:,.0f}-{t['max']:,.0f}) | x{row['scaling']:.2f} | "
            f"{row['dServerMicros']:.1f} | "
            + (f"{row['predictedThroughput']:,.0f}" if row["predictedThroughput"] else "-")
            + f" | {row['ridesPerBatch']:.1f} | "
            + ", ".join(f"{row['serverThreadsMicrosPerRide'].get(k, 0.0):.1f}"
                        for k in ("tomcat", "committers", "jit", "gc+vm")) + " | "
            + (f"{100 * row['throttledShare']:.0f}%" if row["throttledShare"] is not None else "uncapped")
            + f" | {c['server']:.2f}, {c['nginx']:.2f}, {c['redis']:.2f}, {c['client']:.2f} | "
            f"{row['loadAverage']['min']:.1f}-{row['loadAverage']['max']:.1f} |")
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
