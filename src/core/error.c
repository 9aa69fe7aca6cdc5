/* Error reporting: an sb_error is filled where the failure is found and
 * passed up unchanged, so the message can name the exact input position. */
#include "sbfs/core.h"
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sb_error_set(sb_error *err, int code, int line, int col, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->line = line;
        err->col = col;
        if (!fmt) {
            snprintf(err->msg, sizeof err->msg, "%s", sb_strerror(code));
            return code;
        }
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* One byte as a message shows it, in out (4 bytes at most); its length. */
static size_t quote_byte(unsigned char u, char *out)
{
    static const char hex[] = "0123456789abcdef";
    if (u >= ' ' && u < 127) {
        out[0] = (char)u;
        return 1;
    }
    out[0] = '\\';
    if (u == 0) {
        out[1] = '0';
        return 2;
    }
    out[1] = 'x';
    out[2] = hex[u >> 4];
    out[3] = hex[u & 15];
    return 4;
}

const char *sb_error_quote(char *buf, size_t size, const char *s, size_t n)
{
    size_t at = 0, whole = 0, room;
    char one[4];
    if (size == 0)
        return buf;
    for (size_t i = 0; i < n; i++)
        whole += quote_byte((unsigned char)s[i], one);
    /* all of it when it fits, else as much as leaves room for "..." */
    room = whole < size ? size - 1 : size > 4 ? size - 4 : 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = quote_byte((unsigned char)s[i], one);
        if (at + k > room)
            break;
        memcpy(buf + at, one, k);
        at += k;
    }
    if (whole >= size && at + 3 < size) {
        memcpy(buf + at, "...", 3);
        at += 3;
    }
    buf[at] = 0;
    return buf;
}

void sb_error_clear(sb_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

const char *sb_strerror(int code)
{
    switch (code) {
    case SB_OK: return "success";
    case SB_EINTERNAL: return "internal error";
    case SB_EUSAGE: return "bad usage";
    case SB_EIO: return "input/output error";
    case SB_ENOMEM: return "memory budget exhausted";
    case SB_EINTR: return "interrupted";
    case SB_EINPUT: return "malformed input";
    case SB_EBADFILE: return "damaged or foreign file";
    case SB_EINVALPOS: return "impossible position";
    case SB_ENOTFOUND: return "not found";
    case SB_EBADSIZE: return "bad board size line";
    case SB_EBIGBOARD: return "board too large";
    case SB_EPIECENAME: return "bad piece name";
    case SB_EPATTERN: return "bad character in piece pattern";
    case SB_EEMPTYPIECE: return "empty piece";
    case SB_EFILLTWICE: return "cell filled twice";
    case SB_EPASTEND: return "configuration past the end of the board";
    case SB_EBADCHAR: return "illegal character in configuration";
    case SB_ENOPIECES: return "no pieces";
    case SB_EMISMATCH: return "start and stop hold different pieces";
    case SB_EMISSING: return "missing input line";
    case SB_ELONGLINE: return "input line too long";
    case SB_EUNDEFINED: return "undefined piece";
    default: return "unknown error";
    }
}
