#!/usr/bin/env python3
"""Scale-out on one machine: client-part2 against 1, 2 and 4 LiftRide servers behind nginx (issue 10).

Each run starts a fresh local cluster (`LocalCluster`: redis-server with its AOF, N servers sharing it,
nginx round robin in front, all on loopback), runs the same client-part2 plan through the front, reads
the client's throughput and latency, and samples the CPU every process used during the run. The
server counts are interleaved (each round rotates their order) and repeated, because this 2-core
machine is noisy; the report gives every run, the medians with min-max, and the scaling factor
(throughput with N servers / throughput with 1 server, per round and per transport).

Usage: python3 bench/scale_out.py [--rounds 3] [--servers 1,2,4] [--transports raw,sdk]
                                  [-t 64 -s 20000 -m 10] [--skip-build] [--from-json RESULTS]
                                  [--server-cpus 0.25 [--server-cpu-period-ms 10]] [--wan-rtt 40ms [--wan-jitter 5ms]]

--server-cpus caps each server JVM at that much CPU in a cgroup of its own (like a small instance; needs
root), so the servers, not the shared cores, are the bottleneck; the report then gives how often the
servers' quota was hit (throttled periods). --wan-rtt puts Toxiproxy between the client and nginx.
Writes data/scale-out.md and data/scale-out.png; every run's client-part2 output (CSV, report.md,
charts) and every measured number (results.json; --from-json rewrites the report from it) go to
data/runs/scale-out-<timestamp>/ (git-ignored). Needs matplotlib for the chart
(pip install matplotlib); redis-server and nginx are installed by the cluster when missing.
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
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
CLIENT_JAR = os.path.join(ROOT, "client-part2", "target", "client-part2.jar")
WARMUP_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
CLUSTER_JAR = os.path.join(ROOT, "cluster", "target", "liftride-cluster.jar")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def cpu_seconds(pid):
    """user+sys CPU seconds of a live process (all its threads), from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return 0.0


class Cluster:
    """`java -jar liftride-cluster.jar --servers N --port 0 --server-jar liftride-server.jar`, stopped with SIGTERM."""

    def __init__(self, servers, a):
        self.proc = subprocess.Popen(
            ["java", "-Xmx128m", "-jar", CLUSTER_JAR, "--servers", str(servers), "--port", "0",
             "--server-jar", SERVER_JAR] + cluster_flags(a),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.pids = {}  # group name (redis, server, nginx, wan) -> [pid]
        self.cgroups = []  # each capped server's cgroup directory
        self.front = None
        banner = []
        deadline = time.time() + 180
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            banner.append(line.rstrip())
            m = re.match(r"\s+(redis|server\d+|nginx|wan)\s+\S+\s+pid (\d+)", line)
            if m:
                group = "server" if m.group(1).startswith("server") else m.group(1)
                self.pids.setdefault(group, []).append(int(m.group(2)))
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

    def cpu(self):
        return {g: sum(cpu_seconds(p) for p in pids) for g, pids in self.pids.items()}

    def throttling(self):
        """(periods, throttled periods) summed over the servers' cgroups, from each cpu.stat."""
        periods = throttled = 0
        for group in self.cgroups:
            with open(os.path.join(group, "cpu.stat")) as f:
                stat = dict(line.split() for line in f if len(line.split()) == 2)
            periods += int(stat.get("nr_periods", 0))
            throttled += int(stat.get("nr_throttled", 0))
        return periods, throttled

    def close(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def cluster_flags(a):
    """The launcher flags for --server-cpus and --wan-rtt, passed through as given."""
    flags = []
    if a.server_cpus:
        flags += ["--server-cpus", str(a.server_cpus), "--server-cpu-period-ms", str(a.server_cpu_period_ms)]
    if a.wan_rtt:
        flags += ["--wan-rtt", a.wan_rtt, "--wan-jitter", a.wan_jitter]
    return flags


def warm_up(front, a):
    """An uncounted client-part1 run, so the servers' JIT, nginx and Redis are warm before the clock."""
    sh(["java", "-jar", WARMUP_JAR, "-t", str(a.threads), "-s", str(a.skiers), "-m", str(a.warmup_runs),
        "--baseline", "0", "--transport", "raw", "-i", front], stdout=subprocess.DEVNULL)


def run_client(front, transport, a, out_dir, cluster):
    """One client-part2 run through the front; its figures, and the CPU every process used meanwhile."""
    cmd = ["java", "-jar", CLIENT_JAR, "-t", str(a.threads), "-s", str(a.skiers), "-m", str(a.runs),
           "--baseline", str(a.baseline), "--transport", transport, "-i", front, "--out", out_dir]
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    cluster_before = cluster.cpu()
    throttling_before = cluster.throttling()
    started = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client_cpu = 0.0
    lines = []
    for line in p.stdout:  # the last CPU sample before it exits is what it used
        lines.append(line)
        client_cpu = cpu_seconds(p.pid) or client_cpu
    p.wait()
    elapsed = time.monotonic() - started
    cluster_after = cluster.cpu()
    periods, throttled = (after - before for after, before in zip(cluster.throttling(), throttling_before))
    out = "".join(lines)
    if p.returncode != 0:
        raise SystemExit(f"client-part2 exited {p.returncode}:\n{out}")

    def number(pattern):
        m = re.search(pattern, out, re.M)
        if not m:
            raise SystemExit(f"no match for {pattern!r} in client output:\n{out}")
        return float(m.group(1).replace(",", ""))

    # the whole run's row of the latency table: count, mean, median, p90, p95, p99 (ms)
    row = re.search(r"^\s+run\s+all\s+([\d,]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", out, re.M)
    if not row:
        raise SystemExit("no statistics row for the run in client output:\n" + out)
    return {
        "rps": number(r"^\s*throughput\s+([\d,.]+) req/s"),
        "wall_s": number(r"^\s*wall time\s+([\d.]+) s"),
        "ok": int(number(r"^\s*successful requests\s+([\d,]+)")),
        "failed": int(number(r"^\s*failed requests\s+([\d,]+)")),
        "mean_ms": float(row.group(2)), "p50_ms": float(row.group(3)), "p99_ms": float(row.group(6)),
        "reconciled": bool(re.search(r"delta [\d,]+ == successful [\d,]+: OK", out)),
        # CPU seconds of every process over the client's whole invocation (start-up, baseline, run, report)
        "cpu": dict({g: cluster_after[g] - cluster_before.get(g, 0.0) for g in cluster_after}, client=client_cpu),
        "elapsed_s": elapsed,
        # share of the capped servers' quota periods in which they were throttled (None: uncapped)
        "throttled": throttled / periods if cluster.cgroups and periods else None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--servers", default="1,2,4")
    ap.add_argument("--transports", default="raw,sdk")
    ap.add_argument("-t", "--threads", type=int, default=64)
    ap.add_argument("-s", "--skiers", type=int, default=20000)
    ap.add_argument("-m", "--runs", type=int, default=10)
    ap.add_argument("--baseline", type=int, default=2000,
                    help="client warm-up/baseline requests before each run (not in the measured run)")
    ap.add_argument("--warmup-runs", type=int, default=2,
                    help="-m of the uncounted client-part1 run that warms each fresh cluster")
    ap.add_argument("--server-cpus", type=float, default=None,
                    help="cap each server at this much CPU (cgroup, needs root), e.g. 0.25; default uncapped")
    ap.add_argument("--server-cpu-period-ms", type=int, default=10, help="the cap's quota period (default 10)")
    ap.add_argument("--wan-rtt", default=None, help="Toxiproxy between client and nginx with this round trip, e.g. 40ms")
    ap.add_argument("--wan-jitter", default="0ms", help="with --wan-rtt: the round trip varies by up to +/- this")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--from-json", help="write the report from a results.json of an earlier run; run nothing")
    a = ap.parse_args()
    counts = [int(n) for n in a.servers.split(",")]
    transports = a.transports.split(",")
    if a.from_json:
        with open(a.from_json) as f:
            saved = json.load(f)
        a.__dict__.update(saved["args"])
        write_report(a, saved["counts"], saved["transports"], saved["results"], saved["load_before"],
                     saved["load_after"], os.path.dirname(os.path.abspath(a.from_json)))
        return

    if not a.skip_build:  # package, never install: the reactor build leaves the jars in each target/
        sh(["mvn", "-B", "-q", "-DskipTests", "package"], cwd=ROOT)
    for jar in (SERVER_JAR, CLUSTER_JAR, CLIENT_JAR, WARMUP_JAR):
        if not os.path.exists(jar):
            raise SystemExit(f"missing {jar}: build first (mvn -B -q -DskipTests package)")

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    runs_dir = os.path.join(ROOT, "data", "runs", "scale-out-" + stamp)
    load_before = os.getloadavg()
    results = []  # dicts: round, servers, transport, figures, cpu by group
    for rnd in range(a.rounds):
        order = counts[rnd % len(counts):] + counts[:rnd % len(counts)]  # each count goes first once
        for n in order:
            cluster = Cluster(n, a)
            try:
                warm_up(cluster.front, a)
                for transport in (transports if rnd % 2 == 0 else transports[::-1]):
                    r = run_client(cluster.front, transport, a,
                                   os.path.join(runs_dir, f"r{rnd + 1}-n{n}-{transport}"), cluster)
                    r.update(round=rnd + 1, servers=n, transport=transport)
                    results.append(r)
                    print(f"round {rnd + 1}, {n} server(s), {transport}: {r['rps']:,.0f} req/s, "
                          f"mean {r['mean_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms", file=sys.stderr, flush=True)
            finally:
                cluster.close()
    load_after = os.getloadavg()
    with open(os.path.join(runs_dir, "results.json"), "w") as f:
        json.dump({"args": {k: v for k, v in vars(a).items() if k != "from_json"}, "counts": counts,
                   "transports": transports, "results": results, "load_before": load_before,
                   "load_after": load_after}, f, indent=1)
    write_report(a, counts, transports, results, load_before, load_after, runs_dir)


def med(values):
    return statistics.median(values) if values else float("nan")


def setup_line(a):
    """What stood between the client and the servers' CPU: the cap and the network, or neither."""
    cap = (f"Each server capped at {a.server_cpus} CPU in a cgroup of its own (`--server-cpus {a.server_cpus} "
           f"--server-cpu-period-ms {a.server_cpu_period_ms}`); client, nginx and Redis uncapped."
           if getattr(a, "server_cpus", None) else "Servers uncapped: every process shares the machine's cores.")
    wan = (f" Toxiproxy between the client and nginx: `--wan-rtt {a.wan_rtt} --wan-jitter {a.wan_jitter}`."
           if getattr(a, "wan_rtt", None) else " Client to nginx over plain loopback.")
    return cap + wan


def throttled(rs):
    shares = [r["throttled"] for r in rs if r.get("throttled") is not None]
    return f"{100 * med(shares):.0f}%" if shares else "uncapped"


def capped_section(a, factors, busy, growth, lo, hi):
    """The discussion when every server had a CPU cap: the servers, not the machine, should be the bottleneck."""
    return [
        "",
        f"## Capped servers: {a.server_cpus} CPU each",
        "",
        f"Measured, throughput relative to {lo} server: {factors}. {busy}",
        "",
        f"Each server may use {a.server_cpus} CPU per {a.server_cpu_period_ms} ms period, like a small instance, "
        "so N servers bring N times the server CPU while the client, nginx and Redis share the rest of the "
        "cores. While the servers' quota is what is hit (the throttled column) and the cores are not saturated, "
        "throughput should grow nearly linearly with N (issue 20's target at 0.25 CPU: x1.8 or more at 2 "
        "servers, x3.2 or more at 4). Where it grows less, the CPU per request shows what costs more with more "
        f"servers, {lo} -> {hi}: {growth}.",
    ]


def write_report(a, counts, transports, results, load_before, load_after, runs_dir):
    def pick(n, t):
        return [r for r in results if r["servers"] == n and r["transport"] == t]

    def scaling(n, t):
        """Per round: throughput with n servers / with 1 server, same transport and round."""
        ratios = []
        for r in pick(n, t):
            base = [b for b in pick(counts[0], t) if b["round"] == r["round"]]
            if base:
                ratios.append(r["rps"] / base[0]["rps"])
        return ratios

    md = [
        "# Scale-out on one machine: 1, 2 and 4 servers behind nginx",
        "",
        f"Generated by `python3 bench/scale_out.py` on {datetime.date.today()}: {a.rounds} rounds, server counts "
        f"interleaved (each round rotates their order; every run on a fresh cluster); client-part2 "
        f"`-t {a.threads} -s {a.skiers} -m {a.runs} --baseline {a.baseline}` through the front "
        f"(`LocalCluster --servers N`: nginx round robin with kept-alive upstream connections, N servers, one "
        f"redis-server with its AOF, `appendfsync everysec`). Machine: {os.cpu_count()} cores, "
        f"{platform.platform()}; load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after.",
        "",
        setup_line(a),
        "",
        "| servers | transport | throughput, req/s: median (min-max) | scaling vs 1 server: median of rounds (min-max) "
        "| mean latency ms (median) | p99 ms (median) | every request 201, count reconciled "
        "| servers' quota periods throttled (median) |",
        "|---:|---|---:|---:|---:|---:|---|---:|",
    ]
    for t in transports:
        for n in counts:
            rs = pick(n, t)
            if not rs:
                continue
            rps = [r["rps"] for r in rs]
            sc = scaling(n, t)
            md.append(
                f"| {n} | {t} | {med(rps):,.0f} ({min(rps):,.0f}-{max(rps):,.0f}) | "
                f"{med(sc):.2f} ({min(sc):.2f}-{max(sc):.2f}) | {med([r['mean_ms'] for r in rs]):.2f} | "
                f"{med([r['p99_ms'] for r in rs]):.2f} | "
                f"{'yes' if all(r['failed'] == 0 and r['reconciled'] for r in rs) else 'NO'} | {throttled(rs)} |")
    md += [
        "",
        "![Throughput and scaling factor by server count](scale-out.png)",
        "",
        "## Where the CPU went",
        "",
        "CPU every group of processes used over the client's whole invocation (start-up, baseline and report "
        "included), as cores busy (CPU seconds / wall seconds of the invocation) and as CPU µs per request "
        "(CPU seconds / requests sent, baseline included); medians of the rounds. The machine has "
        + str(os.cpu_count()) + " cores, shared with whatever else ran (load average above).",
        "",
        "| servers | transport | cores busy: client | servers (all) | nginx | redis | total "
        "| µs per request: client | servers | nginx | redis | total |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    groups = ["client", "server", "nginx", "redis"]
    totals, per_request = [], {}
    for t in transports:
        for n in counts:
            rs = pick(n, t)
            if not rs:
                continue
            cores = [med([r["cpu"].get(g, 0.0) / r["elapsed_s"] for r in rs]) for g in groups]
            micros = [med([r["cpu"].get(g, 0.0) * 1e6 / (r["ok"] + 2 * a.baseline) for r in rs]) for g in groups]
            per_request[(n, t)] = dict(zip(groups, micros))
            totals.append(sum(cores))
            md.append(f"| {n} | {t} | " + " | ".join(f"{c:.2f}" for c in cores) + f" | {sum(cores):.2f} | "
                      + " | ".join(f"{m:.0f}" for m in micros) + f" | {sum(micros):.0f} |")
    factors = "; ".join(
        f"`--transport {t}`: " + ", ".join(f"{n} servers x{med(scaling(n, t)):.2f}" for n in counts[1:] if pick(n, t))
        for t in transports)
    lo, hi = counts[0], counts[-1]
    growth = "; ".join(
        f"{t}: {sum(per_request[(lo, t)].values()):.0f} -> {sum(per_request[(hi, t)].values()):.0f} µs in all, "
        f"servers {per_request[(lo, t)]['server']:.0f} -> {per_request[(hi, t)]['server']:.0f}, "
        f"Redis {per_request[(lo, t)]['redis']:.0f} -> {per_request[(hi, t)]['redis']:.0f}"
        for t in transports if (lo, t) in per_request and (hi, t) in per_request)
    busy = (f"Our processes kept {min(totals):.2f}-{max(totals):.2f} of the {os.cpu_count()} cores busy"
            + ("; the rest went to other work on the machine (see the load average), which makes every figure "
               "noisier." if max(totals) < 0.9 * os.cpu_count() else ": the cores were saturated throughout."))
    md += capped_section(a, factors, busy, growth, lo, hi) if getattr(a, "server_cpus", None) else [
        "",
        "## Why more servers do not help here, and what to expect on separate machines",
        "",
        f"Measured, throughput relative to {lo} server: {factors}. {busy}",
        "",
        "On this machine every process shares the same two cores: the load client, nginx, Redis and every "
        "LiftRide server. A second or fourth server adds no CPU, so throughput, bounded by cores / (CPU per "
        "request of client + nginx + server + Redis), cannot rise: the factor can only stay at 1 or fall below "
        "it. It falls by what the extra servers cost: each is a JVM with its own JIT compiler, garbage "
        "collector and Tomcat threads competing for the same cores (more context switches, colder caches), "
        f"and each server's group commit sees only 1/N of the rides, so its batches to Redis are smaller. The "
        f"CPU per request shows it, {lo} -> {hi} servers: {growth}.",
        "",
        "On separate machines (the EC2 setup in the README: a client instance, an Application Load Balancer, "
        "N Tomcat instances, one Redis) each server brings its own cores, so while the servers are the "
        "bottleneck throughput grows nearly linearly with N. It stops growing at the next shared resource: "
        "the client (Little's law: throughput = requests in flight / latency, so more servers only help while "
        "the client keeps enough requests in flight, and its own CPU), the load balancer, or Redis. Redis runs "
        "commands on one thread, but the servers send rides in batches (one function call per batch), so one "
        "Redis carries several servers before it saturates; past that, Redis Cluster spreads resorts and "
        "seasons over shards (every key of a ride carries the hash tag `{lr:RESORT:SEASON}`).",
    ]
    md += [
        "",
        "## Every run",
        "",
        "| round | servers | transport | req/s | wall s | mean ms | p50 ms | p99 ms | successful | failed | reconciled |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        md.append(f"| {r['round']} | {r['servers']} | {r['transport']} | {r['rps']:,.0f} | {r['wall_s']:.2f} | "
                  f"{r['mean_ms']:.2f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['ok']:,} | {r['failed']:,} | "
                  f"{'OK' if r['reconciled'] else 'NO'} |")
    md += ["", f"Raw client-part2 outputs: `{os.path.relpath(runs_dir, ROOT)}/` (git-ignored).", ""]
    out = os.path.join(ROOT, "data", "scale-out.md")
    with open(out, "w") as f:
        f.write("\n".join(md))
    print("wrote " + out, file=sys.stderr)
    chart(counts, transports, pick, scaling)


def chart(counts, transports, pick, scaling):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install matplotlib): no chart", file=sys.stderr)
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for t in transports:
        ns = [n for n in counts if pick(n, t)]
        rps = [[r["rps"] for r in pick(n, t)] for n in ns]
        mid = [med(v) for v in rps]
        left.errorbar(ns, mid, yerr=[[m - min(v) for m, v in zip(mid, rps)], [max(v) - m for m, v in zip(mid, rps)]],
                      marker="o", capsize=4, label=f"--transport {t}")
        sc = [scaling(n, t) for n in ns]
        right.errorbar(ns, [med(v) for v in sc],
                       yerr=[[med(v) - min(v) for v in sc], [max(v) - med(v) for v in sc]],
                       marker="o", capsize=4, label=f"--transport {t}")
    right.plot(counts, [n / counts[0] for n in counts], "k--", linewidth=1, label="linear (separate machines, ideal)")
    left.set(title="Throughput through nginx (median, min-max)", xlabel="LiftRide servers", ylabel="requests / s",
             xticks=counts)
    left.set_ylim(bottom=0)
    right.set(title="Scaling factor vs 1 server (same machine)", xlabel="LiftRide servers",
              ylabel="throughput / throughput with 1 server", xticks=counts)
    right.set_ylim(bottom=0)
    for ax in (left, right):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    out = os.path.join(ROOT, "data", "scale-out.png")
    fig.savefig(out, dpi=110)
    print("wrote " + out, file=sys.stderr)


if __name__ == "__main__":
    main()
