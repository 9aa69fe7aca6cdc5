# What every bench/bench_*.sh starts with (sourced): the binary under test,
# the tree, the runs per figure (BENCH_RUNS, default 3), a scratch folder
# removed on exit, and the median of numbers read one per line.
set -u
SBFS=${SBFS:-./sbfs}
top=${SBFS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
runs=${BENCH_RUNS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
