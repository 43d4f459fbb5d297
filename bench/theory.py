#!/usr/bin/env python3
"""A theory that predicts: every run's prediction, made before it, beside its measurement.

One command runs, in order:
  1. the WAN sweep: one LiftRide server (in memory: the assignment's one Tomcat) behind Toxiproxy at --wan-rtt
     (40 ms; --wan-cluster: the local cluster with Redis and nginx instead), and client-part2's standard sweep
     through it (`-t 32,64,128,256 -s 20000 -l 40 -m 10 -i FRONT`), published in data/sweep-wan/ with its
     report.md; the delay dominates, so the model is about N / W;
  2. the loopback sweep: the same plan against client-part2's embedded server (the README's main command),
     --loopback-sweeps times back to back (3; each a fresh JVM, which reuses the CPU per request D that the sweep
     before it stored for this machine, server and transport; the first finds it only if one ran earlier), the last
     published in
     data/sweep/, every one's errors in data/sweep/theory-repeats.json and data/theory.md (one sweep can be
     lucky); the CPU dominates, so the model is about C / D;
  3. the capped scale-out: reads data/scale-out.json (bench/scale_out.py --server-cpus) when present and predicts
     each server count's throughput from the cap and the server CPU per ride, servers x cap / D_server.
Each client run makes its own prediction before it starts (the baseline's W and a D learned from the runs; see
client-part1's CpuDemand, LittlesLaw and Prediction.Network) and writes it into summary.json's "prediction"; this script
only collects them and writes data/theory.md with every prediction, measurement and error, the time before the
first run, the load average, and how long it took.

Usage: python3 bench/theory.py [--skip-build] [--only wan,loopback,capped] [--wan-rtt 40ms] [--wan-cluster]
                               [--wan-baseline 200] [--loopback-sweeps 3] [-t 32,64,128,256 -s 20000 -l 40 -m 10]
                               [--from-runs]  (rewrite data/theory.md from the published summaries, no run)

The WAN sweep takes about 15 minutes (every request waits 40 ms), each loopback one about 40 s.
"""
import argparse
import datetime
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale_out import Cluster, ROOT, SERVER_JAR, sh  # noqa: E402

# client-part2: the sweeps publish its report (scale_out.py drives client-part1)
CLIENT_JAR = os.path.join(ROOT, "client-part2", "target", "client-part2.jar")

TOXIPROXY = os.path.expanduser("~/.cache/liftride/toxiproxy-v2.12.0/bin/server")

THEORY_MD = os.path.join(ROOT, "data", "theory.md")
SCALE_OUT_JSON = os.path.join(ROOT, "data", "scale-out.json")
SWEEPS = {"wan": os.path.join(ROOT, "data", "sweep-wan"), "loopback": os.path.join(ROOT, "data", "sweep")}
TARGET = {"wan": 10.0, "loopback": 15.0, "capped": 15.0}
# what a published sweep keeps of client-part2's output: not the raw rows (7 MB a run) nor the per-bucket log
DROP = ("requests.csv", "latency-per-second.hlog")


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def client_sweep(a, out_dir, extra):
    """client-part2's sweep into out_dir; its console output (kept beside it as console.txt)."""
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    # relative paths, so that the published report.md and console.txt name no directory of this machine
    cmd = ["java", "-jar", os.path.relpath(CLIENT_JAR, ROOT), "-t", a.threads, "-s", str(a.skiers),
           "-l", str(a.lifts), "-m", str(a.runs), "--out", os.path.relpath(out_dir, ROOT), "--verbose"] + extra
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "console.txt"), "w") as f:
        f.write(p.stdout)
    if p.returncode != 0:
        # a failed check (a reconciliation mismatch, a failed request) is reported, not a reason to lose the sweep
        print(f"client-part2 exited {p.returncode}; see {out_dir}/console.txt", file=sys.stderr)
        if not glob.glob(os.path.join(out_dir, "t*", "summary.json")):
            raise SystemExit(f"client-part2 exited {p.returncode} with no run: {out_dir}/console.txt")
    for name in DROP:
        for f in glob.glob(os.path.join(out_dir, "t*", name)):
            os.remove(f)
    unlink_dropped(os.path.join(out_dir, "report.md"))
    return p.returncode


def unlink_dropped(report_md):
    """The published report.md names the files DROP removed as text, not as links that would lead nowhere."""
    if not os.path.exists(report_md):
        return
    with open(report_md) as f:
        text = f.read()
    for name in DROP:
        link = r"\[" + re.escape(name) + r"\]\(t\d+/" + re.escape(name) + r"\)(?: \(([^)]*)\))?"
        text = re.sub(link, lambda m: f"{name} ({m.group(1) + ', ' if m.group(1) else ''}not published)", text)
    with open(report_md, "w") as f:
        f.write(text)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer within {seconds} s")


def toxiproxy_api(api, method, path, body):
    req = urllib.request.Request(f"http://{api}{path}", data=json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status


class WanServer:
    """One LiftRide server (in-memory store, no Redis, no nginx: the assignment's EC2 shape) behind Toxiproxy
    with a latency toxic per direction, half the round trip each; the binary the test kit go-installs."""

    def __init__(self, rtt_ms):
        if not os.path.exists(TOXIPROXY):
            # the cluster's --wan-rtt go-installs it (test kit Toxiproxy) on first use
            raise SystemExit(f"{TOXIPROXY} missing: run the cluster once with --wan-rtt (it go-installs Toxiproxy)")
        port, api, front = free_port(), free_port(), free_port()
        self.procs = [subprocess.Popen(["java", "-jar", SERVER_JAR, "--host", "127.0.0.1", "--port", str(port)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        self.procs.append(subprocess.Popen(["env", "LOG_LEVEL=warn", TOXIPROXY, "-host", "127.0.0.1", "-port",
                                            str(api)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        try:
            wait_for(f"http://127.0.0.1:{port}/liftride/statistics")
            wait_for(f"http://127.0.0.1:{api}/version")
            toxiproxy_api(f"127.0.0.1:{api}", "POST", "/proxies", {
                "name": "wan", "listen": f"127.0.0.1:{front}", "upstream": f"127.0.0.1:{port}", "enabled": True})
            for stream, ms in (("upstream", rtt_ms // 2), ("downstream", rtt_ms - rtt_ms // 2)):
                toxiproxy_api(f"127.0.0.1:{api}", "POST", "/proxies/wan/toxics", {
                    "name": "latency_" + stream, "type": "latency", "stream": stream, "toxicity": 1.0,
                    "attributes": {"latency": ms, "jitter": 0}})
            self.front = f"http://127.0.0.1:{front}/liftride"
            wait_for(self.front + "/statistics")
        except BaseException:
            self.close()
            raise

    def close(self):
        for p in reversed(self.procs):
            p.terminate()
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


def rtt_millis(text):
    m = re.fullmatch(r"(\d+)ms", text)
    if not m:
        raise SystemExit(f"--wan-rtt: whole milliseconds like 40ms, not {text}")
    return int(m.group(1))


def before_first_run(out_dir, started_epoch):
    """Seconds from the client's start to its first run's, from that run's summary.json; None without a run."""
    runs = sorted(glob.glob(os.path.join(out_dir, "t*", "summary.json")), key=lambda f: int(f.split(os.sep)[-2][1:]))
    if not runs:
        return None
    with open(runs[0]) as f:
        start = json.load(f)["startTime"].replace("Z", "+00:00")
    return datetime.datetime.fromisoformat(start).timestamp() - started_epoch


def sweep(kind, a):
    started = time.monotonic()
    started_epoch = time.time()
    before = loadavg()
    rel = os.path.relpath(SWEEPS[kind], ROOT)
    if kind == "wan":
        if a.wan_cluster:
            ns = argparse.Namespace(server_cpus=None, server_cpu_period_ms=10, wan_rtt=a.wan_rtt, wan_jitter="0ms",
                                    server_java_options=None)
            target = Cluster(1, ns)
            setup = f"java -jar liftride-cluster.jar --servers 1 --wan-rtt {a.wan_rtt} (Redis, nginx)"
        else:
            target = WanServer(rtt_millis(a.wan_rtt))
            setup = (f"java -jar liftride-server.jar (in memory) behind Toxiproxy {a.wan_rtt} round trip "
                     f"(a latency toxic of half each way)")
        try:
            extra = ["--baseline", str(a.wan_baseline), "-i", target.front]
            code = client_sweep(a, SWEEPS[kind], extra)
            command = (f"{setup}, then java -jar client-part2.jar -t {a.threads} -s {a.skiers} -l {a.lifts} "
                       f"-m {a.runs} --baseline {a.wan_baseline} -i FRONT --out {rel}")
        finally:
            target.close()
    else:
        code = client_sweep(a, SWEEPS[kind], [])
        command = f"java -jar client-part2.jar -t {a.threads} -s {a.skiers} -l {a.lifts} -m {a.runs} --out {rel}"
    meta = {"command": command, "loadBefore": before, "loadAfter": loadavg(),
            "seconds": time.monotonic() - started, "exitCode": code,
            "beforeFirstRunSeconds": before_first_run(SWEEPS[kind], started_epoch)}
    with open(os.path.join(SWEEPS[kind], "theory-run.json"), "w") as f:
        json.dump(meta, f, indent=1)


def read_sweep(kind):
    """Per run: threads, measured and predicted figures; plus the baseline line and the run's metadata."""
    d = SWEEPS[kind]
    meta_file = os.path.join(d, "theory-run.json")
    if not os.path.exists(meta_file):
        return None
    with open(meta_file) as f:
        meta = json.load(f)
    with open(os.path.join(d, "console.txt")) as f:
        console = f.read()
    naive = re.findall(r"naive N ?/ ?W:? ([\d.]+) s, ([\d,]+) req/s", console)
    base = re.search(r"^Baseline: \d.*$", console, re.M)
    rows = []
    for i, t in enumerate(sorted(int(x[len(d) + 2:]) for x in glob.glob(os.path.join(d, "t*"))
                                 if x[len(d) + 2:].isdigit())):
        with open(os.path.join(d, f"t{t}", "summary.json")) as f:
            s = json.load(f)
        p = s["prediction"]
        rows.append({"threads": t, "wall": s["wallSeconds"], "x": s["throughput"], "ok": s["ok"],
                     "p": p, "naiveWall": float(naive[i][0]) if i < len(naive) else None,
                     "naiveX": float(naive[i][1].replace(",", "")) if i < len(naive) else None})
    sources = re.findall(r"\(client [^;]*; from: ([^)]*)\)", console)
    for i, r in enumerate(rows):
        r["source"] = sources[i] if i < len(sources) else "-"
    return {"meta": meta, "rows": rows, "baseline": base.group(0) if base else "-"}


def repeat_record(data):
    """One loopback sweep's errors, for the repeats table: the first run's D and where it came from, each wall error."""
    rows = data["rows"]
    return {"dMicros": rows[0]["p"]["dNanos"] / 1e3 if rows else None,
            "dSource": rows[0].get("source") if rows else None,
            "wallError": {str(r["threads"]): err(r["wall"], r["p"]["wallSeconds"]) for r in rows},
            "throughput": {str(r["threads"]): r["x"] for r in rows},
            "worst": max((max(abs(err(r["wall"], r["p"]["wallSeconds"])), abs(err(r["x"], r["p"]["throughput"])))
                          for r in rows), default=None),
            "load": data["meta"].get("loadBefore"),
            "beforeFirstRun": data["meta"].get("beforeFirstRunSeconds")}


def repeats_section(kind):
    """The table of every back-to-back sweep (the published one last), so one lucky sweep cannot stand alone."""
    path = os.path.join(SWEEPS[kind], "theory-repeats.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        reps = json.load(f)
    if len(reps) < 2:
        return []
    ts = list(reps[0]["wallError"].keys())
    met = sum(1 for r in reps if r["worst"] is not None and r["worst"] <= TARGET[kind])
    out = [f"**Every sweep of this invocation**, run back to back on one build (the published one is the last): "
           f"{met} of {len(reps)} within the {TARGET[kind]:.0f}% target at every -t.", "",
           "| sweep | load before | before the first run (s) | first run's D (us), from | "
           + " | ".join(f"-t {t} wall error" for t in ts) + " | -t " + ", ".join(ts) + " req/s | largest error |",
           "|---:|---|---:|---:|---:|" + "---:|" * len(ts) + "---|---:|"]
    for i, r in enumerate(reps, 1):
        first = "-" if r.get("beforeFirstRun") is None else f"{r['beforeFirstRun']:.1f}"
        out.append(f"| {i} | {r['load']} | {first} | {r['dMicros']:.1f}, {r.get('dSource') or '-'} | "
                   + " | ".join(f"{r['wallError'][t]:+.1f}%" for t in ts)
                   + " | " + ", ".join(f"{r['throughput'][t]:,.0f}" for t in ts) + f" | {r['worst']:.1f}% |")
    out.append("")
    return out


def err(measured, predicted):
    return (measured - predicted) / predicted * 100.0


def sweep_section(kind, title, data):
    out = [f"## {title}", ""]
    if data is None:
        return out + [f"Not run yet: `python3 bench/theory.py --only {kind}`.", ""]
    m = data["meta"]
    rows = data["rows"]
    p0 = rows[0]["p"]
    out += [f"Command: `{m['command']}`  ",
            f"Load average (1, 5, 15 min) before: {m['loadBefore']}, after: {m['loadAfter']}; the sweep took "
            f"{m['seconds']:.0f} s, {m.get('beforeFirstRunSeconds') or 0:.1f} s of it before the first run; client exit code {m.get('exitCode', 0)}"
            f"{' (0: every request 201 and every count reconciled)' if not m.get('exitCode') else ''}"
            f"{'; ' + m['note'] if m.get('note') else ''}. Report with every chart: [{os.path.relpath(SWEEPS[kind], os.path.dirname(THEORY_MD))}"
            f"/report.md]({os.path.relpath(SWEEPS[kind], os.path.dirname(THEORY_MD))}/report.md).", "",
            f"Inputs: W = {p0['wNanos'] / 1e6:.3f} ms (single-thread baseline, before the first run), C = "
            f"{p0['cores']} cores, D per run as the table says (CPU per request; from where, see docs/model.md), "
            f"Z = W - D.", "",
            f"    {data['baseline']}", "",
            "| -t | D (us), from | measured wall (s) | model wall (s) | error | measured (req/s) | model (req/s) "
            "| error | naive N/W (req/s) | naive error |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    worst = 0.0
    for r in rows:
        p = r["p"]
        ew, ex = err(r["wall"], p["wallSeconds"]), err(r["x"], p["throughput"])
        worst = max(worst, abs(ew), abs(ex))
        naive = "-" if r["naiveX"] is None else f"{r['naiveX']:,.0f} | {err(r['x'], r['naiveX']):+.1f}%"
        out.append(f"| {r['threads']} | {p['dNanos'] / 1e3:.1f}, {r.get('source', '-')} | {r['wall']:.2f} "
                   f"| {p['wallSeconds']:.2f} | {ew:+.1f}% | {r['x']:,.0f} "
                   f"| {p['throughput']:,.0f} | {ex:+.1f}% | {naive} |")
    verdict = "met" if worst <= TARGET[kind] else "NOT met"
    out += ["", f"Largest error {worst:.1f}% against a target of {TARGET[kind]:.0f}%: {verdict} in this sweep. "
            "error = (measured - predicted) / predicted; the model's wall time follows the phase schedule.", ""]
    out += repeats_section(kind)
    return out


def pick(d, *names):
    """The first of names present in dict d (the capped table's keys are the scale-out helper's to choose)."""
    for n in names:
        if isinstance(d, dict) and d.get(n) is not None:
            return d[n]
    return None


def capped_section():
    out = ["## Capped servers (scale-out)", ""]
    if not os.path.exists(SCALE_OUT_JSON):
        return out + ["data/scale-out.json is absent: the capped scale-out (`bench/scale_out.py --server-cpus 0.25`) "
                      "has not published its machine-readable results, so there is no capped prediction yet. Once "
                      "it exists, rerun `python3 bench/theory.py --from-runs`.", ""]
    with open(SCALE_OUT_JSON) as f:
        data = json.load(f)
    rows = data if isinstance(data, list) else pick(data, "byServers", "rows", "servers", "results") or []
    top_cap = pick(data, "capCpus", "cap", "serverCpus", "cpus")
    front = pick(data, "frontCapacity", "frontThroughput")
    out += ["Capacity per server = cap / D_server (the cgroup's CPU over the server CPU per ride, both measured by "
            "bench/scale_out.py); predicted throughput = servers x cap / D_server"
            + (f", bounded by the front's {front:,.0f} req/s" if front else "") + ".", "",
            "| servers | cap (CPU) | D_server (us) | predicted (req/s) | measured (req/s) | error | with 1 server's D |",
            "|---:|---:|---:|---:|---:|---:|---:|"]
    worst = 0.0
    d_one = None
    for r in rows:
        n = pick(r, "servers", "serverCount", "n")
        cap = pick(r, "capCpus", "cap", "serverCpus") or top_cap
        d = pick(r, "dServerMicros", "serverCpuPerRideMicros", "serverCpuPerRideUs")
        if d is None and pick(r, "dServerNanos", "serverCpuPerRideNanos") is not None:
            d = pick(r, "dServerNanos", "serverCpuPerRideNanos") / 1e3
        x = pick(r, "throughput", "measuredThroughput", "throughputMedian")
        if isinstance(x, dict):  # scale_out.py writes {median, min, max}
            x = x.get("median")
        if not (n and cap and d and x):
            out.append(f"| {n} | {cap} | {d} | - | {x} | - (a field is missing: {sorted(r) if isinstance(r, dict) else r}) |")
            continue
        pred = n * cap / (d / 1e6)
        if front:
            pred = min(pred, front)
        worst = max(worst, abs(err(x, pred)))
        d_one = d if d_one is None else d_one
        ideal = n * cap / (d_one / 1e6)
        out.append(f"| {n} | {cap} | {d:.1f} | {pred:,.0f} | {x:,.0f} | {err(x, pred):+.1f}% | "
                   f"{ideal:,.0f} ({err(x, ideal):+.1f}%) |")
    return out + ["", f"Largest error {worst:.1f}% against a target of {TARGET['capped']:.0f}%. Each row's D_server "
                      "is measured in the same rounds, so the model explains the table once D_server is known; the "
                      "last column predicts from the first row's D_server alone, and its growing miss is D_server's "
                      "growth with the server count (data/scale-out.md), which the model does not predict.", ""]


def write(a, total_seconds):
    wan, loop = read_sweep("wan"), read_sweep("loopback")
    lines = ["# A theory that predicts", "",
             "Every client run predicts its own wall time and throughput before it starts, then measures them. The "
             "model is mean value analysis of a closed network: the N threads of each phase (phases overlap as the "
             "schedule says), a CPU station of C cores with demand D per request, and a delay station Z for "
             "what does not use this machine's CPU (the network round trip; a remote server's time). Exact MVA for "
             "a multi-server station (client-part1's `Prediction.Network`); a thread with n threads busy takes n / X(n) "
             "per request. W comes from the single-thread baseline, D (process CPU / requests: the client's, plus "
             "the embedded server's on loopback) from the runs themselves: the previous run's, or what an earlier "
             "invocation on this machine, server and transport stored (docs/model.md), Z = W - D. The naive N / W "
             "(the assignment's) is kept beside it.", "",
             f"Written by `python3 bench/theory.py` in {total_seconds:.0f} s. Load average now: {loadavg()} "
             f"(2 cores).", ""]
    lines += sweep_section("wan", f"WAN: through Toxiproxy at {a.wan_rtt} round trip", wan)
    lines += sweep_section("loopback", "Loopback: client and embedded server on the same 2 cores", loop)
    lines += capped_section()
    with open(THEORY_MD, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {os.path.relpath(THEORY_MD, ROOT)} ({total_seconds:.0f} s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--only", default="wan,loopback,capped")
    ap.add_argument("--wan-rtt", default="40ms")
    ap.add_argument("--wan-cluster", action="store_true",
                    help="WAN sweep through the local cluster (Redis, nginx) instead of one in-memory server")
    ap.add_argument("--wan-baseline", type=int, default=200,
                    help="the WAN sweep's --baseline (each request waits the round trip: 10,000 would take 13 min)")
    ap.add_argument("-t", dest="threads", default="32,64,128,256")
    ap.add_argument("-s", dest="skiers", type=int, default=20000)
    ap.add_argument("-l", dest="lifts", type=int, default=40)
    ap.add_argument("-m", dest="runs", type=int, default=10)
    ap.add_argument("--loopback-sweeps", type=int, default=3,
                    help="loopback sweeps back to back (each about 40 s); data/theory.md lists every one, the last is "
                         "the published data/sweep")
    ap.add_argument("--from-runs", action="store_true", help="only rewrite data/theory.md from the published sweeps")
    a = ap.parse_args()
    started = time.monotonic()
    if not a.from_runs:
        if not a.skip_build:
            sh(["mvn", "-B", "-q", "-DskipTests", "install"], cwd=ROOT)
        only = a.only.split(",")
        if "wan" in only:
            sweep("wan", a)
        if "loopback" in only:
            reps = []
            for _ in range(a.loopback_sweeps):
                sweep("loopback", a)
                reps.append(repeat_record(read_sweep("loopback")))
            with open(os.path.join(SWEEPS["loopback"], "theory-repeats.json"), "w") as f:
                json.dump(reps, f, indent=1)
    write(a, time.monotonic() - started)


if __name__ == "__main__":
    main()
