# make install into a staging folder (DESTDIR, PREFIX=/usr), then the
# example programs, C and C++, built against the installed libsbfs.so
# through pkg-config alone and run from there: their exact output.  Then
# make uninstall leaves nothing behind.  Skipped, with a note, without
# pkg-config or a C++ compiler.
. tests/cli/lib.sh
for tool in pkg-config c++ make; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "note: $tool is not installed: the installed library is not tested"
        finish
        exit
    fi
done
# the build under test is installed: its library, under the sanitizers
# when it was built with them, so the programs are built the same way
san=
[ "${SBFS_SANITIZED:-0}" = 1 ] && san="-fsanitize=address,undefined"
build=${SBFS_BUILD#"$SBFS_TOP"/}
root=$T_TMP/root
V=$(sed -n 's/^#define SBFS_VERSION "\(.*\)"/\1/p' include/sbfs/core.h) # libsbfs.so.$V, soname .${V%%.*}
M=${V%%.*}
# the make test running this must not pass its own options down
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s -C "$SBFS_TOP" BUILD="$build" SAN="${SBFS_SANITIZED:-0}" PREFIX=/usr DESTDIR="$root" install \
    > "$T_TMP/install.log" 2>&1
expect_same $? 0 "make install"
L=$root/usr/lib
for f in bin/sbfs lib/libsbfs.a lib/libsbfs.so.$V include/sbfs/sbfs.h include/sbfs/easy.h \
         lib/pkgconfig/sbfs.pc share/man/man1/sbfs.1 share/doc/sbfs/LICENSE share/doc/sbfs/README.md \
         share/doc/sbfs/examples/slide_solve.c share/bash-completion/completions/sbfs \
         share/zsh/site-functions/_sbfs; do
    [ -f "$root/usr/$f" ] && ok || bad "make install: no /usr/$f"
done
expect_same "$(readlink "$L/libsbfs.so.$M")" libsbfs.so.$V "the soname link"
expect_same "$(readlink "$L/libsbfs.so")" libsbfs.so.$M "the link for -lsbfs"
expect_same "$(objdump -p "$L/libsbfs.so.$V" 2>/dev/null | awk '$1 == "SONAME" {print $2}')" libsbfs.so.$M "SONAME"
# it exports what the headers declare, no more
nm -D --defined-only "$L/libsbfs.so.$V" | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}' | sort > "$T_TMP/exported"
grep -ohE '\b(sb_[a-z0-9_]+|[A-Z][a-z]+Playfair)[[:space:]]*\(' "$root"/usr/include/sbfs/*.h | tr -d ' (' |
    sort -u > "$T_TMP/declared"
expect_same "$(comm -3 "$T_TMP/exported" "$T_TMP/declared" | tr -d '\t' | tr '\n' ' ')" "" "exported = declared"

# pkg-config sees the staged tree as if it were / (the sysroot)
export PKG_CONFIG_PATH="$L/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root"
expect_same "$(pkg-config --modversion sbfs)" "$V" "pkg-config --modversion"
expect_same "$(echo $(pkg-config --cflags --libs sbfs))" "-I$root/usr/include -L$root/usr/lib -lsbfs" "pkg-config --cflags --libs"
X=$T_TMP/x
mkdir -p "$X"
ex=$root/usr/share/doc/sbfs/examples
for p in slide_solve tiles tetraminx; do
    cc -std=c11 -Wall -Wextra -Werror $san -o "$X/$p" "$ex/$p.c" $(pkg-config --cflags --libs sbfs)
    expect_same $? 0 "$p.c built against the installed library"
done
c++ -std=c++11 -Wall -Wextra -Werror $san -o "$X/playfair" "$ex/playfair.cpp" $(pkg-config --cflags --libs sbfs)
expect_same $? 0 "playfair.cpp built against the installed library"
# the programs load the installed library, not libsbfs.a
objdump -p "$X/slide_solve" | grep NEEDED > "$T_TMP/needed"
expect_grep "libsbfs\\.so\\.$M\$" "slide_solve needs libsbfs.so.$M" "$T_TMP/needed"
export LD_LIBRARY_PATH="$L"
D=tests/cli/examples
expect_file $D/silly-s5.out "installed slide_solve" -- "$X/slide_solve" puzzles/silly.txt 5
expect_file $D/rush-hour-s1.out "installed slide_solve, Rush Hour" -- "$X/slide_solve" puzzles/rush-hour.txt 1
expect_file $D/tiles.out "installed tiles" -- "$X/tiles" < $D/tiles.in
expect_file $D/tetraminx.out "installed tetraminx" -- "$X/tetraminx" < $D/tetraminx.in
expect_file $D/playfair.out "installed playfair (C++)" -- "$X/playfair" tests/cli/playfair/words.txt < $D/cipher.txt
"$root/usr/bin/sbfs" solve --moves puzzles/silly.txt > "$T_TMP/moves"
expect_file /dev/null "installed sbfs verify" -- "$root/usr/bin/sbfs" verify -q puzzles/silly.txt "$T_TMP/moves"
unset LD_LIBRARY_PATH PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

make -s -C "$SBFS_TOP" BUILD="$build" SAN="${SBFS_SANITIZED:-0}" PREFIX=/usr DESTDIR="$root" uninstall \
    > "$T_TMP/uninstall.log" 2>&1
expect_same $? 0 "make uninstall"
expect_same "$(find "$root" -type f -o -type l | sed "s|^$root||" | tr '\n' ' ')" "" "nothing left"
# LIBDIR and MANDIR move those parts alone
make -s -C "$SBFS_TOP" BUILD="$build" SAN="${SBFS_SANITIZED:-0}" PREFIX=/opt/sbfs LIBDIR=/opt/sbfs/lib64 \
    MANDIR=/opt/sbfs/man DESTDIR="$root" install > "$T_TMP/install2.log" 2>&1
[ -f "$root/opt/sbfs/lib64/libsbfs.so.$V" ] && ok || bad "LIBDIR not honoured"
[ -f "$root/opt/sbfs/man/man1/sbfs.1" ] && ok || bad "MANDIR not honoured"
expect_line "libdir=/opt/sbfs/lib64" "sbfs.pc's libdir" "$root/opt/sbfs/lib64/pkgconfig/sbfs.pc"
finish
