#!/usr/bin/env python3
"""Kill runs for the Redis store (issue 10's "done when"): a full load with a process SIGKILLed mid-run.

  redis   one LiftRide server on a real Redis (servlet/redis/redis.conf: AOF); Redis is SIGKILLed
          KILL_AT seconds into the client's run (counted from the first stored rides, after warm-up) and restarted from its AOF RESTART_AFTER seconds later.
  server  the local cluster (LocalCluster: Redis, 2 servers, nginx round robin); one of the two
          servers is SIGKILLed KILL_AT seconds into the run and left dead.

Both run client-part1 with a backoff that outlasts the outage (--backoff-ms 500 --backoff-max-ms 4000),
so a ride whose 201 was lost is retried with the same Idempotency-Key. Pass = the client's own
reconciliation line says the server's ridesStored delta equals its successes exactly, and no 500 was
answered. Loopback only; bounded (the client gives up on a server silent for 15 s).

Usage: python3 bench/kill_runs.py redis|server [--threads 64 --skiers 20000 --runs 20] [--transport sdk|raw]
Prints the client's summary and a one-line verdict; exit 0 when it reconciles exactly.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from benchlib import free_port, run_counts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
CLUSTER_JAR = os.path.join(ROOT, "cluster", "target", "liftride-cluster.jar")
CLIENT_JAR = os.path.join(ROOT, "client-part1", "target", "client-part1.jar")
REDIS_CONF = os.path.join(ROOT, "servlet", "redis", "redis.conf")


def wait_for(pattern, stream, seconds=60):
    deadline = time.time() + seconds
    lines = []
    while time.time() < deadline:
        line = stream.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(pattern, line)
        if m:
            return m, lines
    raise SystemExit("did not see " + pattern + " in:\n" + "".join(lines))


def start_redis(port, data_dir):
    proc = subprocess.Popen(["redis-server", REDIS_CONF, "--port", str(port), "--bind", "127.0.0.1",
                             "--dir", data_dir, "--daemonize", "no", "--logfile", os.path.join(data_dir, "redis.log")])
    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(port), "PING"], capture_output=True, text=True).stdout.strip() == "PONG":
            return proc
        time.sleep(0.1)
    raise SystemExit("redis-server did not start")


def rides_stored(base):
    import json
    import urllib.request
    try:
        with urllib.request.urlopen(base + "/statistics", timeout=5) as r:
            return json.load(r)["ridesStored"]
    except Exception:
        return -1


def client(base, a):
    return subprocess.Popen(
        ["java", "-jar", CLIENT_JAR, "-t", str(a.threads), "-s", str(a.skiers), "-m", str(a.runs), "-i", base,
         "--transport", a.transport, "--backoff-ms", "500", "--backoff-max-ms", "4000", "--baseline", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def follow(proc, out):
    for line in proc.stdout:
        out.append(line)
        sys.stdout.write(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=["redis", "server"])
    ap.add_argument("--threads", type=int, default=64)
    ap.add_argument("--skiers", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--transport", default="sdk")
    ap.add_argument("--kill-at", type=float, default=3.0)
    ap.add_argument("--restart-after", type=float, default=2.0)
    a = ap.parse_args()
    data_dir = tempfile.mkdtemp(prefix="liftride-kill-")
    procs = []
    try:
        if a.scenario == "redis":
            rport = free_port()
            redis = start_redis(rport, data_dir)
            procs.append(redis)
            server = subprocess.Popen(["java", "-jar", SERVER_JAR, "--host", "127.0.0.1", "--port", "0", "--management-port", "0",
                                       "--store", f"redis://127.0.0.1:{rport}"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            procs.append(server)
            base = wait_for(r"(http://127\.0\.0\.1:\d+/liftride)", server.stdout)[0].group(1)
            victim = lambda: redis
        else:
            cluster = subprocess.Popen(["java", "-jar", CLUSTER_JAR, "--server-jar", SERVER_JAR,
                                        "--servers", "2", "--port", "0"],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            procs.append(cluster)
            m, lines = wait_for(r"LiftRide cluster listening on (http://127\.0\.0\.1:\d+/liftride)", cluster.stdout, 120)
            base = m.group(1)
            pids = [int(p) for p in re.findall(r"server\s*\d+\s+\S+\s+pid (\d+)", "".join(lines))]
            victim = None
        out = []
        c = client(base, a)
        reader = threading.Thread(target=follow, args=(c, out), daemon=True)
        reader.start()
        # the run's clock: from the moment the server's ride count starts to grow (after the client's warm-up)
        initial = rides_stored(base)
        while c.poll() is None and rides_stored(base) < initial + 1000:
            time.sleep(0.05)
        time.sleep(a.kill_at)
        if a.scenario == "redis":
            redis.kill()
            redis.wait()
            print(f"*** SIGKILL redis-server at {a.kill_at:.1f} s; restarting in {a.restart_after:.1f} s", flush=True)
            time.sleep(a.restart_after)
            procs.append(start_redis(rport, data_dir))
            print("*** redis-server restarted from its AOF", flush=True)
        else:
            os.kill(pids[0], signal.SIGKILL)
            print(f"*** SIGKILL server 1 (pid {pids[0]}) at {a.kill_at:.1f} s; it stays dead", flush=True)
        c.wait(timeout=1800)
        reader.join(10)
        text = "".join(out)
        rec = run_counts(text)
        if not rec or rec["stored"] is None:
            print("VERDICT: no server reconciliation line in the client's output")
            sys.exit(1)
        delta, successful = rec["stored"], rec["ok"]
        ok = rec["reconciled"] and delta == successful
        print(f"VERDICT: {a.scenario} killed mid-run: server delta {delta}, client successful {successful}: "
              + ("EXACT" if ok else "MISMATCH") + f"; client exit {c.returncode}")
        sys.exit(0 if ok else 1)
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
