# CLI tests of `sbfs eight` (the ACM "Eight" problem).  Every answer is
# replayed by the independent checker (tests/verify npuzzle -e).
. tests/cli/lib.sh
D=tests/cli/npuzzle

# eight IN LENGTH: solve the input file, check the length and replay it.
eight() {
    "$SBFS" eight "$1" >"$T_TMP/ans" 2>"$T_TMP/err"
    st=$?
    if [ $st != 0 ]; then bad "eight $1: exit $st"; cat "$T_TMP/err" >&2; return; fi
    if [ "$2" = unsolvable ]; then
        expect_line unsolvable "eight $1" "$T_TMP/ans"
    else
        got=$(head -n 1 "$T_TMP/ans" | tr -d '\n' | wc -c)
        if [ "$got" = "$2" ]; then ok; else bad "eight $1: $got moves, want $2"; fi
        if grep -qxE '[udlr]*' "$T_TMP/ans"; then ok; else bad "eight $1: not a move string"; fi
    fi
    if "$VERIFY" npuzzle -e "$1" "$T_TMP/ans" >"$T_TMP/v" 2>&1; then ok; else
        bad "eight $1: verifier: $(cat "$T_TMP/v")"; fi
}

eight $D/sample.inp 19          # the problem's sample, one line
eight $D/judge.inp 31           # the judge's input, three lines
eight $D/far.inp 31             # the other position 31 moves from the goal
eight $D/swapped.inp unsolvable # 1 and 2 swapped
eight $D/goal.inp 0
eight $D/tabs.inp 19            # the sample with tabs and blank lines

# no FILE: eight.inp in the current folder, else stdin
mkdir "$T_TMP/cwd"; cp $D/judge.inp "$T_TMP/cwd/eight.inp"
(cd "$T_TMP/cwd" && "$SBFS" eight </dev/null) >"$T_TMP/ans"
got=$(tr -d '\n' <"$T_TMP/ans" | wc -c)
if [ "$got" = 31 ]; then ok; else bad "eight.inp in the current folder: $got moves"; fi
"$SBFS" eight <$D/sample.inp >"$T_TMP/ans"
"$VERIFY" npuzzle -e $D/sample.inp "$T_TMP/ans" >/dev/null && ok || bad "eight from stdin"

# malformed input: an error with line and column, never "unsolvable"
err() { # FILE STATUS MESSAGE
    "$SBFS" eight "$1" >"$T_TMP/out" 2>"$T_TMP/err"; st=$?
    if [ $st = "$2" ]; then ok; else bad "eight $1: exit $st, want $2"; fi
    expect_line "$3" "eight $1" "$T_TMP/err"
    if [ -s "$T_TMP/out" ]; then bad "eight $1: printed an answer"; else ok; fi
}
err $D/repeated.inp 6 "sbfs: $D/repeated.inp:2:5: tile 5 appears twice (first at 2:3)"
err $D/missing.inp 6 "sbfs: $D/missing.inp:3:1: only 8 of the nine tiles: missing 7"
err $D/unknown.inp 6 "sbfs: $D/unknown.inp:1:9: '9' is not a tile of the 8-puzzle (1..8 or x)"
err $D/extra.inp 6 "sbfs: $D/extra.inp:1:19: more than nine tiles"
err $D/nonexistent.inp 3 "sbfs: $D/nonexistent.inp: No such file or directory"
expect_status 0 "eight --help" -- "$SBFS" eight --help
expect_grep 'eight.inp' "eight --help" "$T_TMP/out"
expect_status 2 "eight bad option" -- "$SBFS" eight --frobnicate
finish
