# CLI tests of levels on disk (--disk, --disk-limit): for every bundled
# puzzle and style, solve (both ways and one way) and explore with the
# levels in files and a budget of 300 KB (odd styles: 4 MB, buffers large
# enough for levels coded in blocks) give byte for byte the output of the
# run in memory; every solution replays; the folder made is removed;
# the disk limit stops a run cleanly with status 4; --spill goes to the
# disk when memory runs out, with the same output.
. tests/cli/lib.sh
P=puzzles
DISK="$T_TMP/disk"
mkdir -p "$DISK"

for p in silly shift klotski eight-judge eight-sample; do
    for s in 0 1 2 3 4 5; do
        m=300K
        [ $((s % 2)) = 1 ] && m=4M
        for b in "" --no-bidir; do
            $SBFS solve $b -s $s $P/$p.txt > "$T_TMP/mem" 2>&1
            expect_status 0 "solve $b -s $s $p on disk" -- \
                $SBFS solve $b -s $s --disk "$DISK" --memory $m $P/$p.txt
            cp "$T_TMP/out" "$T_TMP/sol"
            expect_status 0 "solve $b -s $s $p on disk: as in memory" -- cmp "$T_TMP/mem" "$T_TMP/sol"
            expect_status 0 "solve $b -s $s $p on disk: replays" -- "$VERIFY" slide $s $P/$p.txt "$T_TMP/sol"
        done
        $SBFS explore -s $s $P/$p.txt > "$T_TMP/mem" 2>&1
        expect_status 0 "explore -s $s $p on disk" -- $SBFS explore -s $s --disk "$DISK" --memory $m $P/$p.txt
        cp "$T_TMP/out" "$T_TMP/got"
        expect_status 0 "explore -s $s $p on disk: as in memory" -- cmp "$T_TMP/mem" "$T_TMP/got"
    done
done
expect_same "$(ls -A "$DISK")" "" "the folders of the levels are removed"

# JSON as well
$SBFS explore --json -s 2 $P/klotski.txt > "$T_TMP/mem"
expect_status 0 "explore --json on disk: as in memory" -- \
    sh -c "$SBFS explore --json -s 2 --disk '$DISK' --memory 300K $P/klotski.txt | cmp - '$T_TMP/mem'"

# -v reports the files
expect_status 0 "explore -v on disk" -- $SBFS explore -q -v --disk "$DISK" $P/klotski.txt
expect_grep '^sbfs: levels on disk: [0-9]+ bytes of files at most, [0-9]+ bytes of levels written \([0-9.]+ bytes/configuration\)$' \
    "explore -v on disk: disk figures" "$T_TMP/err"

# the disk limit: status 4, a message naming it, counts so far printed
expect_status 4 "explore past --disk-limit" -- $SBFS explore -q --disk "$DISK" --disk-limit 4K $P/klotski.txt
expect_grep '^sbfs: disk limit exhausted' "explore past --disk-limit: message" "$T_TMP/err"
expect_grep '^distance 1: 4$' "explore past --disk-limit: counts so far" "$T_TMP/out"
expect_same "$(ls -A "$DISK")" "" "the folder is removed after a stop"

# the progress line: level, states, rate, memory, disk; Ctrl-C stops the
# run cleanly (status 5) and its folder is removed
timeout -k 5 --preserve-status -s INT 2.5 $SBFS explore -q --progress --disk "$DISK" --memory 1M \
    bench/klotski-distinct.txt > /dev/null 2> "$T_TMP/err"
expect_same "$?" 5 "explore on disk, Ctrl-C: status"
expect_grep '^search on disk, (expanding|merging) depth [0-9]+: [0-9.kM]+ of [0-9]+ \([0-9]+%\), [0-9.kM]+ states, [0-9.kM]+/s, mem [0-9.kM]+B, disk [0-9.kM]+B' \
    "explore on disk --progress: progress lines" "$T_TMP/err"
expect_same "$(ls -A "$DISK")" "" "the folder is removed after Ctrl-C"

# --spill: memory first, the disk when the budget runs out, the levels
# made in memory carried over (nothing searched twice).  In 40 KB KLOTSKI
# cannot be solved in memory (status 4 without --spill), one way or both
# ways, nor can the census of the ten distinct pieces be made in 300 KB;
# with --spill all end as in memory, with a note naming the folder and the
# levels carried.
for b in "" --no-bidir; do
    $SBFS solve $b $P/klotski.txt > "$T_TMP/mem" 2>&1
    expect_status 4 "solve $b in 40K" -- $SBFS solve $b -j 1 --memory 40K $P/klotski.txt
    $SBFS solve $b -j 1 --memory 40K --spill "$DISK" $P/klotski.txt > "$T_TMP/sol" 2> "$T_TMP/note"
    expect_same "$?" 0 "solve $b in 40K --spill: status"
    expect_status 0 "solve $b in 40K --spill: as in memory" -- cmp "$T_TMP/mem" "$T_TMP/sol"
    expect_grep "^sbfs: memory budget exhausted: the [1-9][0-9]+ levels made went on to disk in $DISK\$" \
        "solve $b in 40K --spill: the note" "$T_TMP/note"
    expect_status 0 "solve $b in 40K --spill: replays" -- "$VERIFY" slide 0 $P/klotski.txt "$T_TMP/sol"
done
$SBFS explore bench/klotski-distinct.txt > "$T_TMP/mem" 2>&1
$SBFS explore -v --memory 300K --spill "$DISK" bench/klotski-distinct.txt > "$T_TMP/got" 2> "$T_TMP/note"
expect_same "$?" 0 "explore in 300K --spill: status"
expect_status 0 "explore in 300K --spill: as in memory" -- cmp "$T_TMP/mem" "$T_TMP/got"
expect_grep "^sbfs: memory budget exhausted: the [1-9][0-9]+ levels made went on to disk in $DISK\$" \
    "explore in 300K --spill: the note" "$T_TMP/note"
expect_grep "^sbfs: levels on disk: " "explore in 300K --spill -v: the disk's figures" "$T_TMP/note"
expect_status 0 "explore --spill with room: no note" -- $SBFS explore --spill "$DISK" $P/klotski.txt
expect_same "$(cat "$T_TMP/err")" "" "explore --spill with room: stderr empty"
expect_same "$(ls -A "$DISK")" "" "the folder is removed after --spill"
expect_status 4 "explore --spill past --disk-limit" -- \
    $SBFS explore -q --memory 300K --spill "$DISK" --disk-limit 8K bench/klotski-distinct.txt
expect_grep '^sbfs: disk limit exhausted' "explore --spill past --disk-limit: message" "$T_TMP/err"

# bad use
expect_status 2 "--spill with --disk" -- $SBFS explore --spill "$DISK" --disk "$DISK" $P/silly.txt
expect_grep "give one of them" "--spill with --disk: message" "$T_TMP/err"
expect_status 2 "--spill with --checkpoint" -- $SBFS solve --spill "$DISK" --checkpoint "$DISK" $P/silly.txt
expect_status 2 "--disk-limit without --disk" -- $SBFS explore --disk-limit 1M $P/silly.txt
expect_status 2 "--disk-limit of no size" -- $SBFS explore --disk "$DISK" --disk-limit 1Q $P/silly.txt
expect_status 3 "--disk to a folder that is not there" -- $SBFS explore --disk "$T_TMP/none" $P/silly.txt
expect_grep "none" "--disk to a folder that is not there: named" "$T_TMP/err"
finish
