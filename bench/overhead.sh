#!/usr/bin/env bash
# client-part2's overhead / memory / report-time benchmark (issue 4). All logic is in overhead.py;
# see its header, or run with --help. Default: the full bar (the recording code's JMH benchmark,
# RecorderCostBenchmark in bench/, then 1 uncounted + 11 interleaved rounds of -t 64 -s 20000
# -m 10, then the 1.8M-request memory run), written to data/part2-bench.md.
set -euo pipefail
exec python3 "$(dirname "$0")/overhead.py" "$@"
