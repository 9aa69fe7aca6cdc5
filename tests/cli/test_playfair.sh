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

# errors
expect_status 0 "help" -- $SBFS playfair --help
expect_grep "crack" "help names crack" $T_TMP/out
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
finish
