# sbfs verify against the independent checker (tests/verify): the same
# verdict on every solution sbfs solve prints, in every style, and on
# copies broken on purpose (two moves swapped, the last move dropped, a
# step turned round, a false count); the --moves and --json forms of each
# good solution verify too; and the exact messages of a few failures.
. tests/cli/lib.sh

# broken copies of a solve output $1 of N moves into $T_TMP/b1..b4
break_copies() {
    awk '/^move 1: /{a=substr($0, 9)} /^move 2: /{b=substr($0, 9)} {l[NR]=$0}
         END{for (i = 1; i <= NR; i++) { s = l[i];
             if (s ~ /^move 1: /) s = "move 1: " b; else if (s ~ /^move 2: /) s = "move 2: " a; print s }}' "$1" > "$T_TMP/b1"
    awk -v n="$2" '$0 ~ "^move " n ": " {next} /^solution: /{print "solution: " n - 1 " moves"; next} {print}' "$1" > "$T_TMP/b2"
    awk -v m=$((($2 + 1) / 2)) '$0 ~ "^move " m ": " {
             if (!sub(/ up/, " DOWN")) if (!sub(/ down/, " UP")) if (!sub(/ left/, " RIGHT")) sub(/ right/, " LEFT");
             $0 = tolower($0) } {print}' "$1" > "$T_TMP/b3"
    awk '/^solution: /{print "solution: " $2 + 1 " moves"; next} {print}' "$1" > "$T_TMP/b4"
}

verdict() { "$@" >/dev/null 2>&1 && echo ok || echo wrong; }

for p in puzzles/silly.txt puzzles/shift.txt puzzles/klotski.txt puzzles/eight-sample.txt \
         puzzles/eight-judge.txt puzzles/rush-hour.txt; do
    for s in 0 1 2 3 4 5; do
        $SBFS solve -s $s "$p" > "$T_TMP/good"
        n=$(sed -n 's/^solution: \([0-9]*\) moves$/\1/p' "$T_TMP/good")
        $SBFS verify -s $s "$p" "$T_TMP/good" > "$T_TMP/v"
        expect_line "ok: $n moves" "$p style $s" "$T_TMP/v"
        expect_status 0 "$p style $s, the checker" -- "$VERIFY" slide $s "$p" "$T_TMP/good"
        $SBFS solve -s $s --moves "$p" > "$T_TMP/moves"
        expect_status 0 "$p style $s --moves" -- $SBFS verify -s $s "$p" "$T_TMP/moves"
        expect_line "ok: $n moves" "$p style $s --moves" "$T_TMP/out"
        $SBFS solve -s $s --json "$p" > "$T_TMP/json"
        expect_status 0 "$p style $s --json" -- $SBFS verify -s $s "$p" "$T_TMP/json"
        expect_line "ok: $n moves" "$p style $s --json" "$T_TMP/out"
        break_copies "$T_TMP/good" "$n"
        for b in b1 b2 b3 b4; do
            mine=$(verdict $SBFS verify -s $s "$p" "$T_TMP/$b")
            theirs=$(verdict "$VERIFY" slide $s "$p" "$T_TMP/$b")
            expect_same "$mine" "$theirs" "$p style $s, copy $b"
            [ "$b" = b1 ] || expect_same "$mine" wrong "$p style $s, copy $b is wrong"
        done
    done
done

# every Rush Hour position of the set, its style 1 solution and a copy
# with a false count
grep -v '^#' puzzles/rush-hour-set.txt | while read -r moves board states; do
    echo "$board" > "$T_TMP/r.txt"
    $SBFS solve -s 1 "$T_TMP/r.txt" > "$T_TMP/rs"
    verdict $SBFS verify -s 1 "$T_TMP/r.txt" "$T_TMP/rs"
    break_copies "$T_TMP/rs" "$moves"
    verdict $SBFS verify -s 1 "$T_TMP/r.txt" "$T_TMP/b3"
    verdict "$VERIFY" slide 1 "$T_TMP/r.txt" "$T_TMP/b3"
done > "$T_TMP/rush"
expect_same "$(sort "$T_TMP/rush" | uniq -c | tr -s '\n ' '  ')" " 24 ok 48 wrong " "the Rush Hour set"

# the messages
S=puzzles/silly.txt
$SBFS solve -s 5 $S > "$T_TMP/s5"
expect_status 1 "a style 5 solution read as style 1" -- $SBFS verify -s 1 $S "$T_TMP/s5"
expect_line "sbfs: $T_TMP/s5:16:8: move 1, '3@r5c1 3@r5c2 right right right up up up', is not a move of style 1 from the configuration before it" \
    "the first bad move named" "$T_TMP/err"
$SBFS solve --moves $S | sed '$d' > "$T_TMP/short"
expect_status 1 "one move short" -- $SBFS verify $S "$T_TMP/short"
expect_line "sbfs: $T_TMP/short: the 19 moves end at a configuration that matches no stop line" "short" "$T_TMP/err"
$SBFS solve $S | sed 's/^solution: 20 moves/solution: 21 moves/' > "$T_TMP/claim"
expect_status 1 "a false count" -- $SBFS verify $S "$T_TMP/claim"
expect_line "sbfs: $T_TMP/claim: the file claims 21 moves, but has 20" "false count" "$T_TMP/err"
$SBFS solve $S | sed 's/^move 3:/move 4:/' > "$T_TMP/skip"
expect_status 1 "a move number skipped" -- $SBFS verify $S "$T_TMP/skip"
expect_grep ":[0-9]*:6: move 4 where move 3 was due$" "skipped number" "$T_TMP/err"
expect_status 1 "quiet" -- $SBFS verify -q $S "$T_TMP/skip"
expect_same "$(cat "$T_TMP/out" "$T_TMP/err")" "" "quiet says nothing"
$SBFS solve --moves $S | $SBFS verify $S - > "$T_TMP/stdin"
expect_line "ok: 20 moves" "from standard input" "$T_TMP/stdin"
printf '1 x 3\n1 = 1\n2 = 1\n120\n210\n' > "$T_TMP/stuck.txt"
$SBFS solve "$T_TMP/stuck.txt" > "$T_TMP/none"
expect_status 1 "no solution to check" -- $SBFS verify "$T_TMP/stuck.txt" "$T_TMP/none"
expect_status 3 "a missing file" -- $SBFS verify $S "$T_TMP/nothing"
expect_status 2 "one operand" -- $SBFS verify $S
expect_status 17 "a bad puzzle" -- $SBFS verify tests/cli/examples/bad.txt "$T_TMP/short"

# the Tetraminx: 200 random positions, as facelets and as scrambles, their
# solutions in the three forms; then copies broken four ways, judged as the
# independent checker judges them
$SBFS tetraminx random 100 --seed 7 > "$T_TMP/tp"
$SBFS tetraminx random 100 --seed 8 --scramble >> "$T_TMP/tp"
echo >> "$T_TMP/tp" # the solved position: an empty line, an empty solution
$SBFS tetraminx solve "$T_TMP/tp" > "$T_TMP/ts"
$SBFS tetraminx solve -v "$T_TMP/tp" > "$T_TMP/tv"
$SBFS tetraminx solve --json "$T_TMP/tp" > "$T_TMP/tj"
m=$(awk '{n += NF} END {print n}' "$T_TMP/ts")
for f in ts tv tj; do
    $SBFS verify tetraminx "$T_TMP/tp" "$T_TMP/$f" > "$T_TMP/v"
    expect_line "ok: 201 positions, $m moves" "tetraminx, $f" "$T_TMP/v"
done
expect_status 0 "tetraminx, the checker" -- "$VERIFY" tetraminx "$T_TMP/tp" "$T_TMP/tv"
awk 'NR == 5 {$0 = $0 " U U'"'"'"} {print}' "$T_TMP/ts" > "$T_TMP/t1"   # solved, but not in the fewest moves
awk 'NR == 9 {sub(/ [^ ]*$/, "")} {print}' "$T_TMP/ts" > "$T_TMP/t2"   # one move short
awk -F: 'NR == 12 {$0 = $1 + 1 ":" $2} {print}' "$T_TMP/tv" > "$T_TMP/t3" # a false count
awk 'NR == 20 {l = $0; next} NR == 21 {print; print l; next} {print}' "$T_TMP/ts" > "$T_TMP/t4" # two swapped
for b in t1 t2 t3 t4; do
    mine=$(verdict $SBFS verify tetraminx "$T_TMP/tp" "$T_TMP/$b")
    theirs=$(verdict "$VERIFY" tetraminx "$T_TMP/tp" "$T_TMP/$b")
    expect_same "$mine" "$theirs" "tetraminx, copy $b"
    expect_same "$mine" wrong "tetraminx, copy $b is wrong"
done
printf "R U R' L' U R\n" > "$T_TMP/tp1"
echo "R' U' L R U' R' U U'" > "$T_TMP/ts1"
expect_status 1 "tetraminx, not optimal" -- $SBFS verify tetraminx "$T_TMP/tp1" "$T_TMP/ts1"
expect_line "sbfs: $T_TMP/ts1:1:1: 8 moves, but the position is 6 from solved" "its message" "$T_TMP/err"
echo "R' U' L R U' X" > "$T_TMP/ts1"
expect_status 1 "tetraminx, no such move" -- $SBFS verify tetraminx "$T_TMP/tp1" "$T_TMP/ts1"
expect_line "sbfs: $T_TMP/ts1:1:14: 'X' is not a move (U U' L L' R R' B B')" "its message" "$T_TMP/err"
echo "R' U' L R U'" > "$T_TMP/ts1"
expect_status 1 "tetraminx, unsolved" -- $SBFS verify tetraminx "$T_TMP/tp1" "$T_TMP/ts1"
expect_line "sbfs: $T_TMP/ts1:1:1: the 5 moves leave the position unsolved" "its message" "$T_TMP/err"
printf "R' U' L R U' R'\n\n" > "$T_TMP/ts2"
expect_status 1 "tetraminx, a solution too many" -- $SBFS verify tetraminx "$T_TMP/tp1" "$T_TMP/ts2"
expect_line "sbfs: $T_TMP/ts2:2:1: a solution line after the last position" "its message" "$T_TMP/err"
: > "$T_TMP/empty"
expect_status 1 "tetraminx, no solutions" -- $SBFS verify tetraminx "$T_TMP/tp1" "$T_TMP/empty"
expect_line "sbfs: $T_TMP/empty: no solution line for position 1" "its message" "$T_TMP/err"
echo "R Q" > "$T_TMP/badpos"
expect_status 6 "tetraminx, a bad position" -- $SBFS verify tetraminx "$T_TMP/badpos" "$T_TMP/ts1"
finish
