"""What every benchmark script in bench/ needs, written once: run a command, install a missing program,
find a free port, read the load average and a process's CPU, start a LiftRide server and wait for it, and
summarise repeated measurements as a median with its range.

The scripts run as `python3 bench/NAME.py`, so this file's folder is on their import path.
"""
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")
BENCH_TARGET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target")
BENCH_BUILT = os.path.join(BENCH_TARGET, "classpath.txt")  # the bench module's package writes it


def bench_classpath():
    """The bench module's test classes (probes, bare server, JMH benchmarks) and their class path, for java -cp."""
    with open(BENCH_BUILT) as f:
        return os.path.join(BENCH_TARGET, "test-classes") + os.pathsep + f.read().strip()


def sh(cmd, **kw):
    """Runs cmd (a list), echoing it to stderr first; a non-zero exit raises."""
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def ensure(program, package):
    """Installs Debian's package when program is not on the PATH (the scripts run as root, as CI does)."""
    if shutil.which(program):
        return
    print(f"{program} not found: installing Debian's {package}", file=sys.stderr)
    sh(["apt-get", "update", "-qq"])
    sh(["apt-get", "install", "-y", "-qq", package])


def free_port():
    """A TCP port free on 127.0.0.1 now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def loadavg():
    """The 1, 5 and 15 minute load averages as /proc/loadavg prints them, e.g. "0.52 0.48 0.30"."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def load1():
    """The 1-minute load average."""
    return float(loadavg().split()[0])


def cpu_seconds(pid):
    """User + system CPU seconds process pid has used (/proc/PID/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def wait_for_http(url, proc, seconds=60, what="server"):
    """Polls url until it answers 2xx; kills proc and exits with one line when seconds pass first."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"{what} did not answer {url} within {seconds} s")


def start_server(server_jar, port, jvm_args=(), management_port=0):
    """liftride-server.jar on 127.0.0.1:port, /metrics on 127.0.0.1:management_port (in memory, 512 MB heap),
    returned once it is ready."""
    cmd = ["java", "-Xms512m", "-Xmx512m", *jvm_args, "-jar", server_jar,
           "--host", "127.0.0.1", "--port", str(port), "--management-port", str(management_port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_http(f"http://127.0.0.1:{port}/liftride/health/ready", proc, what=" ".join(cmd))
    return proc


def med_range(xs, fmt="{:.3f}"):
    """ "median (min-max)" of xs, each formatted with fmt."""
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


def run_counts(out):
    """The first run's counts from the client's console summary ("requests   N successful, F failed,
    R retries; wall W s, X req/s"; "server stored S: OK"), or None when it printed none."""
    m = re.search(r"^\s+requests\s+([\d,]+) successful, ([\d,]+) failed, ([\d,]+) retries; "
                  r"wall ([\d.]+) s, ([\d,.]+) req/s", out, re.M)
    if not m:
        return None
    n = [float(g.replace(",", "")) for g in m.groups()]
    stored = re.search(r"; server stored ([\d,]+): (OK|MISMATCH)", out)
    return {"ok": int(n[0]), "failed": int(n[1]), "retries": int(n[2]), "wall_s": n[3], "rps": n[4],
            "stored": int(stored.group(1).replace(",", "")) if stored else None,
            "reconciled": "MISMATCH" not in out}
