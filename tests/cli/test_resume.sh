# CLI tests of checkpoints (--checkpoint DIR, --resume DIR): a run killed
# (SIGKILL) at some point of its search, or stopped by Ctrl-C, and taken
# up again ends with the output of a run never stopped, byte for byte; a
# damaged checkpoint, or one of another search, is refused with a message.
# Where the kill lands does not matter to what is checked: whenever it
# comes, the resumed output must be the same.
. tests/cli/lib.sh
P=puzzles

# newest CK: the highest distance of a level file in checkpoint CK (a
# census keeps only the newest files)
newest() {
    ls "$1" | sed -n 's/^level-[sg]-0*\([0-9]\)/\1/p' | sort -n | tail -n 1
}
# start_kill CK SIGNAL D CMD...: run CMD in the background, and send
# SIGNAL once the checkpoint CK holds a level at distance D from either
# end (or the run ended)
start_kill() {
    ck=$1 sig=$2 lv=$3; shift 3
    "$@" > "$T_TMP/killed.out" 2> "$T_TMP/killed.err" &
    pid=$!
    while kill -0 $pid 2>/dev/null; do
        n=$(newest "$ck")
        [ "${n:-0}" -ge "$lv" ] && break
        sleep 0.02
    done
    kill -s "$sig" $pid 2>/dev/null
    { wait $pid; } 2>/dev/null
    echo $? > "$T_TMP/killed.st"; [ -n "$SHOW_KILL" ] && echo "status $(cat "$T_TMP/killed.st")" >&2
}

# explore (a census), killed, resumed
$SBFS explore $P/eight-judge.txt > "$T_TMP/ref"
CK="$T_TMP/ck1"; mkdir "$CK"
start_kill "$CK" KILL 18 $SBFS explore --checkpoint "$CK" --memory 300K $P/eight-judge.txt
expect_status 0 "explore eight-judge: resumed after SIGKILL" -- $SBFS explore --resume "$CK" --memory 300K $P/eight-judge.txt
cp "$T_TMP/out" "$T_TMP/got"
expect_status 0 "explore eight-judge: resumed after SIGKILL, the same output" -- cmp "$T_TMP/ref" "$T_TMP/got"
expect_status 0 "explore eight-judge: resumed again once done, the same output" -- \
    sh -c "$SBFS explore --resume '$CK' $P/eight-judge.txt | cmp - '$T_TMP/ref'"

# solve both ways and one way, killed, resumed, the path replays
for b in "" --no-bidir; do
    at=6; [ -n "$b" ] && at=12
    $SBFS solve $b $P/eight-sample.txt > "$T_TMP/ref"
    CK="$T_TMP/ck-solve$b"; mkdir "$CK"
    start_kill "$CK" KILL $at $SBFS solve $b --checkpoint "$CK" --memory 300K $P/eight-sample.txt
    expect_status 0 "solve $b eight-sample: resumed after SIGKILL" -- $SBFS solve $b --resume "$CK" $P/eight-sample.txt
    cp "$T_TMP/out" "$T_TMP/got"
    expect_status 0 "solve $b eight-sample: resumed, the same output" -- cmp "$T_TMP/ref" "$T_TMP/got"
    expect_status 0 "solve $b eight-sample: resumed, replays" -- "$VERIFY" slide 0 $P/eight-sample.txt "$T_TMP/got"
done

# Ctrl-C: status 5, then resumed to the same output
$SBFS explore -s 1 $P/eight-judge.txt > "$T_TMP/ref"
CK="$T_TMP/ck-int"; mkdir "$CK"
start_kill "$CK" INT 12 $SBFS explore -s 1 --checkpoint "$CK" --memory 300K $P/eight-judge.txt
st=$(cat "$T_TMP/killed.st")
if [ "$st" = 5 ] || [ "$st" = 0 ]; then ok; else bad "explore stopped by Ctrl-C: status $st, want 5 (or 0 had it finished)"; fi
expect_status 0 "explore eight-judge: resumed after Ctrl-C, the same output" -- \
    sh -c "$SBFS explore -s 1 --resume '$CK' $P/eight-judge.txt | cmp - '$T_TMP/ref'"

# a finished checkpoint to damage; a folder that holds a search is not reused
CK="$T_TMP/ck-d"; mkdir "$CK"
$SBFS explore -s 2 --checkpoint "$CK" $P/eight-sample.txt > "$T_TMP/ref"
expect_status 2 "--checkpoint into a folder holding a search" -- $SBFS explore -s 2 --checkpoint "$CK" $P/eight-sample.txt
expect_grep 'holds a search already' "--checkpoint into a folder holding a search: message" "$T_TMP/err"
# another style, another puzzle: another search
expect_status 7 "--resume with another style" -- $SBFS explore -s 1 --resume "$CK" $P/eight-sample.txt
expect_grep '^sbfs: cannot resume from .*: it is the checkpoint of another search' "--resume with another style: message" "$T_TMP/err"
expect_status 7 "--resume with another puzzle" -- $SBFS explore -s 2 --resume "$CK" $P/silly.txt
expect_status 7 "--resume a census as a solve" -- $SBFS solve -s 2 --resume "$CK" $P/eight-sample.txt
# a byte of the newest level changed
newest=$(ls "$CK" | grep '^level-' | tail -n 2 | head -n 1)
cp "$CK/$newest" "$T_TMP/keep"
printf '\377' | dd of="$CK/$newest" bs=1 seek=50 conv=notrunc 2>/dev/null
expect_status 7 "--resume with a damaged level" -- $SBFS explore -s 2 --resume "$CK" $P/eight-sample.txt
expect_grep "^sbfs: cannot resume from .*: level [0-9]+: .*damaged" "--resume with a damaged level: message" "$T_TMP/err"
cp "$T_TMP/keep" "$CK/$newest"
expect_status 0 "--resume once repaired" -- sh -c "$SBFS explore -s 2 --resume '$CK' $P/eight-sample.txt | cmp - '$T_TMP/ref'"
# a level missing, the run file cut or changed, no run file at all
mv "$CK/$newest" "$T_TMP/keep"
expect_status 7 "--resume with a level missing" -- $SBFS explore -s 2 --resume "$CK" $P/eight-sample.txt
mv "$T_TMP/keep" "$CK/$newest"
cp "$CK/run" "$T_TMP/run"
printf 'x' | dd of="$CK/run" bs=1 seek=30 conv=notrunc 2>/dev/null
expect_status 7 "--resume with a damaged run file" -- $SBFS explore -s 2 --resume "$CK" $P/eight-sample.txt
expect_grep "file 'run' is damaged" "--resume with a damaged run file: message" "$T_TMP/err"
head -c 40 "$T_TMP/run" > "$CK/run"
expect_status 7 "--resume with a cut run file" -- $SBFS explore -s 2 --resume "$CK" $P/eight-sample.txt
rm "$CK/run"
expect_status 7 "--resume from a folder with no run" -- $SBFS explore -s 2 --resume "$CK" $P/eight-sample.txt
expect_grep "holds no run" "--resume from a folder with no run: message" "$T_TMP/err"

# bad use
expect_status 2 "--checkpoint and --resume" -- $SBFS explore --checkpoint "$CK" --resume "$CK" $P/silly.txt
expect_status 2 "--disk and --checkpoint" -- $SBFS explore --checkpoint "$CK" --disk "$CK" $P/silly.txt
finish
