# CLI tests of the solution viewer (solve --html, show, npuzzle --html,
# tetraminx solve --html, --svg) in a real browser: headless Chromium loads
# each page at a given step (#step=N) and the page writes the colours its
# canvas holds at the middle of named cells (#probe=I,J,...) into the DOM,
# which --dump-dom prints; the test compares them with the colours each
# piece must have there.  A script error (the page's window.onerror writes
# a <pre id="sbfs-error">, the console says "Uncaught") fails the test.
# Without Chromium the browser checks are skipped with a note; the pages are
# still written and checked for being self-contained.
. tests/cli/lib.sh
P=puzzles
W=$T_TMP/pages
mkdir -p "$W"

# ---- the pages, without a browser ----------------------------------------
expect_status 0 "solve --html klotski" -- $SBFS solve -q --html "$W/klotski.html" --svg "$W/klotski.svg" $P/klotski.txt
expect_line "solution: 116 moves" "solve --html: the text output stays" "$T_TMP/out"
# the page steps through the solution the text gives, which replays
$SBFS solve $P/klotski.txt >"$T_TMP/klotski.sol"
expect_status 0 "klotski: the solution replays" -- "$VERIFY" slide 0 $P/klotski.txt "$T_TMP/klotski.sol"
sed -n 's/^move [0-9]*: //p' "$T_TMP/klotski.sol" >"$T_TMP/klotski.moves"
sed -n 's/^"moves": \[\(.*\)\],$/\1/p' "$W/klotski.html" | sed 's/", "/\n/g; s/"//g' >"$T_TMP/page.moves"
expect_status 0 "klotski page: the moves of the solution" -- cmp "$T_TMP/klotski.moves" "$T_TMP/page.moves"
expect_status 0 "show silly" -- $SBFS show --html "$W/silly.html" --svg "$W/silly.svg" $P/silly.txt
$SBFS show $P/silly.txt >"$W/silly-stdout.html"
expect_status 0 "show: the page on stdout by default" -- cmp "$W/silly.html" "$W/silly-stdout.html"
echo "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15" >"$T_TMP/fifteen"
expect_status 0 "npuzzle --html" -- $SBFS npuzzle --pdb 555 --pdb-dir "$T_TMP/pdb" --html "$W/fifteen.html" "$T_TMP/fifteen"
printf 'U\n' >"$T_TMP/tet"
expect_status 0 "tetraminx solve --html" -- $SBFS tetraminx solve --html "$W/tet.html" "$T_TMP/tet"
expect_status 3 "an unwritable page" -- $SBFS show --html "$T_TMP/no/such/dir/x.html" $P/silly.txt
expect_grep "no/such/dir/x.html: No such file or directory" "an unwritable page: named" "$T_TMP/err"
for p in klotski silly fifteen tet; do
    # self-contained: nothing fetched from anywhere
    if grep -Eiq '(src|href)=|https?:|@import|url\(' "$W/$p.html"; then bad "$p.html refers to something outside"; else ok; fi
    expect_grep '<script type="application/json" id="sbfs-data">' "$p.html has its data" "$W/$p.html"
done
expect_grep 'stroke-dasharray="5 4"' "silly.svg: the goal cells marked" "$W/silly.svg"

if ! command -v chromium >/dev/null 2>&1; then
    echo "note: chromium not found: the pages were not loaded in a browser (.ci/run installs Debian's chromium)"
    finish
    exit
fi

# load URL: the page's DOM after its scripts ran, in $T_TMP/dom; console
# errors in $T_TMP/console
n=0
load() {
    n=$((n + 1))
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$T_TMP/chrome" --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
        --dump-dom "$1" >"$T_TMP/dom" 2>"$T_TMP/console"
}
# probe PAGE STEP CELLS EXPECTED: the colours drawn at CELLS after STEP moves
probe() {
    load "file://$W/$1#step=$2&probe=$3"
    got=$(sed -n 's/.*<pre id="sbfs-probe">\([^<]*\)<\/pre>.*/\1/p' "$T_TMP/dom")
    expect_same "$got" "step $2 $4" "$1 at step $2"
    if grep -q 'id="sbfs-error"' "$T_TMP/dom"; then
        bad "$1: script error: $(grep -o 'script error[^<]*' "$T_TMP/dom")"; else ok; fi
    if grep -q 'Uncaught' "$T_TMP/console"; then bad "$1: console: $(grep -m1 Uncaught "$T_TMP/console")"; else ok; fi
}
E='#f3efe6' # an empty cell
X='#3a3a3a' # a wall

# Klotski: Cao Cao (the 2x2 block, kind 1: the second kind met, hue 98)
# starts at the top centre above two empty cells and ends at the bottom
# centre; the soldiers (kind 4) share a hue, each its own lightness.
CAO='#79d345'
probe klotski.html 0 1,2,5,6,17,18 "1=$CAO 2=$CAO 5=$CAO 6=$CAO 17=$E 18=$E"
probe klotski.html 116 13,14,17,18 "13=$CAO 14=$CAO 17=$CAO 18=$CAO"
# the first move takes the soldier at row 5 column 4 (the last of the four
# in cell order: the lightest purple) one cell left, into cell 18
first=$(sed -n 's/.*"moves": \["\([^"]*\)".*/\1/p' "$W/klotski.html")
expect_same "$first" "4@r5c4 left" "klotski: the first move"
probe klotski.html 0 19 "19=#bf83e2"
probe klotski.html 1 17,18,19 "17=$E 18=#bf83e2 19=$E"
# a step past the end is the end
load "file://$W/klotski.html#step=500&probe=13"
expect_grep "<pre id=\"sbfs-probe\">step 116 13=$CAO</pre>" "klotski: step 500 is the last" "$T_TMP/dom"

# SLIDING's silly puzzle: walls where the start line has x, each kind its hue
probe silly.html 0 0,3,4,5,24 "0=#d35845 3=$X 4=$X 5=#45d358 24=$E"

# the 15-puzzle: tile 15 (goal row 4: hue 278) slides left into the blank
T15='#ab5fd7'
probe fifteen.html 0 14,15 "14=$E 15=$T15"
probe fifteen.html 1 14,15 "14=$T15 15=$E"

# the Tetraminx after U, on its net: F's tet at U (facelet 0) shows R's
# colour (blue), L's and R's show F's and L's; U' solves it; the truncation
# triangle of U (24) is always D's colour (yellow)
G='#2ea043' Y='#f2cf1d' R='#d7342a' B='#2f6bd6'
probe tet.html 0 0,14,18,6,24 "0=$B 14=$G 18=$R 6=$Y 24=$Y"
probe tet.html 1 0,14,18,6,24 "0=$G 14=$R 18=$B 6=$Y 24=$Y"

# the check can fail: a page whose script breaks is caught
sed 's/JSON.parse(/JSON.parsed(/' "$W/silly.html" >"$W/broken.html"
load "file://$W/broken.html#probe=0"
expect_grep 'id="sbfs-error"' "a broken page shows its error" "$T_TMP/dom"
if grep -q 'id="sbfs-probe"' "$T_TMP/dom"; then bad "a broken page still probed"; else ok; fi

# the SVG: drawn into a canvas by a page of the test's own, read back
svgpx() { # SVG X Y: the colour at (X, Y)
    b64=$(base64 -w0 "$1")
    cat >"$W/svg.html" <<EOF
<!DOCTYPE html><html><body><script>
var img = new Image();
img.onload = function () {
  var c = document.createElement("canvas"), g = c.getContext("2d"), p, i, h = "#";
  c.width = img.width; c.height = img.height; g.drawImage(img, 0, 0);
  p = g.getImageData($2, $3, 1, 1).data;
  for (i = 0; i < 3; i++) h += (p[i] < 16 ? "0" : "") + p[i].toString(16);
  var e = document.createElement("pre"); e.id = "px"; e.textContent = h; document.body.appendChild(e);
};
img.onerror = function () {
  var e = document.createElement("pre"); e.id = "px"; e.textContent = "no image"; document.body.appendChild(e);
};
img.src = "data:image/svg+xml;base64,$b64";
</script></body></html>
EOF
    load "file://$W/svg.html"
    sed -n 's/.*<pre id="px">\([^<]*\)<\/pre>.*/\1/p' "$T_TMP/dom"
}
# silly: cells of 64 px from (10, 10); a quarter into cells 0, 3 and 24
expect_same "$(svgpx "$W/silly.svg" 26 26)" "#d35845" "silly.svg: piece 1"
expect_same "$(svgpx "$W/silly.svg" 218 26)" "$X" "silly.svg: a wall"
expect_same "$(svgpx "$W/silly.svg" 282 282)" "$E" "silly.svg: an empty cell"
# klotski: the start, Cao Cao at cell 1 (64 px cells)
expect_same "$(svgpx "$W/klotski.svg" 90 26)" "$CAO" "klotski.svg: Cao Cao"
finish
