#!/usr/bin/env python3
"""Side-by-side benchmark: our client and server against wrk on this machine (issue 5).

Every figure is a ratio of two things measured back to back in the same round, because this
2-core machine is shared by client and server and is noisy. Rounds are interleaved; the report
gives every raw number, the medians and min-max.

  1. Client efficiency: client-part1 at 64 threads (generated SDK, and the raw transport) vs
     `wrk -t2 -c64` POSTing the same kind of body to the same server; CPU per request of each.
  2. Server efficiency: wrk on our POST endpoint (validation + storage) vs wrk on a bare servlet
     that answers 201 without reading the request, in the same server (the bench module's BareServer).
  3. client-part2's instrumentation overhead and memory: bench/overhead.sh.

Usage: python3 bench/bench.py [--rounds 5] [--wrk-seconds 10] [--warmup 10000] [--skip-build] [--skip-part2] [--jfr]
Writes data/bench.md (keeping its "Earlier profiles" section). Loopback only; every run is bounded in time.
Exits 1 when a client/wrk median falls below the lowest round the committed data/bench.md publishes: run it
before resolving a change to the request path.
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
import time

from benchlib import BENCH_BUILT, bench_classpath, run_counts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BARE_SERVER = "io.upic.liftride.bench.BareServer"
CLIENT_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
POST_LUA = os.path.join(ROOT, "servlet", "bench", "post.lua")  # the wrk script that also documents the server
CLK_TCK = os.sysconf("SC_CLK_TCK")


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def ensure_wrk():
    if shutil.which("wrk"):
        return
    print("wrk not found: installing Debian's package", file=sys.stderr)
    sh(["apt-get", "update", "-qq"])
    sh(["apt-get", "install", "-y", "-qq", "wrk"])


def proc_cpu_seconds(pid):
    """user+sys CPU seconds of a live process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


class Server:
    """The embedded LiftRide server plus the bare servlet, in its own JVM on a free loopback port."""

    def __init__(self):
        args = ["java", "-Xms512m", "-Xmx512m", "-cp", bench_classpath(), BARE_SERVER, "--host", "127.0.0.1", "--port", "0",
                "--management-port", "0"]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 60
        self.base = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"(http://127\.0\.0\.1:\d+/liftride)", line)
            if m:
                self.base = m.group(1)
                break
        if not self.base:
            self.proc.kill()
            raise SystemExit("server did not print its URL within 60 s")

    def cpu(self):
        return proc_cpu_seconds(self.proc.pid)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def machine_busy_seconds():
    """CPU seconds all processes have used since boot (user, nice, system, irq, softirq, steal)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields[0:3]) + sum(fields[5:8])) / CLK_TCK


def run_wrk(url, seconds, lua=POST_LUA, connections=64, server=None):
    """wrk -t2 -cN for `seconds`; returns req/s, non-2xx, socket errors, wrk CPU µs/req, requests, and
    (with `server`) the cores other processes kept busy meanwhile: the noise of a shared machine."""
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if lua:
        cmd += ["-s", lua]
    cmd.append(url)
    busy0, server0, t0 = machine_busy_seconds(), server.cpu() if server else 0.0, time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    cpu = 0.0
    while p.poll() is None:  # sample CPU until it exits: the last sample before exit is what it used
        try:
            cpu = proc_cpu_seconds(p.pid)
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
        time.sleep(0.05)
    out = p.stdout.read()
    others = float("nan")
    if server:
        others = (machine_busy_seconds() - busy0 - (server.cpu() - server0) - cpu) / (time.time() - t0)
    if p.returncode != 0:
        raise SystemExit("wrk failed:\n" + out)
    rps = float(re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M).group(1))
    total = int(re.search(r"^\s*(\d+) requests in", out, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    sockerr = re.search(r"Socket errors:(.*)$", out, re.M)
    p50 = re.search(r"^\s+50%\s+([\d.]+)(us|ms|s)\b", out, re.M)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", out, re.M)
    return {
        "rps": rps, "requests": total,
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
        "socket_errors": sockerr.group(1).strip() if sockerr else "none",
        "cpu_us_per_req": cpu * 1e6 / total if total else float("nan"),
        "p50_ms": to_ms(p50), "p99_ms": to_ms(p99), "other_cores": others,
    }


def to_ms(m):
    if not m:
        return float("nan")
    v, unit = float(m.group(1)), m.group(2)
    return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v


def sampling_jfc():
    """JDK's profile.jfc with Java method sampling every 1 ms instead of 10-20 ms: 64 mostly blocked
    threads give the default sampler too few samples to rank methods."""
    java_home = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("java"))))
    text = open(os.path.join(java_home, "lib", "jfr", "profile.jfc")).read()
    text = re.sub(r'(<event name="jdk.ExecutionSample">.*?<setting name="period"[^>]*>)[^<]*(<)',
                  r"\g<1>1 ms\g<2>", text, count=1, flags=re.S)
    path = os.path.join(ROOT, "data", "runs", "sampling-1ms.jfc")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def run_client(base, transport, threads, skiers, runs, warmup, jfr=None):
    cmd = ["java", "-Xmx1g"]
    if jfr:
        # delay: skip JVM start-up and class loading, profile the phases
        cmd.append(f"-XX:StartFlightRecording=filename={jfr},settings={sampling_jfc()},delay=2s")
    cmd += ["-jar", CLIENT_JAR, "-t", str(threads), "-s", str(skiers), "-l", "40", "-m", str(runs),
            "-i", base, "--baseline", str(warmup), "--transport", transport, "--verbose"]
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout
    if p.returncode != 0:
        raise SystemExit(f"client exited {p.returncode}:\n{out}")
    counts = run_counts(out)
    ok, failed, rps, wall = counts["ok"], counts["failed"], counts["rps"], counts["wall_s"]
    cpu = re.search(r"CPU: this JVM \([^)]*\) kept [\d.]+ of \d+ cores busy, ([\d.]+) us per attempt", out)
    return {"rps": rps, "ok": ok, "failed": failed, "wall_s": wall,
            "cpu_us_per_req": float(cpu.group(1)) if cpu else float("nan"),
            "reconciled": "MISMATCH" not in out}


def med(xs):
    xs = [x for x in xs if x == x]
    return statistics.median(xs) if xs else float("nan")


def fmt_range(xs, f="{:.2f}"):
    xs = [x for x in xs if x == x]
    if not xs:
        return "n/a"
    return (f + " (" + f + "–" + f + ")").format(statistics.median(xs), min(xs), max(xs))


def jfr_stacks(path, depth=64):
    """The stacks of jdk.ExecutionSample in a JFR file, top frame first: [[method(params), ...], ...]."""
    out = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", str(depth), path],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    stacks = []
    for event in out.split("jdk.ExecutionSample")[1:]:
        body = event.split("stackTrace = [", 1)[-1].split("\n  ]", 1)[0]
        frames = [re.sub(r"\s+line:.*$", "", line.strip()) for line in body.splitlines()]
        frames = [f for f in frames if f and f != "..."]
        if frames:
            stacks.append(frames)
    return stacks


def jfr_top(stacks, n=10):
    """Top frames by self time: [(method, share)]. Kotlin's inlined null checks are counted for their
    caller: JFR names them Intrinsics.throwParameterIsNullNPE, though nothing is thrown."""
    counts = {}
    for frames in stacks:
        top = next((f for f in frames if not f.startswith("kotlin.jvm.internal.Intrinsics.")), frames[0])
        counts[top] = counts.get(top, 0) + 1
    total = len(stacks) or 1
    return sorted(((k, v / total) for k, v in counts.items()), key=lambda kv: -kv[1])[:n]


# Where a sample's time goes: the first frame, from the top, that belongs to a layer. JDK and Kotlin
# helpers (collections, strings, null checks) count for the layer that called them; only the socket
# calls are a layer of their own.
LAYERS = [
    ("socket read/write (JDK, kernel)", r"^(sun\.nio\.ch\.|java\.net\.Socket)"),
    ("generated SDK (io.upic.liftride.sdk: SkiersApi, ApiClient, JSON)", r"^io\.upic\.liftride\.sdk\."),
    ("Gson (serializing the ride)", r"^(com\.google\.gson\.|io\.gsonfire\.)"),
    ("OkHttp 4 (okhttp3: call, interceptors, pool, HTTP/1.1 codec)", r"^okhttp3\."),
    ("okio (buffers, timeouts)", r"^okio\."),
    ("raw transport (RawRideSender, RawHttpConnection)", r"^io\.upic\.liftride\.client\.http\.raw\."),
    ("client engine (workers, retries, counting)", r"^io\.upic\.liftride\.client\."),
]
HELPERS = r"^(java\.|javax\.|jdk\.|sun\.|kotlin\.)"


def jfr_layers(stacks):
    """Share of samples per layer (see LAYERS): [(layer, share)], largest first."""
    counts = {}
    for frames in stacks:
        layer = "other (JDK, JIT, GC helpers)"
        for frame in frames:
            hit = next((name for name, rx in LAYERS if re.match(rx, frame)), None)
            if hit:
                layer = hit
                break
            if not re.match(HELPERS, frame):
                break
        counts[layer] = counts.get(layer, 0) + 1
    total = len(stacks) or 1
    return sorted(((k, v / total) for k, v in counts.items()), key=lambda kv: -kv[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--wrk-seconds", type=int, default=10)
    ap.add_argument("--threads", type=int, default=64)
    ap.add_argument("--skiers", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=10)
    # The client's own default: before the clock, N single-thread requests warm the JIT up, N more
    # measure W and D, and the client waits for the compiler to go idle. With 0 (a cold JVM), most
    # of the HTTP stack's JIT compilation lands in the measured run: 10-70% more CPU per SDK request
    # in runs here. wrk is native code and needs no warm-up.
    ap.add_argument("--warmup", type=int, default=10000, help="client-part1 --baseline for both transports")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--skip-part2", action="store_true")
    ap.add_argument("--jfr", action="store_true", help="profile one SDK and one raw client run with JFR")
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "bench.md"))
    a = ap.parse_args()

    ensure_wrk()
    if not a.skip_build:
        # package, not install: the jars are read from target/, and ~/.m2 is left alone
        sh(["mvn", "-B", "-q", "-DskipTests", "package"], cwd=ROOT)
    for jar in (BENCH_BUILT, CLIENT_JAR):
        if not os.path.exists(jar):
            raise SystemExit(f"missing {jar}: build first (mvn -DskipTests package)")

    rounds = []
    a.load_before = os.getloadavg()[0]
    server = Server()
    try:
        base = server.base
        # warm the server's JIT once, so round 1 is not special; both targets must answer 201
        for url, seconds in ((base, 5), (base + "/bench/bare", 3)):
            warm = run_wrk(url, seconds)
            if warm["non2xx"] or warm["requests"] == 0:
                raise SystemExit(f"{url} did not answer 201 ({warm['non2xx']} of {warm['requests']} were not 2xx)")
        for i in range(a.rounds):
            r = {}
            r["wrk_post"] = run_wrk(base, a.wrk_seconds, server=server)
            for transport in ("sdk", "raw"):
                c0 = server.cpu()
                c = run_client(base, transport, a.threads, a.skiers, a.runs, a.warmup)
                c["server_cpu_us_per_req"] = (server.cpu() - c0) * 1e6 / max(1, c["ok"] + c["failed"])
                r["client_" + transport] = c
            r["wrk_bare"] = run_wrk(base + "/bench/bare", a.wrk_seconds, server=server)
            r["wrk_post_after"] = run_wrk(base, a.wrk_seconds, server=server)
            rounds.append(r)
            print(f"round {i + 1}: {r}", file=sys.stderr, flush=True)
        jfr = {}
        if a.jfr:
            os.makedirs(os.path.join(ROOT, "data", "runs"), exist_ok=True)
            # the raw client finishes 180,000 requests in ~3 s, too short to sample: profile 1.8M instead
            jfr_plans = {"sdk": (a.skiers, a.runs), "raw": (100000, 20)}
            for transport, (skiers, runs) in jfr_plans.items():
                path = os.path.join(ROOT, "data", "runs", f"client-{transport}.jfr")
                run_client(base, transport, a.threads, skiers, runs, a.warmup, jfr=path)
                stacks = jfr_stacks(path)
                jfr[transport] = (skiers, runs, len(stacks), jfr_top(stacks), jfr_layers(stacks))
    finally:
        server.close()

    part2 = None
    script = os.path.join(ROOT, "bench", "overhead.sh")
    if not a.skip_part2 and os.path.exists(script):
        sh(["bash", script], cwd=ROOT)
        p2 = os.path.join(ROOT, "data", "part2-bench.md")
        part2 = open(p2).read() if os.path.exists(p2) else None

    published = published_ratios(a.out)
    write_report(a, rounds, jfr, part2)
    sys.exit(guard(published, rounds))


def published_ratios(path):
    """The client/wrk medians and minimums the committed report publishes ({"sdk": (median, min), ...});
    the working copy's when git has none."""
    rel = os.path.relpath(path, ROOT)
    p = subprocess.run(["git", "show", "HEAD:" + rel], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    text = p.stdout if p.returncode == 0 else (open(path).read() if os.path.exists(path) else "")
    out = {}
    for key, label in (("sdk", "generated SDK"), ("raw", "raw transport")):
        m = re.search(r"client efficiency, " + label + r"[^|]*\| ([\d.]+) \(([\d.]+)", text)
        if m:
            out[key] = (float(m.group(1)), float(m.group(2)))
    return out


def guard(published, rounds):
    """Exit status 1 when a client/wrk median fell below the lowest round the committed report published:
    a regression of the request path shows in the round that made it."""
    status = 0
    for key in ("sdk", "raw"):
        if key not in published:
            continue
        ratios = [r["client_" + key]["rps"] / statistics.mean(r[k]["rps"] for k in ("wrk_post", "wrk_post_after"))
                  for r in rounds]
        now, (median, low) = med(ratios), published[key]
        verdict = "REGRESSION" if now < low else "ok"
        print(f"{verdict}: {key}/wrk median {now:.2f}, published {median:.2f} (lowest round {low:.2f})", file=sys.stderr)
        status |= now < low
    return status


EARLIER = "## Earlier profiles"


def earlier_profiles(path):
    """The lines of the report's "Earlier profiles" section (up to the next "## " heading), which
    each run keeps: profiles of code that no longer exists cannot be measured again."""
    if not os.path.exists(path):
        return []
    lines = open(path).read().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(EARLIER)), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


PART2_POINTER = ("Measured by `bench/overhead.sh`, which this script runs after the rounds above "
                 "(it also runs alone): see [part2-bench.md](part2-bench.md).")


def write_report(a, rounds, jfr, part2):
    def col(key, field):
        return [r[key][field] for r in rounds]

    def ratio(num_key, den_keys):
        out = []
        for r in rounds:
            den = statistics.mean(r[k]["rps"] for k in den_keys)
            out.append(r[num_key]["rps"] / den)
        return out

    sdk_ratio = ratio("client_sdk", ["wrk_post", "wrk_post_after"])
    raw_ratio = ratio("client_raw", ["wrk_post", "wrk_post_after"])
    srv_ratio = [r["wrk_post"]["rps"] / r["wrk_bare"]["rps"] for r in rounds]
    srv_ratio_after = [r["wrk_post_after"]["rps"] / r["wrk_bare"]["rps"] for r in rounds]

    cpu = open("/proc/cpuinfo").read()
    model = re.search(r"model name\s*:\s*(.*)", cpu)
    L = []
    w = L.append
    w("# Benchmark: our client and server beside wrk")
    w("")
    w(f"Generated by `python3 bench/bench.py --rounds {a.rounds} --wrk-seconds {a.wrk_seconds} --warmup {a.warmup}"
      f"{' --jfr' if a.jfr else ''}` on {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}.")
    others = [r[k]["other_cores"] for r in rounds for k in ("wrk_post", "wrk_bare", "wrk_post_after")]
    w("")
    w(f"Noise: during the wrk runs, processes other than wrk and the server kept {fmt_range(others)} of the "
      f"{os.cpu_count()} cores busy (median, min–max; from /proc/stat). Load average (1 min) before the rounds "
      f"{a.load_before:.1f}, after {os.getloadavg()[0]:.1f}.")
    w("")
    w(f"Machine: {os.cpu_count()} cores ({model.group(1) if model else platform.processor()}), "
      f"{platform.system()} {platform.release()}, "
      f"{subprocess.run(['java', '-version'], stderr=subprocess.PIPE, text=True).stderr.splitlines()[0]}. "
      "Client, server and wrk share the 2 cores over loopback.")
    w("")
    w(f"Each round, back to back against one server JVM (`java -Xmx512m -cp bench/target/test-classes:$(cat bench/target/classpath.txt) {BARE_SERVER}`):")
    w(f"`wrk -t2 -c64 -d{a.wrk_seconds}s -s servlet/bench/post.lua` on the POST endpoint; client-part1 "
      f"`-t {a.threads} -s {a.skiers} -l 40 -m {a.runs} --baseline {a.warmup}` with `--transport sdk` and `--transport raw` "
      "(the baseline warms the JIT up before the clock, as in a default run); "
      "wrk with the same script on the bare servlet (`/liftride/bench/bare/*`, answers 201 without reading the request); wrk on POST again.")
    w("The client ratio divides by the mean of the two wrk POST runs that bracket it. CPU µs/request: wrk and the "
      "server from /proc/PID/stat (user+sys), the client from its own process CPU during the phases.")
    w("")
    w("## Results (median, min–max over rounds)")
    w("")
    w("| figure | ratio | target |")
    w("|---|---|---|")
    w(f"| client efficiency, generated SDK (OkHttp 4.12) / wrk | {fmt_range(sdk_ratio)} | ≥ 0.75 |")
    w(f"| client efficiency, raw transport / wrk | {fmt_range(raw_ratio)} | ≥ 0.5 |")
    w(f"| server efficiency, wrk POST / wrk bare servlet | {fmt_range(srv_ratio)} (POST run after bare: {fmt_range(srv_ratio_after)}) | ≥ 0.9 |")
    w("")
    w("| | req/s | CPU µs/request | server CPU µs/request | p50 / p99 ms |")
    w("|---|---|---|---|---|")
    w(f"| wrk POST | {fmt_range(col('wrk_post', 'rps'), '{:,.0f}')} | {fmt_range(col('wrk_post', 'cpu_us_per_req'), '{:.1f}')} | | "
      f"{med(col('wrk_post', 'p50_ms')):.2f} / {med(col('wrk_post', 'p99_ms')):.2f} |")
    for t in ("sdk", "raw"):
        k = "client_" + t
        w(f"| client-part1 --transport {t} | {fmt_range(col(k, 'rps'), '{:,.0f}')} | {fmt_range(col(k, 'cpu_us_per_req'), '{:.1f}')} | "
          f"{fmt_range(col(k, 'server_cpu_us_per_req'), '{:.1f}')} | |")
    w(f"| wrk bare servlet | {fmt_range(col('wrk_bare', 'rps'), '{:,.0f}')} | {fmt_range(col('wrk_bare', 'cpu_us_per_req'), '{:.1f}')} | | "
      f"{med(col('wrk_bare', 'p50_ms')):.2f} / {med(col('wrk_bare', 'p99_ms')):.2f} |")
    w("")
    w("## Every run")
    w("")
    w("| round | wrk POST req/s | SDK req/s (ok/failed) | raw req/s (ok/failed) | wrk bare req/s | wrk POST after req/s | SDK/wrk | raw/wrk | POST/bare | other processes' cores (wrk runs) |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rounds):
        s, rw = r["client_sdk"], r["client_raw"]
        noise = " / ".join(f"{r[k]['other_cores']:.2f}" for k in ("wrk_post", "wrk_bare", "wrk_post_after"))
        w(f"| {i + 1} | {r['wrk_post']['rps']:,.0f} | {s['rps']:,.0f} ({s['ok']:,}/{s['failed']}) | "
          f"{rw['rps']:,.0f} ({rw['ok']:,}/{rw['failed']}) | {r['wrk_bare']['rps']:,.0f} | {r['wrk_post_after']['rps']:,.0f} | "
          f"{sdk_ratio[i]:.2f} | {raw_ratio[i]:.2f} | {srv_ratio[i]:.2f} | {noise} |")
    w("")
    bad = [(i + 1, k) for i, r in enumerate(rounds) for k in r if k.startswith("wrk") and
           (r[k]["non2xx"] or r[k]["socket_errors"] != "none")]
    w("wrk non-2xx or socket errors: " + (", ".join(f"round {i} {k}" for i, k in bad) if bad else "none in any run."))
    if jfr:
        w("")
        w("## JFR: top client frames (jdk.ExecutionSample, self time)")
        for t, (skiers, runs, total, top, layers) in jfr.items():
            w("")
            w(f"`--transport {t}`, `-t {a.threads} -s {skiers} -m {runs}` ({total} samples; recording starts 2 s after launch, so the single-thread warm-up is in it).")
            w("Where the time goes (each sample counted for the first layer from the top of its stack; JDK and Kotlin "
              "helpers count for the layer that called them):")
            w("")
            w("| layer | share of samples |")
            w("|---|---|")
            for name, share in layers:
                w(f"| {name} | {share:.1%} |")
            w("")
            w("Top frames by self time:")
            w("")
            w("| # | method | share |")
            w("|---|---|---|")
            for j, (m, share) in enumerate(top):
                w(f"| {j + 1} | `{m}` | {share:.1%} |")
    if part2:
        # linked, not copied: overhead.sh also runs alone, and a copy here would go stale
        w("")
        w("## client-part2 overhead and memory")
        w("")
        w(PART2_POINTER)
    elif os.path.exists(os.path.join(ROOT, "data", "part2-bench.md")):
        w("")
        w("## client-part2 overhead and memory")
        w("")
        w("Measured by `bench/overhead.sh` (not rerun this time: `--skip-part2`): see "
          "[part2-bench.md](part2-bench.md).")
    earlier = earlier_profiles(a.out)
    if earlier:
        w("")
        L.extend(earlier)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("wrote " + a.out, file=sys.stderr)


if __name__ == "__main__":
    main()
