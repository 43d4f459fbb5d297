#!/bin/sh
# Prints load.yaml and merge.yaml for one run, ready for `kubectl apply -f -`: SHARDS shards (default 4, the
# manifests' own count) that start at START (default: two minutes from now, UTC).
# Usage: load.sh [SHARDS [START]]   e.g. cluster/k8s/load.sh 8 | kubectl apply -f -
set -eu
dir=$(dirname "$0")/manifests
n=${1:-4}
case $n in
    '' | *[!0-9]* | 0*) echo "load.sh: SHARDS must be an integer in 1..1024, got $n" >&2; exit 2 ;;
esac
[ "$n" -le 1024 ] || { echo "load.sh: SHARDS must be an integer in 1..1024, got $n" >&2; exit 2; }
# GNU date (Linux) or BSD date (macOS)
start=${2:-$(date -u -d '+2 minutes' +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -v+2M +%Y-%m-%dT%H:%M:%SZ)}
folders=/results/shard-0
i=1
while [ "$i" -lt "$n" ]; do folders="$folders, /results/shard-$i"; i=$((i + 1)); done
sed -e "s/^  completions: 4$/  completions: $n/" -e "s/^  parallelism: 4$/  parallelism: $n/" \
    -e "s|--shard, auto/4,|--shard, auto/$n,|" -e "s/2026-12-01T09:00:00Z/$start/" "$dir/load.yaml"
echo ---
sed -e "s/ -ge 4 ]/ -ge $n ]/" \
    -e "s|/results/shard-0, /results/shard-1, /results/shard-2, /results/shard-3,|$folders,|" "$dir/merge.yaml"
