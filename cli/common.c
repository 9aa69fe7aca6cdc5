/* Error printing, input opening, the progress line and Ctrl-C handling for
 * every subcommand. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int cli_status(int code)
{
    return code < 0 ? -code : (code ? 1 : 0);
}

int cli_fail(const char *file, const sb_error *err)
{
    fputs("sbfs: ", stderr);
    if (file && err->line > 0) {
        fprintf(stderr, "%s:%d:", strcmp(file, "-") ? file : "<stdin>", err->line);
        if (err->col > 0)
            fprintf(stderr, "%d:", err->col);
        fputc(' ', stderr);
    }
    fprintf(stderr, "%s\n", err->msg[0] ? err->msg : sb_strerror(err->code));
    return cli_status(err->code ? err->code : SB_EINTERNAL);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("sbfs: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (try 'sbfs --help')\n", stderr);
    return cli_status(SB_EUSAGE);
}

FILE *cli_open(const char *file, sb_error *err)
{
    FILE *f;
    if (!file || strcmp(file, "-") == 0)
        return stdin;
    f = fopen(file, "r");
    if (!f)
        sb_error_set(err, SB_EIO, 0, 0, "%s: %s", file, strerror(errno));
    return f;
}

void cli_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

/* The stop flag a Ctrl-C sets.  It lives in the front end, not in the
 * library: the library only reads the flag its caller hands it. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void human(char *buf, size_t n, double v, const char *unit)
{
    const char *pre = "";
    if (v >= 1e9) v /= 1e9, pre = "G";
    else if (v >= 1e6) v /= 1e6, pre = "M";
    else if (v >= 1e3) v /= 1e3, pre = "k";
    snprintf(buf, n, *pre ? "%.1f%s%s" : "%.0f%s%s", v, pre, unit);
}

static void show(void *ud, const sb_progress_info *in)
{
    cli_progress *p = ud;
    double now = sb_now();
    char done[32], rate[32], mem[32];
    if (!p->enabled || now - p->last < 0.25)
        return;
    p->last = now;
    human(done, sizeof done, (double)in->done, "");
    human(rate, sizeof rate, in->done / (now - p->start > 1e-9 ? now - p->start : 1e-9), "/s");
    human(mem, sizeof mem, (double)in->mem_used, "B");
    fprintf(stderr, "\r\033[K%s", in->phase ? in->phase : "working");
    if (in->level >= 0)
        fprintf(stderr, " depth %d", in->level);
    fprintf(stderr, ": %s", done);
    if (in->total)
        fprintf(stderr, " of %.0f (%.0f%%)", (double)in->total, 100.0 * in->done / in->total);
    fprintf(stderr, ", %s, mem %s", rate, mem);
    fflush(stderr);
    p->shown = 1;
}

void cli_control_init(sb_control *ctl, cli_progress *p, int mode)
{
    struct sigaction sa;
    memset(p, 0, sizeof *p);
    p->enabled = mode < 0 ? isatty(STDERR_FILENO) : mode;
    p->start = p->last = sb_now();
    ctl->progress = show;
    ctl->ud = p;
    ctl->stop = &interrupted;
    interrupted = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

void cli_control_done(sb_control *ctl, cli_progress *p)
{
    (void)ctl;
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = 0;
    signal(SIGINT, SIG_DFL);
}

int cli_memory_budget(const char *arg, size_t *out, sb_error *err)
{
    if (arg)
        return sb_mem_parse_size(arg, out, err);
    /* Default: three quarters of the machine, so the system keeps room. */
    *out = sb_mem_physical() / 4 * 3;
    if (*out == 0)
        *out = (size_t)4 << 30;
    return 0;
}
