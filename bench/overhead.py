#!/usr/bin/env python3
"""client-part2's performance bar (issue 4), measured: overhead, memory and report time.

  0. Cost in isolation: RecorderCostBenchmark, a single-thread JMH benchmark (module bench/, run from
     bench/target/test-classes) of the worker-side recorder and the writer's per-row work (ns per
     attempt or row), with no network and no server.
  1. Overhead: client-part1 and client-part2 run the same plan (default -t 64 -s 20000 -m 10)
     against ONE server started once in its own JVM (servlet/target/liftride-server.jar --port 0).
     First --warmup-rounds of each (default 1) that are not counted: a fresh server's JIT makes its
     first runs slow. Then --rounds (default 11) interleaved (p1 p2, then p2 p1, ...). Compared: the
     "wall time" both print (Phase 1 start to last thread end, the assignment's figure): medians and
     min-max, and the paired difference within each round (less sensitive to the machine's drift);
     plus the client processes' CPU seconds and client-part2's writer-thread CPU.
  2. Memory: client-part2 with -Xmx256m on the big plan (default -t 256 -s 100000 -m 20, 1.8M
     requests) and on the 180,000-request plan (-t 256 -s 20000 -m 10), peak RSS from
     /usr/bin/time -v (falls back to wait4's rusage). Bar: the big run completes, and its peak RSS
     is within 20% of the small run's.
  3. Report time: what client-part2 prints for the big run ("Statistics, charts and files generated
     in X s"): merging the histograms, the three charts, the histogram log and report.md. Bar: < 3 s.

Writes a Markdown report (default data/part2-bench.md; its first line is a title that
bench/bench.py strips when it includes the file). Raw client output goes to data/runs/part2-bench/
(git-ignored). Run from anywhere; needs the four jars built:
  mvn -B -q -DskipTests install   (servlet, client-part1, client-part2, bench)

Reduced run that proves the script works without loading the machine for long:
  bench/overhead.sh --quick --md data/runs/part2-bench-quick.md
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

from benchlib import BENCH_BUILT, bench_classpath, run_counts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
PART1_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
PART2_JAR = os.path.join(ROOT, "client-part2", "target", "client-part2.jar")
COST_BENCHMARK = "RecorderCostBenchmark"
# JMH method -> what it measures, in the order shown; the total adds the last three
COST_ROWS = [
    ("workerRecorderOfClientPart1", "worker: client-part1 recorder (NONE)", "attempt"),
    ("workerRecorderOfClientPart2", "worker: client-part2 WorkerRecorder", "attempt"),
    ("writerTimeBuckets", "writer: time buckets (100 ms)", "row"),
    ("writerCsvFormatting", "writer: CSV formatting", "row"),
]
RAW_DIR = os.path.join(ROOT, "data", "runs", "part2-bench")
TIME_V = "/usr/bin/time"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Server:
    """The LiftRide server in its own JVM on a free loopback port; its URL is read from its first lines."""

    def __init__(self, heap):
        cmd = ["java", f"-Xms{heap}", f"-Xmx{heap}", "-jar", SERVER_JAR, "--host", "127.0.0.1", "--port", "0"]
        log("+ " + " ".join(cmd))
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 90
        self.url = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"(https?://[^\s]+/liftride)", line)
            if m:
                self.url = m.group(1).replace("0.0.0.0", "127.0.0.1")
                break
        if not self.url:
            self.proc.kill()
            raise SystemExit("the server did not print its URL within 90 s")
        # keep draining its output so a chatty server never blocks on a full pipe
        import threading
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()
        log(f"server at {self.url}")

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def run_client(name, cmd, log_path, timeout):
    """Runs one client to completion; returns (stdout text, rusage, exit code, elapsed seconds, time -v text)."""
    log("+ " + " ".join(cmd))
    use_time = os.path.exists(TIME_V)
    time_file = log_path + ".time"
    full = ([TIME_V, "-v", "-o", time_file] if use_time else []) + cmd
    t0 = time.monotonic()
    with open(log_path, "w") as out:
        p = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, rusage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, rusage = os.wait4(p.pid, 0)
                log(f"{name}: killed after {timeout} s")
                break
            time.sleep(0.1)
    elapsed = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    text = open(log_path, errors="replace").read()
    tv = open(time_file).read() if use_time and os.path.exists(time_file) else ""
    return text, rusage, code, elapsed, tv


def parse_wall(text):
    c = run_counts(text)
    return c["wall_s"] if c else None


def parse_throughput(text):
    c = run_counts(text)
    return c["rps"] if c else None


def parse_rss_kb(time_text, rusage):
    m = re.search(r"Maximum resident set size \(kbytes\):\s+(\d+)", time_text)
    if m:
        return int(m.group(1)), "/usr/bin/time -v"
    return rusage.ru_maxrss, "wait4 rusage"  # Linux: kilobytes


def parse_run_cpu(text):
    """The client JVM's CPU seconds during the run, from its CPU line (us per attempt x attempts)."""
    m = re.search(r"CPU: this JVM \(client only\) kept [\d.]+ of \d+ cores busy, (\d+) us per attempt", text)
    c = run_counts(text)
    if not (m and c):
        return None
    attempts = c["ok"] + c["failed"] + c["retries"]  # every request's first attempt + retries
    return int(m.group(1)) * attempts / 1e6


def parse_writer(text):
    m = re.search(r"the CSV writer thread used ([\d.]+) s CPU \(([\d.]+) ns per row\)", text)
    return (float(m.group(1)), float(m.group(2))) if m else None


def parse_report_seconds(text):
    m = re.search(r"Statistics and charts generated in ([\d.]+) s", text)
    return float(m.group(1)) if m else None


def parse_rows_ok(text):
    m = re.search(r"requests\.csv \(([\d,]+) rows", text)
    c = run_counts(text)
    if not (m and c):
        return None
    rows, attempts = int(m.group(1).replace(",", "")), c["ok"] + c["failed"] + c["retries"]
    return rows, attempts, "OK" if rows == attempts else "MISMATCH"


def cpu_seconds(rusage):
    return rusage.ru_utime + rusage.ru_stime


def fmt_range(values, fmt="{:.3f}"):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))} - {fmt.format(max(values))})"


def machine():
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M)
            cpu = m.group(1) if m else cpu
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
            mem = f"{kb / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    load = os.getloadavg()
    return f"{os.cpu_count()} CPUs ({cpu}), {mem} RAM, {java}, load average at start {load[0]:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=11, help="counted runs of each client for the overhead (default 11)")
    ap.add_argument("--warmup-rounds", type=int, default=1, help="uncounted runs of each client first (default 1)")
    ap.add_argument("--threads", type=int, default=64)
    ap.add_argument("--skiers", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--mem-threads", type=int, default=256)
    ap.add_argument("--mem-skiers", type=int, default=100000, help="big memory run (default 100000 with --mem-runs 20: 1.8M requests)")
    ap.add_argument("--mem-runs", type=int, default=20)
    ap.add_argument("--mem-small-skiers", type=int, default=20000, help="comparison run (default 20000 with -m 10: 180,000 requests)")
    ap.add_argument("--mem-small-runs", type=int, default=10)
    ap.add_argument("--heap", default="256m", help="client -Xmx for the memory runs (default 256m)")
    ap.add_argument("--server-heap", default="1g")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--quick", action="store_true",
                    help="a reduced run that proves the script: 1 round of -s 4000, memory runs of 90,000 vs 18,000 requests")
    ap.add_argument("--md", default=os.path.join(ROOT, "data", "part2-bench.md"), help="Markdown output")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds before a client run is killed")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.warmup_rounds, a.skiers = 1, 0, 4000
        a.mem_skiers, a.mem_runs, a.mem_small_skiers, a.mem_small_runs = 10000, 9, 2000, 9
    for jar in (SERVER_JAR, PART1_JAR, PART2_JAR, BENCH_BUILT):
        if not os.path.exists(jar):
            raise SystemExit(f"missing {os.path.relpath(jar, ROOT)}: build first (mvn -B -q -DskipTests install)")
    if shutil.which("java") is None:
        raise SystemExit("java not on PATH")
    os.makedirs(RAW_DIR, exist_ok=True)
    started = datetime.datetime.now().astimezone()
    env_line = machine()
    # the same flags for both clients; neither waits for its JIT before the clock (the --jit-warmup aid was
    # removed, issue 21), so each run's wall time includes its own JIT compilation, as a user's run does
    plan = ["-t", str(a.threads), "-s", str(a.skiers), "-m", str(a.runs)]

    # 0. the recording code's cost in isolation, before any server runs
    cost_text = recorder_cost(a.quick)
    log(cost_text)

    overhead = {"part1": [], "part2": []}
    warmups = {"part1": [], "part2": []}
    big = small = None
    server = Server(a.server_heap)
    try:
        # 1. overhead, interleaved; order flips every round so drift (JIT, server heap growth) hits both
        for r in range(-a.warmup_rounds, a.rounds):
            order = ["part1", "part2"] if r % 2 == 0 else ["part2", "part1"]
            for which in order:
                tag = f"warmup{r + a.warmup_rounds + 1}" if r < 0 else str(r + 1)
                log_path = os.path.join(RAW_DIR, f"overhead-{which}-{tag}.log")
                if which == "part1":
                    cmd = ["java", "-jar", PART1_JAR] + plan + ["-i", server.url, "--verbose"]
                else:
                    cmd = ["java", "-jar", PART2_JAR] + plan + ["-i", server.url, "--verbose", "--out",
                                                                os.path.join(RAW_DIR, f"overhead-{tag}")]
                text, ru, code, elapsed, _ = run_client(which, cmd, log_path, a.timeout)
                wall = parse_wall(text)
                if code != 0 or wall is None:
                    raise SystemExit(f"{which} round {tag} failed (exit {code}); see {log_path}")
                (warmups if r < 0 else overhead)[which].append(
                    {"round": tag, "wall": wall, "throughput": parse_throughput(text), "cpu": cpu_seconds(ru),
                     "process": elapsed, "writer": parse_writer(text), "run_cpu": parse_run_cpu(text)})
                log(f"{which} round {tag}: wall {wall:.3f} s, CPU {cpu_seconds(ru):.1f} s")

        # 2. + 3. memory and report time
        if not a.skip_memory:
            def mem_run(label, skiers, runs):
                cmd = ["java", f"-Xmx{a.heap}", "-jar", PART2_JAR, "-t", str(a.mem_threads), "-s", str(skiers), "-m", str(runs),
                       "-i", server.url, "--verbose", "--out", os.path.join(RAW_DIR, f"memory-{label}")]
                log_path = os.path.join(RAW_DIR, f"memory-{label}.log")
                text, ru, code, elapsed, tv = run_client(label, cmd, log_path, a.timeout)
                rss, how = parse_rss_kb(tv, ru)
                return {"cmd": " ".join(["java", f"-Xmx{a.heap}", "-jar", "client-part2/target/client-part2.jar"] + cmd[4:10]),
                        "code": code, "rss_kb": rss, "rss_how": how, "wall": parse_wall(text),
                        "report_s": parse_report_seconds(text), "rows": parse_rows_ok(text), "log": log_path}
            small = mem_run("small", a.mem_small_skiers, a.mem_small_runs)
            big = mem_run("big", a.mem_skiers, a.mem_runs)
    finally:
        server.close()

    write_md(a, started, env_line, plan, cost_text, warmups, overhead, small, big)


def recorder_cost(quick):
    """Runs the JMH benchmark (its own settings: 1 fork, 3 x 2 s warm-up, 5 x 2 s measured) and sums it up."""
    result = os.path.join(RAW_DIR, "recorder-cost.json")
    cmd = ["java", "-cp", bench_classpath(), "org.openjdk.jmh.Main", COST_BENCHMARK, "-rf", "json", "-rff", result]
    if quick:
        cmd += ["-wi", "1", "-i", "2", "-w", "1", "-r", "1"]
    log("+ " + " ".join(cmd))
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0 or not os.path.exists(result):
        return f"{COST_BENCHMARK} failed (exit {run.returncode}): {run.stderr.strip()[-2000:]}"
    scores = {}
    for r in json.load(open(result)):
        m = r["primaryMetric"]
        scores[r["benchmark"].rsplit(".", 1)[1]] = (float(m["score"]), float(m["scoreError"]))  # error: "NaN" below 3 iterations

    def shown(name):
        score, error = scores[name]
        return f"{score:6.1f}" + ("" if math.isnan(error) else f" ± {error:.1f}")
    lines = [f"{label:<40} {shown(name)} ns/{unit}" for name, label, unit in COST_ROWS]
    none, worker = scores[COST_ROWS[0][0]][0], scores[COST_ROWS[1][0]][0]
    added = worker - none + scores[COST_ROWS[2][0]][0] + scores[COST_ROWS[3][0]][0]
    lines.append(f"{'total added per attempt':<40} {added:6.1f} ns (worker +{worker - none:.1f}, writer per row)")
    return "\n".join(lines)


def write_md(a, started, env_line, plan, cost_text, warmups, overhead, small, big):
    L = []
    w = L.append
    w("# client-part2 benchmark: instrumentation overhead, memory, report time")
    w("")
    w(f"Measured {started:%Y-%m-%d %H:%M %Z} by `bench/overhead.sh`"
      + (" **--quick (reduced sizes: a smoke run, not the bar)**" if a.quick else "") + f" on {env_line}.")
    w("Client and server share this machine's cores, so run-to-run noise is large: compare medians, and read the ranges.")
    w("")
    w("## The recording code's cost in isolation")
    w("")
    w(f"`java -cp bench/target/test-classes:$(cat bench/target/classpath.txt) org.openjdk.jmh.Main {COST_BENCHMARK}` (JMH; one thread, no network; score ± 99.9% error; "
      "1 fork, 5 x 2 s measured after 3 x 2 s of warm-up" + (", reduced by --quick" if a.quick else "") + "):")
    w("")
    w("```")
    w(cost_text)
    w("```")
    w("")
    p1 = [x["wall"] for x in overhead["part1"]]
    p2 = [x["wall"] for x in overhead["part2"]]
    w(f"## Overhead: `{' '.join(plan)}`, {a.rounds} interleaved runs each, one server")
    w("")
    if a.warmup_rounds:
        ws = ", ".join(f"{k} {x['wall']:.3f} s" for k in ("part1", "part2") for x in warmups[k])
        w(f"Not counted: {a.warmup_rounds} warm-up run(s) of each client against the fresh server first ({ws}).")
        w("")
    w("| round | client-part1 wall (s) | client-part2 wall (s) | paired diff | part1 CPU (s) | part2 CPU (s) | part2 writer thread CPU |")
    w("|---:|---:|---:|---:|---:|---:|---:|")
    paired = []
    for i in range(a.rounds):
        x1, x2 = overhead["part1"][i], overhead["part2"][i]
        d = (x2["wall"] - x1["wall"]) / x1["wall"] * 100
        paired.append(d)
        wr = x2["writer"]
        wtxt = f"{wr[0]:.3f} s ({wr[1]:.0f} ns/row)" if wr else "?"
        w(f"| {i + 1} | {x1['wall']:.3f} | {x2['wall']:.3f} | {d:+.1f}% | {x1['cpu']:.1f} | {x2['cpu']:.1f} | {wtxt} |")
    m1, m2 = statistics.median(p1), statistics.median(p2)
    diff = (m2 - m1) / m1 * 100
    c1 = statistics.median([x["cpu"] for x in overhead["part1"]])
    c2 = statistics.median([x["cpu"] for x in overhead["part2"]])
    writers = [x["writer"] for x in overhead["part2"] if x["writer"]]
    shares = [x["writer"][0] / x["run_cpu"] * 100 for x in overhead["part2"] if x["writer"] and x["run_cpu"]]
    w("")
    w(f"- client-part1 wall time: median (min - max) **{fmt_range(p1)} s**")
    w(f"- client-part2 wall time: median (min - max) **{fmt_range(p2)} s**")
    w(f"- difference of medians (client-part2's overhead): **{diff:+.1f}%** (bar: at most +3%) -> **{'PASS' if diff <= 3 else 'FAIL'}**"
      + ("" if a.rounds >= 3 else f" (only {a.rounds} round(s): not the bar's 3)")
      + (" (client-part2 came out faster: the run-to-run noise here is larger than what the instrumentation costs)"
         if diff < -3 else ""))
    w(f"- paired difference within a round: median (min - max) **{fmt_range(paired, '{:+.1f}')} %**")
    w(f"- client process CPU (user + sys, whole process incl. JVM start, baseline and, for part2, the report), medians: "
      f"part1 {c1:.1f} s, part2 {c2:.1f} s ({(c2 - c1) / c1 * 100:+.1f}%)")
    if writers:
        # run CPU is rebuilt from the whole-microsecond "us per attempt" the client prints: good to ~2%
        share = f", {statistics.median(shares):.1f}% of client-part2's CPU during the run" if shares else ""
        w(f"- client-part2's writer thread (CSV formatting, per-second buckets, writes, wake-ups) during the run: median "
          f"{statistics.median([x[0] for x in writers]):.3f} s CPU, {statistics.median([x[1] for x in writers]):.0f} ns per row{share}")
    w("")
    w("Commands (the server: `java -Xmx{0} -jar servlet/target/liftride-server.jar --host 127.0.0.1 --port 0`):".format(a.server_heap))
    w("")
    w("```")
    w(f"java -jar client-part1/target/client-part1.jar {' '.join(plan)} -i URL")
    w(f"java -jar client-part2/target/client-part2.jar {' '.join(plan)} -i URL --out data/runs/part2-bench/overhead-N")
    w("```")
    if small and big:
        w("")
        w(f"## Memory (-Xmx{a.heap}) and report time")
        w("")
        w("| run | requests (CSV rows = attempts) | exit | wall (s) | peak RSS | statistics + charts + files |")
        w("|---|---:|---:|---:|---:|---:|")
        for label, r in (("180,000-request plan" if not a.quick else "small plan", small), ("1.8M-request plan" if not a.quick else "big plan", big)):
            rows = r["rows"]
            rows_text = f"{rows[0]:,} = {rows[1]:,}: {rows[2]}" if rows else "?"
            w(f"| `{r['cmd']}` ({label}) | {rows_text} | {r['code']} | {r['wall'] if r['wall'] is not None else '?'} "
              f"| {r['rss_kb'] / 1024:.0f} MiB | {r['report_s'] if r['report_s'] is not None else '?'} s |")
        ratio = (big["rss_kb"] - small["rss_kb"]) / small["rss_kb"] * 100
        completed = big["code"] == 0 and big["rows"] is not None and big["rows"][2] == "OK"
        w("")
        w(f"- big run completed with -Xmx{a.heap} and every row written: **{'yes' if completed else 'NO'}**")
        w(f"- peak RSS, big vs small: **{ratio:+.1f}%** (bar: within 20%) -> **{'PASS' if ratio <= 20 else 'FAIL'}** "
          f"(measured with {big['rss_how']})")
        rt = big["report_s"]
        w(f"- report generation for the big run: **{rt if rt is not None else '?'} s** (bar: under 3 s) -> "
          f"**{'PASS' if rt is not None and rt < 3 else 'FAIL'}**")
    w("")
    w(f"Raw client output: `{os.path.relpath(RAW_DIR, ROOT)}/` (git-ignored).")
    os.makedirs(os.path.dirname(os.path.abspath(a.md)), exist_ok=True)
    with open(a.md, "w") as f:
        f.write("\n".join(L) + "\n")
    log("wrote " + a.md)


if __name__ == "__main__":
    main()
