# Tetraminx: building the God table, and solving 100,000 random positions
# (seed 1999) optimally, as the 1999 Challenge did.  Each figure is the
# median of RUNS runs (default 5) on one core.  The target is under 0.5 s
# for the whole job: table plus 100,000 solutions.
set -u
SBFS=${SBFS:-./sbfs}
RUNS=${RUNS:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

"$SBFS" tetraminx random 100000 --seed 1999 > "$tmp/pos" || exit 1

: > "$tmp/god"; : > "$tmp/wall"; : > "$tmp/build"; : > "$tmp/solve"
for i in $(seq "$RUNS"); do
    a=$(ms); taskset -c 0 "$SBFS" tetraminx god > /dev/null 2>&1 || "$SBFS" tetraminx god > /dev/null
    b=$(ms); echo $((b - a)) >> "$tmp/god"
    a=$(ms)
    { taskset -c 0 "$SBFS" tetraminx solve --stats "$tmp/pos" 2> "$tmp/stats" ||
        "$SBFS" tetraminx solve --stats "$tmp/pos" 2> "$tmp/stats"; } > "$tmp/sol"
    b=$(ms); echo $((b - a)) >> "$tmp/wall"
    # "table built in X ms; N positions solved in Y ms, M moves"
    sed 's/.*built in \([0-9.]*\) ms.*/\1/' "$tmp/stats" >> "$tmp/build"
    sed 's/.*solved in \([0-9.]*\) ms.*/\1/' "$tmp/stats" >> "$tmp/solve"
done
moves=$(sed 's/.*ms, \([0-9]*\) moves/\1/' "$tmp/stats")
lines=$(wc -l < "$tmp/sol")
echo "table build (in process):           $(median < "$tmp/build") ms"
echo "sbfs god tetraminx (whole process):  $(median < "$tmp/god") ms"
echo "solve 100000 positions (in process): $(median < "$tmp/solve") ms, $moves moves in all"
echo "table + 100000 solutions (wall):     $(median < "$tmp/wall") ms  (target 500 ms)"
echo "  median of $RUNS runs, pinned to one core; $lines solutions written"
# A sample of the answers, checked by the independent verifier.
head -n 200 "$tmp/pos" > "$tmp/p200"; head -n 200 "$tmp/sol" > "$tmp/s200"
if [ -x "${SBFS_BUILD:-build/opt}/verify_tetraminx" ]; then
    SBFS_BUILD=${SBFS_BUILD:-build/opt} "${SBFS_TOP:-.}/tests/verify" tetraminx "$tmp/p200" "$tmp/s200" |
        sed 's/^/  sample: /'
fi
