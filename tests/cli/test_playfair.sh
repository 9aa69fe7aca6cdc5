#!/bin/sh
# CLI tests of sbfs playfair: exact outputs of encrypt, decrypt and crack on
# a small word list of our own, every crack answer replayed by
# tests/verify playfair, the seed's example against the system word list
# when it is installed, and the error statuses.
. tests/cli/lib.sh
D=tests/cli/playfair

expect_file $D/encrypt.out "encrypt, seed example and more" -- $SBFS playfair encrypt -k cryptogram $D/plain.txt
expect_line "HW UY RF UL UQ YL QL AE FK DG EO" "seed ciphertext" $T_TMP/out
expect_file $D/decrypt.out "decrypt" -- $SBFS playfair decrypt -k CRYPTOGRAM $D/encrypt.out
expect_file $D/crack.out "crack with a small list" -- $SBFS playfair crack -d $D/words.txt $D/cipher.txt
expect_line "A	I	ambiguous" "a one-letter reading is ambiguous" $T_TMP/out
expect_line "-		unsolved" "a text no keyword explains" $T_TMP/out

# every answer re-enciphers to its ciphertext (independent checker)
grep . $D/cipher.txt > $T_TMP/ct
paste $T_TMP/ct $D/crack.out > $T_TMP/answers
expect_status 0 "verify small-list answers" -- $VERIFY playfair $D/words.txt < $T_TMP/answers
expect_line "5 verified, 1 unsolved" "verify count" $T_TMP/out

# random messages from the small list, cracked and verified
$SBFS playfair random -d $D/words.txt -n 30 --seed 7 --words 2-4 > $T_TMP/random
cut -f3 $T_TMP/random > $T_TMP/rct
expect_status 0 "crack random messages" -- $SBFS playfair crack -d $D/words.txt $T_TMP/rct
paste $T_TMP/rct $T_TMP/out > $T_TMP/answers
expect_status 0 "verify random answers" -- $VERIFY playfair $D/words.txt < $T_TMP/answers
expect_line "30 verified, 0 unsolved" "random verify count" $T_TMP/out

if [ -f /usr/share/dict/words ]; then
    echo "HW UY RF UL UQ YL QL AE FK DG EO" > $T_TMP/seed
    expect_status 0 "crack the seed example, system list" -- $SBFS playfair crack $T_TMP/seed
    expect_line "CRYPTOGRAM	THE SCHEME REALLY WORKS" "seed example cracked" $T_TMP/out
else
    echo "note: /usr/share/dict/words missing (wamerican): system-list check not run" >&2
fi

# the textbook square, read by rows, shown first
echo "hide the gold in the tree stump" > $T_TMP/hide
printf 'P L A Y F\nI R E X M\nB C D G H\nK N O Q S\nT U V W Z\nBM OD ZB XD NA BE KU DM UI XM MO UV IF\n' > $T_TMP/hide.want
expect_file $T_TMP/hide.want "textbook example, --square rows" -- \
    $SBFS playfair encrypt -k "PLAYFAIR EXAMPLE" --square rows --show-square $T_TMP/hide
echo "BM OD ZB XD NA BE KU DM UI XM MO UV IF" > $T_TMP/hide.ct
expect_status 0 "decrypt with a key square" -- $SBFS playfair decrypt -K "PLAYF IREXM BCDGH KNOQS TUVWZ" $T_TMP/hide.ct
expect_line "HI DE TH EG OL DI NT HE TR EX ES TU MP" "key square decrypts" $T_TMP/out
expect_status 0 "another filler" -- $SBFS playfair encrypt -k CRYPTOGRAM --pad q $D/plain.txt
expect_line "HW UY RF UL UQ YL QE AE FK DG EC" "Q as filler" $T_TMP/out
expect_status 2 "bad key square" -- $SBFS playfair encrypt -K "PLAYF IREXM" $T_TMP/hide
expect_status 2 "-k and -K" -- $SBFS playfair encrypt -k A -K "PLAYF IREXM BCDGH KNOQS TUVWZ" $T_TMP/hide
expect_status 2 "bad --pad" -- $SBFS playfair encrypt -k A --pad 7 $T_TMP/hide
expect_status 2 "--pad is not for crack" -- $SBFS playfair crack --pad Q $T_TMP/hide

# crack on row-read keyword squares, answers replayed with --rows
$SBFS playfair random -d $D/words.txt -n 20 --seed 11 --words 2-4 --square rows > $T_TMP/rrandom
cut -f3 $T_TMP/rrandom > $T_TMP/rrct
expect_status 0 "crack rows" -- $SBFS playfair crack -d $D/words.txt --square rows --show-square $T_TMP/rrct
paste $T_TMP/rrct $T_TMP/out > $T_TMP/answers
expect_status 0 "verify rows answers" -- $VERIFY playfair --rows $D/words.txt < $T_TMP/answers
expect_line "20 verified, 0 unsolved" "rows verify count" $T_TMP/out
head -n 1 $T_TMP/rrandom | cut -f1 > $T_TMP/rkey
expect_status 0 "the shown square is the keyword's" -- $SBFS playfair encrypt -k "$(cat $T_TMP/rkey)" --square rows --show-square /dev/null
sq=$(tr -d ' \n' < $T_TMP/out)
shown=$(head -n 1 $T_TMP/answers | cut -f4 | tr -d ' ')
expect_same "$shown" "$sq" "crack --show-square column"

# anneal: no keyword, statistics from a text of our own, a fixed seed.  A
# corpus this small leaves most quadgrams unseen, so between random squares
# the score hardly moves and the default temperature comes out too cold for
# it: the temperature is given.
tr -cd 'A-Za-z' < $D/story.txt | cut -c1-300 > $T_TMP/story
$SBFS playfair encrypt -K "MONAR CHYBD EFGIK LPQST UVWXZ" $T_TMP/story > $T_TMP/story.ct
expect_status 0 "anneal" -- $SBFS playfair anneal --corpus $D/story.txt --seed 1 --restarts 4 --temperature 0.8 $T_TMP/story.ct
paste $T_TMP/story.ct $T_TMP/out > $T_TMP/answers
expect_status 0 "verify the annealed square" -- $VERIFY playfair --square < $T_TMP/answers
expect_line "1 verified, 0 unsolved" "anneal verify count" $T_TMP/out
$SBFS playfair encrypt -K "ABCDE FGHIK LMNOP QRSTU VWXYZ" $T_TMP/story | \
    $SBFS playfair decrypt -K "ABCDE FGHIK LMNOP QRSTU VWXYZ" | tr -d ' ' > $T_TMP/story.prep
expect_same "$(cut -f3 $T_TMP/answers)" "$(cat $T_TMP/story.prep)" "anneal recovers the passage"
expect_status 3 "anneal: missing corpus" -- $SBFS playfair anneal --corpus $T_TMP/nonexistent $T_TMP/story.ct
expect_status 6 "anneal: corpus too small" -- $SBFS playfair anneal --corpus $T_TMP/hide $T_TMP/story.ct
expect_status 2 "anneal takes no --square" -- $SBFS playfair anneal --square rows $T_TMP/story.ct
expect_status 2 "anneal: --temperature 0" -- $SBFS playfair anneal --temperature 0 $T_TMP/story.ct
expect_status 2 "anneal: --temperature x" -- $SBFS playfair anneal --temperature x $T_TMP/story.ct

# the statistics are cached (here in folders of their own, the first
# argument of anneal_c): counted the first time and saved, read back the
# next, the same answers; a damaged table is noted and counted again; a
# changed corpus file is another corpus; --no-cache neither reads nor
# writes; a corpus changed in the last two seconds is not saved (its file
# times might not show the next change); without a cache folder, or with
# one that cannot be made, the statistics are counted
C=$T_TMP/qc/sbfs
cp $D/story.txt $T_TMP/corpus.txt
for k in 1 2 3 4 5 6 7 8 9; do cp $D/story.txt $T_TMP/c$k.txt; echo "Corpus $k." >> $T_TMP/c$k.txt; done
anneal_c() { cache=$1; corpus=$2; shift 2
    XDG_CACHE_HOME=$cache $SBFS playfair anneal --corpus $corpus --seed 2 --restarts 4 --temperature 0.8 --stats \
        "$@" $T_TMP/story.ct > $T_TMP/out 2> $T_TMP/err; }
anneal_c $T_TMP/qc $T_TMP/corpus.txt
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: a corpus just written counted" $T_TMP/err
[ ! -e $C ] || [ -z "$(ls $C)" ] && ok || bad "anneal: a corpus just written not saved"
sleep 3
anneal_c $T_TMP/qc $T_TMP/corpus.txt
cp $T_TMP/out $T_TMP/cached.want
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: statistics counted the first time" $T_TMP/err
expect_same "$(ls $C | grep -c '^quadgrams-[0-9a-f]*\.tab$')" 1 "anneal: statistics saved in the cache"
anneal_c $T_TMP/qc $T_TMP/corpus.txt
expect_grep "^quadgrams: [0-9]+ read from $C/quadgrams-[0-9a-f]{16}\.tab in" "anneal: read from the cache" $T_TMP/err
expect_same "$(cat $T_TMP/out)" "$(cat $T_TMP/cached.want)" "anneal: the same answers from the cache"
ls -l --full-time $C > $T_TMP/before
anneal_c $T_TMP/qc $T_TMP/corpus.txt --no-cache
expect_grep "^quadgrams: [0-9]+ counted in" "anneal --no-cache: counted" $T_TMP/err
ls -l --full-time $C > $T_TMP/after
cmp -s $T_TMP/before $T_TMP/after && ok || bad "anneal --no-cache: the cache left as it was"
expect_same "$(cat $T_TMP/out)" "$(cat $T_TMP/cached.want)" "anneal --no-cache: the same answers"
anneal_c $T_TMP/none $T_TMP/corpus.txt --no-cache
[ ! -e $T_TMP/none ] && ok || bad "anneal --no-cache: no cache folder made"
f=$(ls $C/quadgrams-*.tab)
b=$(od -An -tu1 -j5000 -N1 "$f" | tr -d ' ')
printf "\\$(printf %o $(( (b + 1) % 256 )))" | dd of="$f" bs=1 seek=5000 conv=notrunc 2>/dev/null
anneal_c $T_TMP/qc $T_TMP/corpus.txt
expect_grep "checksum mismatch.*counting the corpus again" "anneal: a damaged cache noted" $T_TMP/err
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: counted again" $T_TMP/err
expect_same "$(cat $T_TMP/out)" "$(cat $T_TMP/cached.want)" "anneal: the same answers after the damage"
anneal_c $T_TMP/qc $T_TMP/corpus.txt
expect_grep "^quadgrams: [0-9]+ read from" "anneal: the damaged table saved over" $T_TMP/err
echo "The end." >> $T_TMP/corpus.txt
sleep 3
anneal_c $T_TMP/qc $T_TMP/corpus.txt
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: a changed corpus counted again" $T_TMP/err
expect_same "$(ls $C | grep -c '^quadgrams-[0-9a-f]*\.tab$')" 2 "anneal: one table for each corpus"
mkfifo $T_TMP/fifo
cat $T_TMP/corpus.txt > $T_TMP/fifo &
anneal_c $T_TMP/fifoc $T_TMP/fifo
wait
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: a corpus from a pipe counted" $T_TMP/err
[ ! -e $T_TMP/fifoc/sbfs ] || [ -z "$(ls $T_TMP/fifoc/sbfs)" ] && ok || bad "anneal: a corpus from a pipe not saved"
HOME= XDG_CACHE_HOME= $SBFS playfair anneal --corpus $T_TMP/corpus.txt --restarts 4 --stats $T_TMP/story.ct \
    > /dev/null 2> $T_TMP/err
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: no cache folder, counted" $T_TMP/err
expect_status 0 "anneal: a cache folder that cannot be made" -- env XDG_CACHE_HOME=/dev/null/x $SBFS playfair \
    anneal --corpus $T_TMP/corpus.txt --restarts 4 --stats $T_TMP/story.ct
expect_grep "cannot create /dev/null/x/sbfs .*: quadgram statistics will not be cached" \
    "anneal: the cache folder that cannot be made noted" $T_TMP/err
# the cache keeps the eight tables used last: a ninth corpus pushes out
# the first; a table read counts as used
for k in 1 2 3 4 5 6 7 8 9; do anneal_c $T_TMP/lru $T_TMP/c$k.txt; done
expect_same "$(ls $T_TMP/lru/sbfs | grep -c '^quadgrams-[0-9a-f]*\.tab$')" 8 "anneal: eight tables kept"
anneal_c $T_TMP/lru $T_TMP/c2.txt
expect_grep "^quadgrams: [0-9]+ read from" "anneal: the second corpus still cached" $T_TMP/err
anneal_c $T_TMP/lru $T_TMP/c1.txt
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: the first corpus pushed out" $T_TMP/err
anneal_c $T_TMP/lru $T_TMP/c2.txt
expect_grep "^quadgrams: [0-9]+ read from" "anneal: a table read counts as used" $T_TMP/err
anneal_c $T_TMP/lru $T_TMP/c3.txt
expect_grep "^quadgrams: [0-9]+ counted in" "anneal: the table used longest ago pushed out" $T_TMP/err

# errors
expect_status 0 "help" -- $SBFS playfair --help
expect_grep "crack" "help names crack" $T_TMP/out
expect_grep "anneal" "help names anneal" $T_TMP/out
expect_grep "--square ORDER" "help names --square" $T_TMP/out
expect_status 0 "subcommand help" -- $SBFS playfair crack --help
expect_status 3 "missing dictionary" -- $SBFS playfair crack -d $T_TMP/nonexistent $D/cipher.txt
expect_grep "nonexistent" "message names the file" $T_TMP/err
expect_status 6 "dictionary without words" -- $SBFS playfair crack -d /dev/null $D/cipher.txt
printf 'HW UY\nHWU\n' > $T_TMP/odd
expect_status 6 "odd ciphertext for decrypt" -- $SBFS playfair decrypt -k CRYPTOGRAM $T_TMP/odd
expect_grep ":2:3: odd number of letters" "decrypt error names line and column" $T_TMP/err
expect_status 6 "odd ciphertext for crack" -- $SBFS playfair crack -d $D/words.txt $T_TMP/odd
expect_grep ":2:3: odd number of letters" "crack error names line and column" $T_TMP/err
expect_line "-		unsolved" "odd line still answered" $T_TMP/out
expect_status 2 "missing keyword" -- $SBFS playfair encrypt $D/plain.txt
expect_status 2 "bad keyword" -- $SBFS playfair encrypt -k "crypto-gram" $D/plain.txt
expect_status 2 "unknown subcommand" -- $SBFS playfair frobnicate
expect_status 3 "missing input" -- $SBFS playfair encrypt -k A $T_TMP/nonexistent
# the options the GNU way, from each subcommand's table
expect_file $D/encrypt.out "encrypt, --keyword=" -- $SBFS playfair encrypt --keyword=cryptogram $D/plain.txt
expect_file $D/encrypt.out "encrypt from standard input" -- sh -c "$SBFS playfair encrypt -kcryptogram - < $D/plain.txt"
expect_file $D/crack.out "crack, --dictionary= and --" -- $SBFS playfair crack --dictionary=$D/words.txt -- $D/cipher.txt
expect_status 2 "--show-square is not for anneal" -- $SBFS playfair anneal --show-square $T_TMP/story.ct
expect_grep "unknown option '--show-square'" "anneal: the option named" $T_TMP/err
expect_status 2 "two input files" -- $SBFS playfair crack $D/cipher.txt $D/cipher.txt
expect_status 2 "random takes no file" -- $SBFS playfair random -d $D/words.txt $D/cipher.txt
expect_status 2 "-j out of range" -- $SBFS playfair anneal -j 0 $T_TMP/story.ct
expect_status 0 "anneal: two --corpus, --threads=2" -- $SBFS playfair anneal --corpus $D/story.txt \
    --corpus $D/plain.txt --seed 1 --restarts 4 --threads=2 --stats $T_TMP/story.ct
both=$(sed -n 's/^quadgrams: \([0-9]*\) .*/\1/p' $T_TMP/err)
$SBFS playfair anneal --corpus $D/story.txt --restarts 4 --stats $T_TMP/story.ct 2>$T_TMP/err >/dev/null
one=$(sed -n 's/^quadgrams: \([0-9]*\) .*/\1/p' $T_TMP/err)
$SBFS playfair anneal --corpus $D/plain.txt --corpus $D/story.txt --restarts 4 --stats $T_TMP/story.ct 2>$T_TMP/err >/dev/null
expect_same "$(sed -n 's/^quadgrams: \([0-9]*\) .*/\1/p' $T_TMP/err)" "$both" "--corpus: the order does not change the count"
[ -n "$both" ] && [ -n "$one" ] && [ "$both" -gt "$one" ] && ok || bad "--corpus twice: both files counted ($both against $one)"
expect_status 0 "subcommand help names its options" -- $SBFS playfair random --help
expect_grep "--letters N" "random help: --letters" $T_TMP/out
finish
