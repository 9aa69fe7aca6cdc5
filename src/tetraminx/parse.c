/* Reading a Tetraminx position from one line of text, and writing moves.
 *
 * A line is a scramble or a facelet string, and the two are told apart
 * without guessing: every move word is one or two characters long ("U",
 * "U'", "u2"), so a line that is a single word of three or more characters
 * with no apostrophe can only be meant as a facelet string.  A word like
 * "UR" is therefore a bad move, not a short facelet string, and "FFFX..."
 * a facelet string with a bad colour, and each is reported as such.
 *
 * Scrambles follow the WCA Pyraminx notation.  The tip moves u l r b turn
 * parts a Tetraminx does not have, so they are skipped, which lets a WCA
 * Pyraminx scramble be used unchanged.  "X2" is read as X' (two clockwise
 * thirds are one counter-clockwise third), an extension some programs
 * write. */
#include "tet_internal.h"

#include <string.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* A character as a message can show it: itself, \0 for a NUL, or \xNN. */
static const char *shown(char c, char *buf)
{
    unsigned char u = (unsigned char)c;
    if (u > ' ' && u < 127) {
        buf[0] = c;
        buf[1] = '\0';
    } else if (u == 0) {
        buf[0] = '\\';
        buf[1] = '0';
        buf[2] = '\0';
    } else {
        static const char hex[] = "0123456789abcdef";
        buf[0] = '\\';
        buf[1] = 'x';
        buf[2] = hex[u >> 4];
        buf[3] = hex[u & 15];
        buf[4] = '\0';
    }
    return buf;
}

/* Move number of a word of length 1 or 2, -2 for a tip move, -1 if none. */
static int move_word(const char *w, size_t n)
{
    static const char corners[] = "ULRB", tips[] = "ulrb";
    const char *c;
    int m;
    if (n < 1 || n > 2 || w[0] == '\0')
        return -1;
    if (n == 2 && w[1] != '\'' && w[1] != '2')
        return -1;
    if ((c = strchr(tips, w[0])) != NULL)
        return -2;
    if ((c = strchr(corners, w[0])) == NULL)
        return -1;
    m = (int)(c - corners) * 2;
    return n == 2 ? m + 1 : m;
}

static int parse_facelets(const char *s, size_t n, int line, int col0, sb_tet_pieces *out,
                          sb_error *err)
{
    sb_tet_facelets f;
    int rc;
    for (size_t i = 0; i < n && i < SB_TET_NFACELETS; i++) {
        switch (s[i]) {
        case 'F': f.c[i] = SB_TET_F; break;
        case 'D': f.c[i] = SB_TET_D; break;
        case 'L': f.c[i] = SB_TET_L; break;
        case 'R': f.c[i] = SB_TET_R; break;
        default: {
            char buf[8];
            return sb_error_set(err, SB_EINPUT, line, col0 + (int)i,
                                "'%s' is not a colour: a facelet string uses only F, D, L and R",
                                shown(s[i], buf));
        }
        }
    }
    if (n != SB_TET_NFACELETS)
        return sb_error_set(err, SB_EINPUT, line, col0 + (int)(n < SB_TET_NFACELETS ? n : 28),
                            "a facelet string has 28 letters, this one %zu", n);
    rc = sb_tet_facelets_to_pieces(&f, out, err);
    if (rc && err) {
        err->line = line;
        err->col += col0 - 1;
    }
    return rc;
}

int sb_tet_parse(const char *s, size_t n, int line, sb_tet_pieces *out, sb_error *err)
{
    size_t a = 0, b = n, i;
    if (!out || (!s && n))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_tet_parse: %s is NULL", out ? "s" : "out");
    while (a < b && is_blank(s[a]))
        a++;
    while (b > a && is_blank(s[b - 1]))
        b--;
    for (i = a; i < b && !is_blank(s[i]); i++)
        ;
    if (i == b && b - a >= 3 && memchr(s + a, '\'', b - a) == NULL)
        return parse_facelets(s + a, b - a, line, (int)a + 1, out, err);
    sb_tet_pieces_solved(out);
    for (i = a; i < b;) {
        size_t w = i;
        int m;
        while (i < b && !is_blank(s[i]))
            i++;
        m = move_word(s + w, i - w);
        for (size_t j = w; m == -1 && j < i; j++) {
            char buf[8];
            if ((unsigned char)s[j] <= ' ' || (unsigned char)s[j] >= 127)
                return sb_error_set(err, SB_EINPUT, line, (int)j + 1,
                                    "'%s' cannot be part of a move (moves are U U' L L' R R' "
                                    "B B')", shown(s[j], buf));
        }
        if (m == -1)
            return sb_error_set(err, SB_EINPUT, line, (int)w + 1,
                                "'%.*s' is not a move (moves are U U' L L' R R' B B'; tips u l r b "
                                "are skipped)",
                                (int)(i - w > 20 ? 20 : i - w), s + w);
        if (m >= 0)
            sb_tet_pieces_move(out, m);
        while (i < b && is_blank(s[i]))
            i++;
    }
    return 0;
}

size_t sb_tet_format_moves(const uint8_t *moves, int len, char *out)
{
    size_t k = 0;
    if (!out || len < 0 || (!moves && len > 0))
        return SIZE_MAX;
    for (int i = 0; i < len; i++)
        if (moves[i] >= SB_TET_NMOVES) {
            out[0] = '\0';
            return SIZE_MAX;
        }
    for (int i = 0; i < len; i++) {
        const char *nm = sb_tet_move_name(moves[i]);
        if (i)
            out[k++] = ' ';
        while (*nm)
            out[k++] = *nm++;
    }
    out[k] = '\0';
    return k;
}
