# The command line on random puzzles (drawn by tests/slide_gen.h through
# test_random_slide --emit): in every style, `sbfs solve` both ways and one
# way, on one thread and on two, and SLIDING's form `sbfs STYLE` give one
# length; every solution printed replays (tests/verify slide); `sbfs
# explore` counts what the independent census counts.
. tests/cli/lib.sh
D="$T_TMP/puzzles"
mkdir -p "$D"
n=30
[ "${SBFS_SANITIZED:-0}" = 0 ] || n=12
"$SBFS_BUILD/test_random_slide" --emit "$D" $n 7001
expect_same "$(ls "$D" | wc -l | tr -d ' ')" $n "puzzles drawn"
for p in "$D"/*.txt; do
    name=$(basename "$p" .txt)
    for s in 0 1 2 3 4 5; do
        $SBFS solve -s $s "$p" > "$T_TMP/both" 2> "$T_TMP/err"
        expect_same $? 0 "$name style $s: solve"
        $SBFS solve --no-bidir -j 1 -s $s "$p" > "$T_TMP/one" 2> "$T_TMP/err"
        expect_same $? 0 "$name style $s: solve --no-bidir -j 1"
        $SBFS solve --no-bidir -j 2 -s $s "$p" > "$T_TMP/two" 2> "$T_TMP/err"
        expect_status 0 "$name style $s: -j 1 and -j 2 print the same" -- cmp "$T_TMP/one" "$T_TMP/two"
        sh -c "$SBFS $s -1 < '$p'" > "$T_TMP/sliding" 2> "$T_TMP/err"
        expect_same $? 0 "$name style $s: sbfs $s"
        last=$(tail -n 1 "$T_TMP/one")
        expect_same "$(tail -n 1 "$T_TMP/sliding")" "$last" "$name style $s: sbfs $s and solve --no-bidir"
        case $last in
        solution:*)
            expect_same "$(tail -n 1 "$T_TMP/both")" "$last" "$name style $s: both ways as long as one way"
            expect_status 0 "$name style $s: the solution replays" -- "$VERIFY" slide $s "$p" "$T_TMP/both"
            expect_status 0 "$name style $s: one way, the solution replays" -- "$VERIFY" slide $s "$p" "$T_TMP/one" ;;
        "no solution: "*)
            expect_grep '^no solution: ' "$name style $s: no solution both ways" "$T_TMP/both" ;;
        *)
            bad "$name style $s: no verdict: $last" ;;
        esac
        $SBFS explore -s $s "$p" | grep -E '^(distance|component)' > "$T_TMP/explore"
        "$VERIFY" slide census $s "$p" > "$T_TMP/census"
        expect_status 0 "$name style $s: explore counts what the census counts" -- cmp "$T_TMP/explore" "$T_TMP/census"
    done
done
finish
