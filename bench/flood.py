#!/usr/bin/env python3
"""A flood of valid POSTs, each to a new resort, season and day, against one server at -Xmx256m (issue 17).

Starts servlet/target/liftride-server.jar (in-memory store, default limits) in a JVM with -Xmx256m,
then runs `wrk -t2 -c64` with servlet/bench/flood.lua: TOTAL (default 1,000,000) valid rides, every
one to a (resort, season, day) never used before, over 2,000 resorts, so the flood runs into every
limit of the store (resorts, seasons per resort, resort days, skier days). Meanwhile a second client posts rides to one existing resort, season and day (resort 1,
2022, day 1, skiers 1..100) with an Idempotency-Key each, one at a time, and every few seconds the
script reads the server's live heap with `jcmd PID GC.class_histogram` (a full GC, then the bytes of
every reachable object). Checks, each a failure when broken:
  - the server is alive at the end and answers /statistics;
  - no answer to the flood is a 5XX (201 until a limit is reached, then 409);
  - every ride to the existing day got 201, and each skier's day vertical reads back exactly;
  - the server's ridesStored grew by the 201s (flood and existing together), plus at most what wrk
    gave up on (its 2 s timeouts) or left in flight when stopped (64 connections);
  - the live heap after a full GC stayed under 200 MB.
Writes data/flood.md (the heap curve as a table, the status counts, the load average).

Usage: python3 bench/flood.py [--total 1000000] [--skip-build]
Loopback only; bounded: wrk stops after TOTAL answers or 900 s.
"""
import argparse
import datetime
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from benchlib import ensure, loadavg, sh

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_JAR = os.path.join(ROOT, "servlet", "target", "liftride-server.jar")
FLOOD_LUA = os.path.join(ROOT, "servlet", "bench", "flood.lua")
OUT = os.path.join(ROOT, "data", "flood.md")
HEAP_LIMIT_MB = 200
EXISTING_SKIERS = 100
EXISTING_DAY = 366  # a day neither flood shape reaches within 18,000,000 requests


class Server:
    """The server jar in its own JVM at -Xmx256m on a free loopback port."""

    def __init__(self):
        args = ["java", "-Xmx256m", "-jar", SERVER_JAR, "--host", "127.0.0.1", "--port", "0", "--management-port", "0"]
        print("+ " + " ".join(args), file=sys.stderr, flush=True)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 60
        self.port = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/liftride", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            self.proc.kill()
            raise SystemExit("the server did not start")
        threading.Thread(target=self._drain, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.port}/liftride"

    def _drain(self):
        self.log = []
        for line in self.proc.stdout:
            self.log.append(line)

    def alive(self):
        return self.proc.poll() is None

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, "/liftride" + path, body=body, headers=headers or {})
            r = conn.getresponse()
            return r.status, r.read().decode()
        finally:
            conn.close()

    def statistics(self):
        status, body = self.request("GET", "/statistics")
        if status != 200:
            raise SystemExit(f"/statistics answered {status}: {body}")
        return json.loads(body)

    def rides_stored(self):
        return self.statistics()["ridesStored"]

    def ride_posts(self):
        """Ride POSTs the server has answered, from /statistics."""
        return sum(e["count"] for e in self.statistics()["endpointStats"]
                   if e["operation"] == "POST" and e["URL"].startswith("/skiers/"))

    def live_heap_mb(self):
        """Live heap in MB: the total of `jcmd PID GC.class_histogram`, which runs a full GC first and
        counts only reachable objects. (GC.run then GC.heap_info would also count the garbage the flood
        allocates in the second or two between the two commands.)"""
        out = subprocess.run(["jcmd", str(self.proc.pid), "GC.class_histogram"], capture_output=True,
                             text=True, timeout=120).stdout
        m = re.search(r"^Total\s+\d+\s+(\d+)\s*$", out, re.M)
        if not m:
            raise SystemExit("cannot read jcmd GC.class_histogram:\n" + out[-2000:])
        return int(m.group(1)) / (1024 * 1024)

    def close(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class ExistingRides(threading.Thread):
    """Rides to resort 1, 2022, day 366, skiers 1..100, one at a time with a key each, until stopped."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.stop = threading.Event()
        self.sent = 0
        self.created = 0
        self.other = {}
        self.vertical = {}
        self.conn = None

    def seed(self):
        """One ride per skier, before the flood: the day and skier days then exist."""
        while self.sent < EXISTING_SKIERS:
            self.post_one(None)

    def run(self):
        while not self.stop.is_set():
            self.post_one(None)
            time.sleep(0.005)

    def post_one(self, _):
        """One ride with its own key on the kept connection; counts the answer."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        skier = 1 + self.sent % EXISTING_SKIERS
        lift = 1 + self.sent % 60
        body = json.dumps({"liftID": lift, "time": 100})
        key = f"flood-existing-{self.sent}"
        self.sent += 1
        try:
            self.conn.request("POST", f"/liftride/skiers/1/seasons/2022/days/{EXISTING_DAY}/skiers/{skier}",
                              body=body, headers={"Content-Type": "application/json", "Idempotency-Key": key})
            r = self.conn.getresponse()
            r.read()
            status = r.status
        except (OSError, http.client.HTTPException) as e:
            status = type(e).__name__
            self.conn.close()
            self.conn = None
        if status == 201:
            self.created += 1
            self.vertical[skier] = self.vertical.get(skier, 0) + lift * 10
        else:
            self.other[status] = self.other.get(status, 0) + 1


SHAPES = {
    "days": "each to a (resort, season, day) never used before, over 2,000 resorts (twice the resort limit),"
            " so it runs into the resort, season and resort-day limits",
    "skiers": "each a new skier day (and a new skier-season total) at the seeded resorts' season 2022,"
              " so it runs into the skier-day limit with the most memory a ride can take",
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--total", type=int, default=1_000_000)
    p.add_argument("--sample-seconds", type=float, default=5.0)
    p.add_argument("--shapes", default="days,skiers")
    p.add_argument("--skip-build", action="store_true")
    a = p.parse_args()
    ensure("wrk", "wrk")
    if not shutil.which("jcmd"):
        raise SystemExit("jcmd not found: it comes with the JDK (17+) that builds the project")
    if not a.skip_build or not os.path.exists(SERVER_JAR):
        sh(["mvn", "-B", "-q", "-DskipTests", "package", "-pl", "servlet", "-am"], cwd=ROOT)
    results = [flood(shape, a) for shape in a.shapes.split(",")]
    write_report(a, results)
    failed = False
    for r in results:
        for name, ok in r["checks"]:
            print(("OK    " if ok else "FAIL  ") + r["shape"] + ": " + name)
            failed = failed or not ok
    if failed:
        raise SystemExit(1)


def flood(shape, a):
    """One flood of one shape against a fresh server; returns what the report needs."""
    load_before = loadavg()
    server = Server()
    try:
        stored_before = server.rides_stored()
        existing = ExistingRides(server)
        existing.seed()  # its resort day and skier days exist before the flood fills the store
        curve = [(0.0, 0, server.live_heap_mb())]
        existing.start()
        env = dict(os.environ, TOTAL=str(a.total), WRK_THREADS="2", SHAPE=shape)
        cmd = ["wrk", "-t2", "-c64", "-d900s", "-s", FLOOD_LUA, server.base]
        print(f"+ SHAPE={shape} TOTAL={a.total} " + " ".join(cmd), file=sys.stderr, flush=True)
        started = time.monotonic()
        wrk = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        next_sample = started + a.sample_seconds
        # wrk's threads stop after their share of answers, but wrk itself sleeps out -d: once the server
        # has answered every flood request, SIGINT makes it stop and print its report.
        while wrk.poll() is None and server.alive():
            time.sleep(0.5)
            if server.ride_posts() - existing.sent >= a.total:
                wrk.send_signal(signal.SIGINT)
            if time.monotonic() >= next_sample:
                point = (time.monotonic() - started, server.rides_stored() - stored_before, server.live_heap_mb())
                curve.append(point)
                print(f"  t={point[0]:6.1f} s  stored {point[1]:>9,}  live heap {point[2]:6.1f} MB",
                      file=sys.stderr)
                next_sample = time.monotonic() + a.sample_seconds
        wrk_out = wrk.communicate(timeout=60)[0]
        seconds = time.monotonic() - started
        existing.stop.set()
        existing.join(30)
        alive = server.alive()
        curve.append((time.monotonic() - started, server.rides_stored() - stored_before, server.live_heap_mb()))
        statuses = {int(s): int(n) for s, n in re.findall(r"^status (\d+) (\d+)$", wrk_out, re.M)}
        stored_delta = server.rides_stored() - stored_before
        mismatched = []
        for skier, want in sorted(existing.vertical.items()):
            status, body = server.request("GET", f"/skiers/1/seasons/2022/days/{EXISTING_DAY}/skiers/{skier}")
            if status != 200 or int(body) != want:
                mismatched.append((skier, want, status, body))
        load_after = loadavg()
    finally:
        server.close()

    answered = sum(statuses.values())
    # wrk counts no answer for a request past its 2 s timeout or in flight when SIGINT stops it;
    # the server may have stored those: at most one per connection plus the timeouts
    timeouts = re.search(r"timeout (\d+)", wrk_out)
    in_flight = 64 + (int(timeouts.group(1)) if timeouts else 0)
    server_errors = sum(n for s, n in statuses.items() if s >= 500)
    peak = max(mb for _, _, mb in curve)
    created = statuses.get(201, 0) + existing.created
    checks = [
        ("server alive at the end", alive),
        (f"flood answered {answered:,} of {a.total:,}", answered >= a.total - 2),
        ("no 5XX", server_errors == 0 and not any(isinstance(s, int) and s >= 500 for s in existing.other)),
        ("every ride to an existing day stored (201)", not existing.other and existing.created > 0),
        ("every existing skier's day vertical reads back exactly", not mismatched),
        (f"ridesStored grew by the 201s, plus at most the {in_flight} requests wrk gave up on or left in flight "
         f"(grew {stored_delta:,}, 201s {created:,})", 0 <= stored_delta - created <= in_flight),
        (f"live heap after full GC < {HEAP_LIMIT_MB} MB (peak {peak:.1f} MB)", peak < HEAP_LIMIT_MB),
    ]
    if any(not ok for _, ok in checks):
        print(wrk_out, file=sys.stderr)
    return {"shape": shape, "curve": curve, "statuses": statuses, "existing": existing, "seconds": seconds,
            "stored_delta": stored_delta, "checks": checks, "load": (load_before, load_after)}


def write_report(a, results):
    lines = [
        "# A flood of new resorts, seasons and days against one server at -Xmx256m",
        "",
        f"Written by `python3 bench/flood.py --total {a.total} --shapes {a.shapes}` on "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC (issue 17), on a 2-core machine",
        "shared with other builds (load averages below).",
        "",
        "Each flood: a fresh `java -Xmx256m -jar servlet/target/liftride-server.jar` (in-memory store, default",
        "limits: 1,000 resorts, 100 seasons per resort, 25,000 resort days, 250,000 skier days, 32 MiB of keys),",
        f"`wrk -t2 -c64` with `servlet/bench/flood.lua` sending {a.total:,} valid POSTs, and beside it one client",
        f"posting rides to resort 1, season 2022, day {EXISTING_DAY} (skiers 1..{EXISTING_SKIERS}, each seeded with",
        "one ride before the flood), one at a time, each with its own Idempotency-Key. The live heap is the total",
        "of `jcmd PID GC.class_histogram` (a full GC, then every reachable object).",
        "",
    ]
    for r in results:
        existing = r["existing"]
        lines += [
            f"## Shape `{r['shape']}`: {SHAPES[r['shape']]}",
            "",
            f"Load average before {r['load'][0]}, after {r['load'][1]}.",
            "",
        ]
        lines += [f"- {'OK' if ok else 'FAIL'}: {name}" for name, ok in r["checks"]]
        lines += [
            "",
            f"Flood answers by status: {', '.join(f'{s}: {n:,}' for s, n in sorted(r['statuses'].items()))} "
            f"in {r['seconds']:.0f} s. Rides to the existing day: {existing.created:,}, all 201"
            f"{'' if not existing.other else ', others: ' + str(existing.other)}; "
            f"ridesStored grew by {r['stored_delta']:,}.",
            "",
            "| seconds into the flood | rides stored so far | live heap after full GC (MB) |",
            "|---:|---:|---:|",
        ]
        lines += [f"| {t:.0f} | {stored:,} | {mb:.1f} |" for t, stored, mb in r["curve"]]
        lines.append("")
    with open(OUT, "w") as f:
        f.write("\n".join(lines))
    print("wrote " + os.path.relpath(OUT, ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
