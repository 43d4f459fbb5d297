#!/usr/bin/env python3
"""The open model's CPU per request beside wrk2's, on one server; not a test.

One liftride-server.jar on a free loopback port; then, one at a time on fresh processes and interleaved over
rounds (the order rotates each round), each generator sends about --requests rides at 3,000 req/s:

  wrk2     wrk -t2 -c64 -R3000 -d(requests/3000)s -s servlet/bench/post.lua (built from github.com/giltene/wrk2
           and cached in ~/.cache/liftride/wrk2, or --wrk2 PATH)
  nio      the bench module's NioFloor: one selector thread, 64 connections, the client's POST at a constant rate
           (the floor of a JVM event-loop transport)
  raw/sdk  java -jar client-part1.jar -t 64 -s (requests/9) -m 10 --rate 3000 --transport raw|sdk --verbose,
           with the client's other flags at their defaults, as a user runs it
  GEN+NAME a --variant: nio, raw or sdk with JVM options (the client's in JDK_JAVA_OPTIONS, as a user sets them)

Per run: the generator's whole-process CPU over its life (user + system from wait4's rusage: JVM start, JIT,
baseline and GC included) per request it sent, split into user and system time, by thread kind (JIT compiler,
GC, application threads, read from /proc/PID/task while it runs) and with its context switches; the server's CPU
per request meanwhile, the achieved rate, and the send lag p99 (the client's peak phase; NioFloor's whole run).
Each client generator has its own temporary user.home, so its first run finds no stored calibration and warms up
(marked in the table); later ones reuse what it stored.

Usage: python3 bench/open_cost.py [--rounds 3] [--requests 90000] [--skip-build] [--wrk2 PATH] [--out FILE]
                                  [--client-jar JAR] [--label TEXT] [--logs DIR] [--java-opt OPTION ...]
                                  [--generators wrk2,nio,raw,sdk] [--variant GEN+NAME=OPTIONS ...]
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

from benchlib import BENCH_BUILT, bench_classpath, cpu_seconds, free_port, loadavg, med_range, sh, start_server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
PART1_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
POST_LUA = os.path.join(ROOT, "servlet", "bench", "post.lua")
WRK2_CACHE = os.path.expanduser("~/.cache/liftride/wrk2")
WRK2_REPO = "https://github.com/giltene/wrk2"
RATE = 3000
LOGS = None  # --logs: a folder that keeps every generator's output
JAVA_OPTS = []  # --java-opt: JVM options for the client's runs
CDS_MARK = "@cds"  # in a --variant's options: the AppCDS archive the harness writes for it


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


# thread names (/proc's comm, 15 characters) by the part of the generator they belong to; the rest is the application
THREAD_KINDS = (("jit", ("C1 CompilerThre", "C2 CompilerThre")), ("gc", ("GC Thread", "G1 ", "VM Thread")),
                ("main", ("java",)), ("jvm", ("VM Periodic", "Service Thread", "Signal Dispatch", "Common-Cleaner",
                                              "Finalizer", "Reference Handl", "Notification Th", "Sweeper")))
KINDS = ("app", "main", "jit", "gc", "jvm")
SAMPLE_S = 0.25  # how often the threads' CPU is read while a generator runs


def thread_kind(comm):
    return next((kind for kind, prefixes in THREAD_KINDS if comm.startswith(prefixes)), "app")


def sample_threads(pid, seen):
    """Adds each live thread of pid to seen: tid -> (name, CPU ns from schedstat, voluntary and involuntary
    context switches). schedstat counts nanoseconds; stat's 10 ms ticks would lose up to 20 ms per thread."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tids:
        try:
            name = seen[tid][0] if tid in seen else open(f"/proc/{pid}/task/{tid}/comm").read().rstrip("\n")
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                cpu_ns = int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = f.read()
        except OSError:
            continue  # exited meanwhile
        switches = re.findall(r"^(?:non)?voluntary_ctxt_switches:\s+(\d+)", status, re.M)
        seen[tid] = (name, cpu_ns, int(switches[0]), int(switches[1]))


def thread_split(seen, usage):
    """CPU seconds and context switches by thread kind, from the threads' last samples; "exited" is what the
    process used (rusage) beyond them: threads' last moments after their last sample, and the exit."""
    split = {k: 0.0 for k in KINDS}
    for name, cpu_ns, _, _ in seen.values():
        split[thread_kind(name)] += cpu_ns / 1e9
    split["exited"] = usage.ru_utime + usage.ru_stime - sum(split.values())
    app = [v for v in seen.values() if thread_kind(v[0]) in ("app", "main")]
    split["app_vcsw"] = sum(v[2] for v in app)
    split["app_nvcsw"] = sum(v[3] for v in app)
    split["threads"] = len(seen)
    return split


def run_measured(cmd, server_pid, timeout, env=None):
    """Runs cmd to its end; its output, rusage CPU seconds (all threads, whole life) and the server's CPU meanwhile,
    the load average before, and the CPU's split (user, system, switches, by thread kind) in a dict."""
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    load = loadavg()
    server0 = cpu_seconds(server_pid)
    seen = {}
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.time() + timeout
        next_sample = time.time()
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.time() > deadline:
                p.kill()
                raise SystemExit(f"timed out after {timeout} s: {' '.join(cmd)}")
            if time.time() >= next_sample:
                sample_threads(p.pid, seen)
                next_sample += SAMPLE_S
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if LOGS:
        with open(os.path.join(LOGS, f"{time.time():.0f}-{os.path.basename(cmd[0])}.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n" + text)
    if p.returncode != 0:
        raise SystemExit(f"exit {p.returncode}: {' '.join(cmd)}\n{text}")
    split = {"user_s": usage.ru_utime, "sys_s": usage.ru_stime, "vcsw": usage.ru_nvcsw, "nvcsw": usage.ru_nivcsw,
             **thread_split(seen, usage)}
    return text, usage.ru_utime + usage.ru_stime, cpu_seconds(server_pid) - server0, load, split


def run_wrk2(wrk2, base, requests, server_pid):
    seconds = max(1, round(requests / RATE))
    cmd = [wrk2, "-t2", "-c64", f"-d{seconds}s", f"-R{RATE}", "-s", POST_LUA, base]
    out, cpu, server_cpu, load, split = run_measured(cmd, server_pid, seconds + 60)
    sent = int(re.search(r"^\s*(\d+) requests in", out, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"gen": "wrk2", "requests": sent, "cpu_s": cpu, "server_cpu_s": server_cpu, "load": load,
            "rps": float(re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M).group(1)),
            "failed": int(non2xx.group(1)) if non2xx else 0, "lag_p99_ms": float("nan"), "warmed": False, **split}


def run_nio(gen, base, requests, server_pid, java_opts):
    """The bench module's NioFloor: one selector thread, 64 connections, the client's POST at the rate."""
    cmd = ["java", *java_opts, "-cp", bench_classpath(), "io.upic.liftride.bench.NioFloor", base, str(RATE), "64",
           str(requests)]
    out, cpu, server_cpu, load, split = run_measured(cmd, server_pid, requests / RATE + 120)
    m = re.search(r"^nio floor: (\d+) ok, (\d+) failed, wall ([\d.]+) s, ([\d.]+) req/s", out, re.M)
    lag = re.search(r"^send lag ms: p50 [\d.]+ p99 ([\d.]+)", out, re.M)
    if not m or not lag:
        raise SystemExit("no counts in NioFloor's output:\n" + out)
    ok, failed = int(m.group(1)), int(m.group(2))
    return {"gen": gen, "requests": ok + failed, "cpu_s": cpu, "server_cpu_s": server_cpu, "load": load,
            "rps": float(m.group(4)), "failed": failed, "lag_p99_ms": float(lag.group(1)), "warmed": False, **split}


def num(s):
    return float(s.replace(",", ""))


def run_client(gen, jar, transport, base, requests, server_pid, home, java_opts):
    """client-part1 with JVM options in JDK_JAVA_OPTIONS, where a user would put them."""
    skiers = max(64, round(requests / 9))  # -m 10: 0.9 x 10 requests per skier
    cmd = ["java", f"-Duser.home={home}", "-jar", jar, "-t", "64", "-s", str(skiers), "-m", "10",
           "--rate", str(RATE), "-i", base, "--transport", transport, "--verbose"]
    env = dict(os.environ, JDK_JAVA_OPTIONS=" ".join(java_opts)) if java_opts else None
    out, cpu, server_cpu, load, split = run_measured(cmd, server_pid, 900, env)
    m = re.search(r"^\s+requests\s+([\d,]+) successful, ([\d,]+) failed, ([\d,]+) retries; "
                  r"wall ([\d.]+) s, ([\d,.]+) req/s", out, re.M)
    if not m:
        raise SystemExit("no counts in the client's output:\n" + out)
    # the open-model table's peak row: offered, achieved, ratio, lag mean, lag p99, lag max, late sends
    peak = re.search(r"^\s+peak\s+\d+\s+([\d,.]+)\s+([\d,.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d,]+)\s*$",
                     out, re.M)
    ok, failed = int(num(m.group(1))), int(num(m.group(2)))
    return {"gen": gen, "requests": ok + failed, "cpu_s": cpu, "server_cpu_s": server_cpu, "load": load,
            "rps": num(m.group(5)), "failed": failed, "peak_rps": num(peak.group(2)) if peak else float("nan"),
            "lag_p99_ms": float(peak.group(5)) if peak else float("nan"),
            "warmed": "Warming up" in out, **split}


def run_gen(gen, opts, a, base, requests, server_pid, tmp):
    """One run of generator gen (wrk2, or nio/raw/sdk and a variant's name after a +) with its JVM options."""
    kind = gen.split("+")[0]
    if kind == "wrk2":
        return run_wrk2(a.wrk2_path, base, requests, server_pid)
    if kind == "nio":
        return run_nio(gen, base, requests, server_pid, opts)
    home = os.path.join(tmp, gen)  # each generator's own stored calibration: its first run warms up
    os.makedirs(home, exist_ok=True)
    return run_client(gen, a.client_jar, kind, base, requests, server_pid, home, JAVA_OPTS + opts)


def prepare(gen, opts, a, base, server_pid, tmp):
    """A variant's options, with CDS_MARK replaced by an AppCDS archive that a discarded run writes at its exit."""
    if not any(CDS_MARK in o for o in opts):
        return opts
    archive = os.path.join(tmp, gen.replace("+", "-") + ".jsa")
    training = [o for o in opts if CDS_MARK not in o] + [f"-XX:ArchiveClassesAtExit={archive}"]
    run_gen(gen + "-training", training, a, base, a.requests // 3, server_pid, tmp)  # its own stored calibration
    return [o.replace(CDS_MARK, archive) for o in opts]


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
    ap.add_argument("--generators", default="wrk2,nio,raw,sdk", help="which of wrk2, nio, raw, sdk run (comma list)")
    ap.add_argument("--variant", action="append", default=[], metavar="GEN+NAME=OPTIONS",
                    help="one more generator: nio, raw or sdk with JVM options (space-separated; the client's through"
                         f" JDK_JAVA_OPTIONS); {CDS_MARK} in them stands for an AppCDS archive a discarded run of"
                         " that generator writes first (-XX:ArchiveClassesAtExit)")
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
        sh(["mvn", "-B", "-q", "-o", "-DskipTests", "-pl", "client-part1,servlet,bench", "-am", "package"], cwd=ROOT)
    for jar in (SERVER_JAR, a.client_jar, BENCH_BUILT):
        if not os.path.exists(jar):
            raise SystemExit(f"missing {jar}: build first (mvn -DskipTests -pl client-part1 -am package)")
    a.wrk2_path = wrk2_binary(a.wrk2)
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    port = free_port()
    base = f"http://127.0.0.1:{port}/liftride"
    runs = []
    server = start_server(SERVER_JAR, port)
    try:
        # the server's JIT warms on a discarded wrk2 run, so no generator pays for the server's compilation
        run_wrk2(a.wrk2_path, base, a.requests // 3, server.pid)
        with tempfile.TemporaryDirectory() as tmp:
            gens = {g: [] for g in a.generators.split(",")}
            for v in a.variant:
                name, opts = v.split("=", 1)
                gens[name] = prepare(name, opts.split(), a, base, server.pid, tmp)
            order = list(gens)
            for i in range(a.rounds):
                for g in order[i % len(order):] + order[:i % len(order)]:
                    r = run_gen(g, gens[g], a, base, a.requests, server.pid, tmp)
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


def split_table(runs, gens):
    """Where each generator's CPU goes: medians over its runs, per request."""
    if not all("user_s" in r for r in runs):
        return []
    L = ["\nWhere the CPU goes, medians over the rounds in µs per request: *user* and *system* from rusage; by thread"
         " (/proc/PID/task/*/schedstat, read every 0.25 s): *app* the generator's own threads (wrk2: all of its),"
         " *main* the launcher's `java` threads (NioFloor's loop runs there), *JIT* the C1/C2 compiler threads,"
         " *GC* the G1/GC threads and the VM thread (safepoints; the serial collector runs there), *JVM* its other"
         " threads, *exited* what threads used after their last reading (workers that ended, the exit). Switches:"
         " the process's voluntary and involuntary context switches per request.\n"]
    L.append("| generator | user | system | system share | app | main | JIT | GC | JVM | exited"
             " | voluntary switches | involuntary switches | threads |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g in gens:
        rs = [r for r in runs if r["gen"] == g]

        def med(key, scale=1e6):
            return statistics.median(r[key] * scale / r["requests"] for r in rs)
        share = statistics.median(r["sys_s"] / (r["user_s"] + r["sys_s"]) for r in rs)
        L.append(f"| {g} | {med('user_s'):.1f} | {med('sys_s'):.1f} | {share:.0%} | "
                 + " | ".join(f"{med(k):.1f}" for k in ("app", "main", "jit", "gc", "jvm", "exited"))
                 + f" | {med('vcsw', 1):.2f} | {med('nvcsw', 1):.2f}"
                 f" | {statistics.median(r['threads'] for r in rs):.0f} |")
    return L


def write(a, started, runs):
    L = ["# The open model's CPU per request beside wrk2's\n"]
    opts = "".join(f" --java-opt={o}" for o in a.java_opt)
    opts += f" --generators {a.generators}" if a.generators != "wrk2,nio,raw,sdk" else ""
    opts += "".join(f" --variant '{v}'" for v in a.variant)
    L.append(f"`python3 bench/open_cost.py --rounds {a.rounds} --requests {a.requests}{opts}` on {started},"
             f" {platform.node()} ({os.cpu_count()} cores, shared with other work: the load average is beside"
             f" every run){' - ' + a.label if a.label else ''}.\n")
    L.append("One `liftride-server.jar` (in memory) on loopback. Each generator sends about"
             f" {a.requests:,} rides at {RATE:,} req/s on a fresh process, one at a time, the order rotating each"
             " round: wrk2 `-t2 -c64 -R3000`; *nio*, the bench module's `NioFloor` (one selector thread, 64"
             " keep-alive connections, the client's POST due at a constant rate, `OP_READ` always registered);"
             " client-part1 `-t 64 --rate 3000 -m 10` with `--transport raw` and with the generated SDK (other flags"
             " at their defaults); *GEN+NAME*, a generator with JVM options (the client's in `JDK_JAVA_OPTIONS`;"
             " `@cds` is an AppCDS archive a discarded run of that generator wrote with"
             " `-XX:ArchiveClassesAtExit`). *CPU* = the generator's whole-process user +"
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
    gens = list(dict.fromkeys(r["gen"] for r in runs))
    for g in gens:
        rs = [r for r in runs if r["gen"] == g]
        cpu = [per_request_us(r, "cpu_s") for r in rs]
        ratio = statistics.median(cpu) / statistics.median(valid) if valid else float("nan")
        lags = [r["lag_p99_ms"] for r in rs if r["lag_p99_ms"] == r["lag_p99_ms"]]
        L.append(f"| {g} | {med_range(cpu, '{:.1f}')} | {ratio:.2f}"
                 f" | {med_range([per_request_us(r, 'server_cpu_s') for r in rs], '{:.1f}')}"
                 f" | {med_range(lags) if lags else ''} |")
    L += split_table(runs, gens)
    L.append("")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))
    print("wrote " + a.out, file=sys.stderr)


if __name__ == "__main__":
    main()
