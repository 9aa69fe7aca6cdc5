# CLI tests of `sbfs npuzzle`: Korf's 100 15-puzzle instances at exactly
# their published optimal lengths (all 100 optimised; under the sanitizers a
# fixed set of the ten easiest with the quick 5-5-5 databases), other board
# sizes, the pattern database cache (a damaged, foreign or older file is rebuilt),
# and input errors.  Every answer is replayed by tests/verify npuzzle.
# Pattern databases go to a temporary --pdb-dir, never the user's cache.
. tests/cli/lib.sh
D=tests/cli/npuzzle
K=data/korf100.txt
P="$T_TMP/pdb"

# Korf's file: "number length tiles..."; the instances alone, and the lines
# of the chosen subset.
if [ "${SBFS_SANITIZED:-0}" != 0 ]; then
    pick='$1==9||$1==12||$1==19||$1==30||$1==31||$1==42||$1==47||$1==55||$1==79||$1==93'
    part=555
else
    pick=1
    part=663
fi
awk "!/^#/ && ($pick)" $K >"$T_TMP/korf"
awk '{s=$3; for (i = 4; i <= 18; i++) s = s " " $i; print s}' "$T_TMP/korf" >"$T_TMP/korf.in"
n=$(wc -l <"$T_TMP/korf")

"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" -j 2 "$T_TMP/korf.in" \
    >"$T_TMP/korf.out" 2>"$T_TMP/korf.err"
if [ $? = 0 ]; then ok; else bad "korf: exit status"; tail -n 5 "$T_TMP/korf.err" >&2; fi
if "$VERIFY" npuzzle -g blank-first -k "$T_TMP/korf" "$T_TMP/korf.out" >"$T_TMP/v" 2>&1; then ok; else
    bad "korf: verifier: $(cat "$T_TMP/v")"; fi
expect_line "ok: $n answers" "korf: all answers replayed" "$T_TMP/v"
want=$(awk '{s += $2} END {print s}' "$T_TMP/korf")
got=$(awk -F'\t' '{s += $1} END {print s}' "$T_TMP/korf.out")
if [ "$got" = "$want" ]; then ok; else bad "korf: total length $got, want $want"; fi
[ "$n" = 100 ] && { [ "$got" = 5305 ] && ok || bad "korf: total $got, want 5305"; }
expect_grep "^# $n instances: $n solved \\($want moves in all\\)" "korf: summary" "$T_TMP/korf.err"

# The same ten instances in the default goal (1..15, blank last): turn each
# board 180 degrees and relabel t -> 16-t; the lengths stay the same.
head -n 10 "$T_TMP/korf" | awk '{ for (i = 18; i >= 3; i--) printf "%s%d", (i < 18 ? " " : ""), ($i ? 16 - $i : 0); print "" }' >"$T_TMP/last.in"
head -n 10 "$T_TMP/korf" | awk '{ printf "%s %s", $1, $2; for (i = 18; i >= 3; i--) printf " %d", ($i ? 16 - $i : 0); print "" }' >"$T_TMP/last.k"
"$SBFS" npuzzle --pdb $part --pdb-dir "$P" "$T_TMP/last.in" >"$T_TMP/last.out" 2>"$T_TMP/err"
"$VERIFY" npuzzle -k "$T_TMP/last.k" "$T_TMP/last.out" >"$T_TMP/v" 2>&1 && ok || bad "blank-last: $(cat "$T_TMP/v")"

# -j 1 and -j 2 print the same, in input order
"$SBFS" npuzzle --pdb $part --pdb-dir "$P" -j 1 "$T_TMP/last.in" >"$T_TMP/last1.out" 2>/dev/null
cut -f1 "$T_TMP/last.out" >"$T_TMP/a"; cut -f1 "$T_TMP/last1.out" >"$T_TMP/b"
cmp -s "$T_TMP/a" "$T_TMP/b" && ok || bad "-j 1 and -j 2 give other lengths"

# a damaged table is detected and rebuilt, never used
f=$(ls "$P"/npuzzle-4x4-*.pdb | head -n 1)
size=$(wc -c <"$f")
printf '\001' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'checksum mismatch, the file is damaged; rebuilding it' "damaged table" "$T_TMP/err"
"$VERIFY" npuzzle -g blank-first $D/korf1.in "$T_TMP/out" >/dev/null && ok || bad "damaged table: wrong answer"
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'built [01] in [0-9.]+ s, loaded [23] in' "rebuilt table saved and loaded" "$T_TMP/err"
# a foreign file under a table's name (another table's data): rebuilt
g=$(ls "$P"/npuzzle-4x4-*.pdb | tail -n 1)
cp "$g" "$f"
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'not the pattern database expected \(header\); rebuilding it' "foreign table" "$T_TMP/err"
cut -f1 "$T_TMP/out" >"$T_TMP/out.len"
expect_line "$(cat $D/korf1.len)" "foreign table: length" "$T_TMP/out.len"
# a truncated file
: >"$f"
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'too short for a pattern database; rebuilding it' "empty table file" "$T_TMP/err"
# a file of the format before (version 2) under the table's name: rebuilt
{ printf 'sbfsPDB\n\002\000\000\000'; head -c 1000 /dev/zero; } >"$f"
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'a pattern database in format version 2; this sbfs reads only version 3; rebuilding it' "old version" "$T_TMP/err"
cut -f1 "$T_TMP/out" >"$T_TMP/out.len"
expect_line "$(cat $D/korf1.len)" "old version: length" "$T_TMP/out.len"
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'built [01] in [0-9.]+ s, loaded [23] in' "old version: rebuilt and saved" "$T_TMP/err"
# --verify-cache reads every cached table whole: all sound, then one
# damaged, which is named, removed, and rebuilt by the next run
ntab=$(ls "$P"/npuzzle-*.pdb | wc -l)
expect_status 0 "verify-cache" -- "$SBFS" npuzzle --pdb-dir "$P" --verify-cache
expect_grep "^# $P: $ntab pattern databases checked, 0 damaged and removed$" "verify-cache: all sound" "$T_TMP/err"
size=$(wc -c <"$f")
printf '\001' | dd of="$f" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
expect_status 7 "verify-cache: a damaged table" -- "$SBFS" npuzzle --pdb-dir "$P" --verify-cache
expect_grep "^# $P: $ntab pattern databases checked, 1 damaged and removed$" "verify-cache: one damaged" "$T_TMP/err"
expect_grep "$(basename "$f")'?: checksum mismatch, the file is damaged; removed" "verify-cache: names it" "$T_TMP/err"
[ -e "$f" ] && bad "verify-cache: the damaged table is still there" || ok
"$SBFS" npuzzle -g blank-first --pdb $part --pdb-dir "$P" $D/korf1.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep 'built [12] in [0-9.]+ s, loaded [12] in' "verify-cache: the removed table rebuilt" "$T_TMP/err"
cut -f1 "$T_TMP/out" >"$T_TMP/out.len"
expect_line "$(cat $D/korf1.len)" "verify-cache: length after the rebuild" "$T_TMP/out.len"

# other sizes: the 8-puzzle (judge's position: 31), 3x4, 2x5, 4x3, with
# statistics on stdout under -v.  The lengths in board*.len were found by a
# separate bidirectional breadth-first search, not by sbfs.
"$SBFS" npuzzle $D/eight.in >"$T_TMP/out" 2>/dev/null
"$VERIFY" npuzzle $D/eight.in "$T_TMP/out" >/dev/null && ok || bad "8-puzzle: verifier"
cut -f1 "$T_TMP/out" >"$T_TMP/out.len"
expect_file $D/eight.len "8-puzzle lengths" -- cat "$T_TMP/out.len"
sizes="3x4 2x5 4x3"
[ "${SBFS_SANITIZED:-0}" != 0 ] && sizes=2x5   # their tables take a minute under ASan
for s in $sizes; do
    "$SBFS" npuzzle -s $s --no-cache $D/board$s.in >"$T_TMP/out" 2>/dev/null
    "$VERIFY" npuzzle -s $s $D/board$s.in "$T_TMP/out" >"$T_TMP/v" 2>&1 && ok || bad "$s: $(cat "$T_TMP/v")"
    cut -f1 "$T_TMP/out" >"$T_TMP/out.len"
    expect_file $D/board$s.len "$s lengths" -- cat "$T_TMP/out.len"
done
"$SBFS" npuzzle -v $D/eight.in >"$T_TMP/out" 2>"$T_TMP/err"
expect_grep '^# 1: line 1, 31 moves, [0-9]+ nodes' "-v statistics on stdout" "$T_TMP/out"
if [ -s "$T_TMP/err" ]; then bad "-v: stderr not empty"; else ok; fi

# errors: line and column, one status per class
expect_status 6 "repeated tile" -- "$SBFS" npuzzle $D/bad-repeat.in
expect_line "sbfs: $D/bad-repeat.in:2:15: tile 7 appears twice (first at column 13)" "repeated tile" "$T_TMP/err"
expect_status 6 "tile out of range" -- "$SBFS" npuzzle $D/bad-range.in
expect_line "sbfs: $D/bad-range.in:1:1: tile 16 is out of range for a 4x4 board (1..15)" "tile range" "$T_TMP/err"
expect_status 6 "not square" -- "$SBFS" npuzzle $D/bad-count.in
expect_line "sbfs: $D/bad-count.in:1:1: 6 tiles is not a square board (4, 9, 16 or 25): give the size with -s RxC" "tile count" "$T_TMP/err"
expect_status 6 "junk" -- "$SBFS" npuzzle $D/bad-junk.in
expect_line "sbfs: $D/bad-junk.in:1:5: 'q' is not a tile (numbers, 0 or x for the blank)" "junk" "$T_TMP/err"
expect_status 2 "bad size" -- "$SBFS" npuzzle -s 6x2 $D/eight.in
expect_status 2 "bad partition" -- "$SBFS" npuzzle --pdb 99 $D/eight.in
expect_line "sbfs: npuzzle: unknown partition '99' (663, 78, 555 or 6666) (try 'sbfs npuzzle --help')" \
    "bad partition: message" "$T_TMP/err"
# a partition of another size: said so, and the board's own is used
expect_status 0 "6666 on 2x5" -- "$SBFS" npuzzle --pdb 6666 -s 2x5 --no-cache $D/board2x5.in
expect_line "sbfs: --pdb 6666 applies to 5x5 boards; 2x5 uses its own partition" "6666 on 2x5: message" "$T_TMP/err"
cut -f1 "$T_TMP/out" >"$T_TMP/out.len"
expect_file $D/board2x5.len "6666 on 2x5: lengths" -- cat "$T_TMP/out.len"
expect_status 2 "bad goal" -- "$SBFS" npuzzle -g middle $D/eight.in
expect_status 0 "help" -- "$SBFS" npuzzle --help
expect_grep 'blank-first' "help text" "$T_TMP/out"
# unsolvable positions are answered without a search
printf '2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 0\n' >"$T_TMP/u.in"
expect_status 0 "unsolvable" -- "$SBFS" npuzzle "$T_TMP/u.in"
printf 'unsolvable\n0\t\n' >"$T_TMP/u.want"
expect_file "$T_TMP/u.want" "unsolvable and goal" -- "$SBFS" npuzzle "$T_TMP/u.in"
"$VERIFY" npuzzle "$T_TMP/u.in" "$T_TMP/out" >/dev/null && ok || bad "unsolvable: verifier"
finish
