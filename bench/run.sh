#!/bin/sh
# Runs every bench/bench_*.sh in turn.  Each prints its own figures; this
# script adds a header naming the machine so figures can be compared.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export SBFS=${SBFS:-$top/sbfs} SBFS_TOP=$top SBFS_BUILD=${SBFS_BUILD:-$top/build/opt}
echo "sbfs bench: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
status=0
for b in "$top"/bench/bench_*.sh; do
    [ -f "$b" ] || continue
    echo; echo "== $(basename "$b" .sh)"
    sh "$b" || status=1
done
exit $status
