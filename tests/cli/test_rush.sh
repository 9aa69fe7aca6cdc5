# Rush Hour: every position of puzzles/rush-hour-set.txt (Michael Fogleman's
# database) solves in style 1 to the length the database gives, the solution
# replayed by the independent checker (which reads the Rush Hour line itself),
# and the census of its component holds the number of positions the database
# gives.  Style 0 (unit steps) solutions replay too, and are never shorter.
. tests/cli/lib.sh
grep -v '^#' puzzles/rush-hour-set.txt | while read -r moves board states; do
    echo "$board" > "$T_TMP/p.txt"
    $SBFS solve -s 1 "$T_TMP/p.txt" > "$T_TMP/sol" 2>&1
    got=$(sed -n 's/^solution: \([0-9]*\) moves$/\1/p' "$T_TMP/sol")
    [ "$got" = "$moves" ] && echo ok || echo "FAIL: $board: $got moves, the database $moves"
    "$VERIFY" slide 1 "$T_TMP/p.txt" "$T_TMP/sol" >/dev/null 2>&1 && echo ok || echo "FAIL: $board: style 1 does not verify"
    n=$($SBFS explore -s 1 -q "$T_TMP/p.txt" | sed -n 's/^component: \([0-9]*\) configurations.*/\1/p')
    [ "$n" = "$states" ] && echo ok || echo "FAIL: $board: $n configurations, the database $states"
done > "$T_TMP/log"
t_pass=$((t_pass + $(grep -c '^ok$' "$T_TMP/log")))
grep '^FAIL' "$T_TMP/log" >&2
t_fail=$((t_fail + $(grep -c '^FAIL' "$T_TMP/log")))
expect_same "$(grep -c '^ok$' "$T_TMP/log")" 72 "every position checked three ways"

# the hardest position without walls: 51 moves in style 1; its unit steps
R=puzzles/rush-hour.txt
$SBFS solve -s 1 $R > "$T_TMP/s1"
expect_line "solution: 51 moves" "rush-hour.txt style 1" "$T_TMP/s1"
$SBFS solve -s 0 $R > "$T_TMP/s0"
expect_status 0 "rush-hour.txt style 0 verifies" -- "$VERIFY" slide 0 $R "$T_TMP/s0"
expect_line "solution: 81 moves" "rush-hour.txt style 0" "$T_TMP/s0"
# the oracle's census (its own reading of the line) agrees with sbfs's
"$VERIFY" slide census 1 $R > "$T_TMP/census"
expect_line "component: 4780 configurations, largest distance 72" "oracle census" "$T_TMP/census"
$SBFS explore -s 1 -q $R | grep '^distance' > "$T_TMP/sbfs-d"
grep '^distance' "$T_TMP/census" > "$T_TMP/oracle-d"
expect_status 0 "sbfs and the oracle count each distance alike" -- cmp "$T_TMP/sbfs-d" "$T_TMP/oracle-d"

# the checker refuses a car moved across its axis: the first move of a car
# that goes right or left, turned to go down
awk '/^move 1:/ { sub(/ (left|right)/, " down") } { print }' "$T_TMP/s1" > "$T_TMP/bad"
if ! cmp -s "$T_TMP/bad" "$T_TMP/s1"; then
    expect_status 1 "a car moved across its axis is refused" -- "$VERIFY" slide 1 $R "$T_TMP/bad"
    expect_grep "only across" "the reason" "$T_TMP/err"
fi

# the same position as a grid and in SLIDING's format solves alike
$SBFS convert $R > "$T_TMP/rh-grid.txt"
$SBFS convert --to sliding $R > "$T_TMP/rh-sliding.txt"
expect_grep "^h: " "the grid locks the cars" "$T_TMP/rh-grid.txt"
for f in rh-grid rh-sliding; do
    $SBFS solve -s 1 "$T_TMP/$f.txt" > "$T_TMP/$f.sol"
    expect_line "solution: 51 moves" "$f style 1" "$T_TMP/$f.sol"
done
expect_status 0 "verify the SLIDING form" -- "$VERIFY" slide 1 "$T_TMP/rh-sliding.txt" "$T_TMP/rh-sliding.sol"
# --format forces the reading; a bad one is a usage error
expect_status 0 "--format rush" -- $SBFS solve -q --format rush -s 1 $R
expect_status 10 "--format grid on a Rush Hour line" -- $SBFS solve --format grid $R
expect_status 2 "--format frob" -- $SBFS solve --format frob $R

# bad lines name the column
printf 'AAoooooooooooooooooooooooooooooooooo\n' > "$T_TMP/b1"
expect_status 6 "red car off row 3" -- $SBFS solve "$T_TMP/b1"
expect_grep ":1:1: the red car A must lie across the third row" "red car message" "$T_TMP/err"
printf 'ooooooooooooAAooooBooooooooooooooooo\n' > "$T_TMP/b2"
expect_status 6 "one-cell car" -- $SBFS solve "$T_TMP/b2"
expect_grep ":1:19: car B is not a straight run" "one-cell car message" "$T_TMP/err"
finish
