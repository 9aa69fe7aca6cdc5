/* Error reporting: an sb_error is filled where the failure is found and
 * passed up unchanged, so the message can name the exact input position. */
#include "sbfs/core.h"

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
