#!/usr/bin/env python3
"""How big is report.html, how long does it take to render, and what does it look like? (issue 19)

Runs client-part2 once (embedded server, loopback) with the sweep given, reads the line it prints after the
sweep, "Report: .../report.html (N bytes, rendered in X ms)" (System.nanoTime() around HtmlReport.write: the
model's page built, uPlot inlined, the file written), and takes a screenshot of the page's top with the same
headless Chromium the browser test uses (Debian's `chromium`; --no-sandbox, as root). The 1-minute load
average is read before and after the run and published with the numbers.

Usage: python3 bench/report_html.py [-t 32,64,128,256] [-s 20000] [-l 40] [-m 10] [--skip-build]
Writes data/report-html.md and data/report-html.png. Loopback only; the run is bounded by its plan.
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys

from benchlib import load1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAR = os.path.join(ROOT, "client-part2", "target", "client-part2.jar")
OUT_MD = os.path.join(ROOT, "data", "report-html.md")
OUT_PNG = os.path.join(ROOT, "data", "report-html.png")
REPORT_LINE = re.compile(r"^Report: (\S+report\.html) \(([\d,]+) bytes, rendered in ([\d.]+) ms\)$", re.M)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-t", default="32,64,128,256")
    ap.add_argument("-s", default="20000")
    ap.add_argument("-l", default="40")
    ap.add_argument("-m", default="10")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--height", type=int, default=2200, help="screenshot height in CSS pixels")
    a = ap.parse_args()
    if not a.skip_build:
        subprocess.run(["mvn", "-B", "-q", "-pl", "client-part2", "-am", "-DskipTests", "package"], cwd=ROOT,
                       check=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = os.path.join("data", "runs", "report-html-" + stamp)  # relative: the page shows the command
    cmd = ["java", "-jar", os.path.relpath(JAR, ROOT), "-t", a.t, "-s", a.s, "-l", a.l, "-m", a.m, "--out", out_dir,
           "--verbose"]  # --verbose prints the page's size and render time
    load_before = load1()
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, cwd=ROOT)
    load_after = load1()
    if run.returncode != 0:
        sys.exit("client-part2 exited with %d:\n%s\n%s" % (run.returncode, run.stdout[-3000:], run.stderr[-3000:]))
    m = REPORT_LINE.search(run.stdout)
    if not m:
        sys.exit("no report.html line in the output:\n" + run.stdout[-3000:])
    page = os.path.join(ROOT, m.group(1))
    size, render_ms = int(m.group(2).replace(",", "")), float(m.group(3))
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("chromium is not installed: apt-get install -y chromium")
    subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1280,%d" % a.height, "--virtual-time-budget=3000",
                    "--screenshot=" + OUT_PNG, "file://" + os.path.abspath(page)],
                   check=True, capture_output=True, timeout=120)
    command = "java -jar client-part2/target/client-part2.jar -t %s -s %s -l %s -m %s" % (a.t, a.s, a.l, a.m)
    with open(OUT_MD, "w") as f:
        f.write("# report.html: size and render time\n\n")
        f.write("Measured by `python3 bench/report_html.py -t %s -s %s -l %s -m %s` on %s, %s (%d cores), %s.\n\n"
                % (a.t, a.s, a.l, a.m, platform.node() and "this machine", platform.machine(), os.cpu_count(),
                   datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")))
        f.write("| command | report.html | render (HtmlReport.write, nanoTime) | load average before / after |\n")
        f.write("|---|---:|---:|---|\n")
        f.write("| `%s` | %s bytes (%.0f KB) | %.1f ms | %s / %s |\n\n" % (command, format(size, ","), size / 1024,
                                                                       render_ms, load_before, load_after))
        f.write("The page holds everything: uPlot %s (about 50 KB), its styles, the charts' data as JSON (each run's"
                " time buckets, percentile curves) and the tables. Its top, as headless Chromium draws it:\n\n"
                % "1.6.30")
        f.write("![report.html of this sweep](report-html.png)\n")
    print("report.html %s bytes, rendered in %.1f ms (load %s / %s); wrote %s and %s"
          % (format(size, ","), render_ms, load_before, load_after, OUT_MD, OUT_PNG))


if __name__ == "__main__":
    main()
