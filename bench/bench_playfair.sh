#!/bin/sh
# Playfair: the set-up InitPlayfair does (the whole system word list, about
# 73,000 words after filtering) and cracking 100 random messages of 1-8
# words under random keywords.  Each figure is the median of RUNS runs.
# Targets: set-up under 100 ms; 100 messages under 50 ms.
set -u
SBFS=${SBFS:-./sbfs}
SBFS_TOP=${SBFS_TOP:-.}
RUNS=${RUNS:-5}
DICT=/usr/share/dict/words
if [ ! -f $DICT ]; then
    echo "playfair: $DICT missing (Debian package wamerican): skipped"
    exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
$SBFS playfair random -n 100 --seed 2026 --words 1-8 > "$tmp/msgs" || exit 1
cut -f3 "$tmp/msgs" > "$tmp/ct"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
i=0
while [ $i -lt "$RUNS" ]; do
    $SBFS playfair crack --stats "$tmp/ct" > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
    sed -n 's/^set-up: .* in \([0-9.]*\) ms$/\1/p' "$tmp/err" >> "$tmp/init"
    sed -n 's/^dictionary: .* in \([0-9.]*\) ms$/\1/p' "$tmp/err" >> "$tmp/read"
    sed -n 's/^cracked: .* in \([0-9.]*\) ms, .*/\1/p' "$tmp/err" >> "$tmp/crack"
    i=$((i + 1))
done
paste "$tmp/ct" "$tmp/out" > "$tmp/answers"
check=$("$SBFS_TOP/tests/verify" playfair $DICT < "$tmp/answers") || { echo "playfair: answers FAILED verification"; exit 1; }
amb=$(grep -c '	ambiguous$' "$tmp/out")
same=$(cut -f2 "$tmp/msgs" | paste - "$tmp/out" | awk -F'\t' '$1 == $3' | wc -l)
words=$(sed -n 's/^set-up: \([0-9]*\) distinct matrices.*/\1/p' "$tmp/err")
echo "word list: $(sed -n 's/^dictionary: \([0-9]*\) words.*/\1/p' "$tmp/err") words, $words distinct matrices;" \
     "reading and filtering the file: $(median < "$tmp/read") ms"
echo "set-up (InitPlayfair): $(median < "$tmp/init") ms   (median of $RUNS runs; target < 100 ms)"
c=$(median < "$tmp/crack")
echo "100 messages: $c ms, $(echo "$c" | awk '{ printf "%.3f", $1 / 100 }') ms per message" \
     "(median of $RUNS runs; target < 50 ms per 100)"
echo "answers: $check; $amb ambiguous; $same of 100 read exactly as written"
echo "$(sed -n "s/^search: //p" "$tmp/err")"
