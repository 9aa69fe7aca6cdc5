/* Error printing, input opening, the progress line and Ctrl-C handling for
 * every subcommand. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* The message, then the hint: one hint a message, whichever command. */
static int usage_error(const char *cmd, const char *fmt, va_list ap)
{
    fputs("sbfs: ", stderr);
    vfprintf(stderr, fmt, ap);
    if (cmd)
        fprintf(stderr, " (try 'sbfs %s --help')\n", cmd);
    else
        fputs(" (try 'sbfs --help')\n", stderr);
    return cli_status(SB_EUSAGE);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    int st;
    va_start(ap, fmt);
    st = usage_error(NULL, fmt, ap);
    va_end(ap);
    return st;
}

int cli_usage_error_in(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    int st;
    va_start(ap, fmt);
    st = usage_error(cmd, fmt, ap);
    va_end(ap);
    return st;
}

/* The stop flag a Ctrl-C sets.  It lives in the front end, not in the
 * library: the library only reads the flag its caller hands it.  Once set
 * it stays set: the process has one command to run, and a Ctrl-C that
 * comes between two phases (reading, then building) must stop the second
 * as well. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* Without SA_RESTART: a read that waits (a terminal, a pipe, a FIFO) or an
 * open that waits (a FIFO without a writer) then fails with EINTR, so a
 * Ctrl-C ends the wait instead of being noted and left for later. */
static void catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

int cli_interrupted(void)
{
    return interrupted != 0;
}

void cli_request_stop(void)
{
    interrupted = 1;
}

static const char *shown_name(const char *file)
{
    return !file || strcmp(file, "-") == 0 ? "<stdin>" : file;
}

FILE *cli_open(const char *file, sb_error *err)
{
    FILE *f;
    catch_sigint();
    if (interrupted) {
        sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
        return NULL;
    }
    if (!file || strcmp(file, "-") == 0)
        return stdin;
    f = fopen(file, "r");
    if (!f && interrupted)
        sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
    else if (!f)
        sb_error_set(err, SB_EIO, 0, 0, "%s: %s", file, strerror(errno));
    return f;
}

void cli_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

int cli_read_check(FILE *f, const char *file, sb_error *err)
{
    int e = errno;
    if (interrupted)
        return sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
    if (ferror(f))
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", shown_name(file),
                            e ? strerror(e) : "read error");
    return 0;
}

/* Why writing stdout failed, taken when the failure was first seen: a
 * stream that failed once may have dropped its buffer, and then a later
 * flush succeeds with nothing to say. */
static int out_errno;

int cli_output_failed(void)
{
    if (!ferror(stdout))
        return 0;
    if (!out_errno)
        out_errno = errno;
    return 1;
}

int cli_flush(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!out_errno)
        out_errno = errno;
    return -1;
}

int cli_finish(int status)
{
    int e;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    /* When the buffer is still there the flush above tried again and errno
     * says why; otherwise the reason seen first stands. */
    e = errno ? errno : out_errno;
    if (e == EPIPE)
        return status; /* the reader has all it wanted (SIGPIPE ignored) */
    fprintf(stderr, "sbfs: write error: %s\n", e ? strerror(e) : "output lost");
    return status ? status : cli_status(SB_EIO);
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
    char done[32], rate[32], mem[32], states[32], disk[32];
    /* a new phase or level: its estimate starts afresh */
    if (in->phase != p->phase || in->level != p->level) {
        p->phase = in->phase;
        p->level = in->level;
        p->phase_start = now;
    }
    if (!p->enabled || now - p->last < (p->tty ? 0.25 : 1.0))
        return;
    p->last = now;
    double secs = now - p->start > 1e-9 ? now - p->start : 1e-9;
    human(done, sizeof done, (double)in->done, "");
    human(rate, sizeof rate, (double)(in->states ? in->states : in->done) / secs, "/s");
    human(mem, sizeof mem, (double)in->mem_used, "B");
    human(states, sizeof states, (double)in->states, "");
    human(disk, sizeof disk, (double)in->disk_used, "B");
    /* On a terminal the line is rewritten in place; elsewhere (a log
     * file) each report is a line of its own, and no escape codes. */
    if (p->tty)
        fputs("\r\033[K", stderr);
    fputs(in->phase ? in->phase : "working", stderr);
    if (in->level >= 0)
        fprintf(stderr, " depth %d", in->level);
    fprintf(stderr, ": %s", done);
    if (in->total)
        fprintf(stderr, " of %.0f (%.0f%%)", (double)in->total, 100.0 * in->done / in->total);
    if (in->states)
        fprintf(stderr, ", %s states", states);
    fprintf(stderr, ", %s, mem %s", rate, mem);
    if (in->disk_used)
        fprintf(stderr, ", disk %s", disk);
    /* what is left of this phase, at the pace it has gone so far */
    if (in->total && in->done && in->done < in->total && now - p->phase_start > 1.0)
        fprintf(stderr, ", ~%.0f s left", (now - p->phase_start) * (double)(in->total - in->done) / (double)in->done);
    fputs(p->tty ? "" : "\n", stderr);
    fflush(stderr);
    p->shown = p->tty;
}

void cli_control_init(sb_control *ctl, cli_progress *p, int mode)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO);
    p->enabled = mode < 0 ? p->tty : mode;
    p->start = p->last = sb_now();
    ctl->progress = show;
    ctl->ud = p;
    ctl->stop = &interrupted;
    catch_sigint();
}

void cli_progress_clear(cli_progress *p)
{
    if (p && p->shown)
        fputs("\r\033[K", stderr);
    if (p)
        p->shown = 0;
}

void cli_note(cli_progress *p, const char *msg)
{
    cli_progress_clear(p);
    fprintf(stderr, "sbfs: %s\n", msg);
}

void cli_control_done(sb_control *ctl, cli_progress *p)
{
    (void)ctl;
    cli_progress_clear(p);
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

/* ---- the input reader ---- */

int cli_input_open(cli_input *in, const char *file, size_t max, sb_error *err)
{
    memset(in, 0, sizeof *in);
    in->file = file;
    in->max = max;
    in->cap = max ? max + 1 : 256;
    in->buf = malloc(in->cap);
    if (!in->buf)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    in->f = cli_open(file, err);
    if (!in->f) {
        free(in->buf);
        in->buf = NULL;
        return err->code;
    }
    return 0;
}

/* getc_unlocked: one reader per stream, and a byte at a time must cost no
 * lock.  A line past max keeps its first max bytes (a reader of lines
 * that long reports them anyway), so memory stays bounded whatever the
 * input; without max the buffer grows to the longest line. */
int cli_input_line(cli_input *in, const char **s, size_t *n, sb_error *err)
{
    size_t k = 0;
    int c;
    in->cut = 0;
    while ((c = getc_unlocked(in->f)) != EOF && c != '\n') {
        if (k + 1 >= in->cap) {
            if (in->max) {
                in->cut = 1;
                continue;
            }
            char *b = realloc(in->buf, in->cap * 2);
            if (!b)
                return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            in->buf = b;
            in->cap *= 2;
        }
        in->buf[k++] = (char)c;
    }
    if (c == EOF && (ferror(in->f) || cli_interrupted()))
        return cli_read_check(in->f, in->file, err);
    if (c == EOF && !k && !in->cut)
        return 0;
    in->buf[k] = 0;
    in->line++;
    *s = in->buf;
    *n = k;
    return 1;
}

int cli_input_all(cli_input *in, char *buf, size_t cap, size_t *len, sb_error *err)
{
    size_t got;
    *len = 0;
    while (!cli_interrupted() && *len < cap && (got = fread(buf + *len, 1, cap - *len, in->f)) > 0)
        *len += got;
    if (*len == cap)
        return 0;
    return cli_read_check(in->f, in->file, err);
}

const char *cli_input_name(const cli_input *in)
{
    return in->file ? in->file : "-";
}

void cli_input_close(cli_input *in)
{
    cli_close(in->f);
    free(in->buf);
    in->f = NULL;
    in->buf = NULL;
}

/* ---- the histogram ---- */

void cli_histogram(const char *word, int n, uint64_t (*at)(const void *ud, int d), const void *ud)
{
    for (int d = 0; d < n; d++)
        printf("%s %d: %llu\n", word, d, (unsigned long long)at(ud, d));
}

static uint64_t table_count(const void *t, int d)
{
    return sb_table_count(t, d);
}

void cli_table_histogram(const sb_table *t, int whole, const char *json)
{
    sb_table_info in = sb_table_about(t);
    if (json) { /* the puzzle's name; a table cut short has no totals */
        printf("{\"command\": \"god\", \"puzzle\": \"%s\", \"distances\": [", json);
        for (int d = 0; d < in.levels; d++)
            printf("%s%llu", d ? ", " : "", (unsigned long long)sb_table_count(t, d));
        printf("], \"complete\": %s", whole ? "true" : "false");
        if (whole)
            printf(", \"positions\": %llu, \"largest_distance\": %d", (unsigned long long)in.reached,
                   in.levels - 1);
        printf("}\n");
        return;
    }
    cli_histogram("distance", in.levels, table_count, t);
    if (whole)
        cli_histogram_end("total", in.reached, "positions", in.levels - 1);
}

void cli_histogram_end(const char *label, uint64_t n, const char *noun, int maxdist)
{
    printf("%s: %llu %s, largest distance %d\n", label, (unsigned long long)n, noun, maxdist);
}

int cli_table_disk_check(const char *cmd, const char *what, const cli_table_disk *d, const char *load,
                         size_t *dlimit)
{
    sb_error err;
    sb_error_clear(&err);
    *dlimit = 0;
    if (d->no_disk && (d->disk || d->disk_limit || d->checkpoint || d->resume))
        return cli_usage_error_in(cmd, "%s: --no-disk and --%s say opposite things", what,
                                  d->disk         ? "disk"
                                  : d->disk_limit ? "disk-limit"
                                  : d->checkpoint ? "checkpoint"
                                                  : "resume");
    if ((d->checkpoint != NULL) + (d->resume != NULL) + (d->disk != NULL) + (load != NULL) > 1)
        return cli_usage_error_in(cmd, "%s: give one of --disk, --checkpoint, --resume and --load", what);
    if (d->disk_limit && sb_mem_parse_size(d->disk_limit, dlimit, &err))
        return cli_usage_error_in(cmd, "%s: --disk-limit: %s", what, err.msg);
#ifdef SBFS_MPI
    if (d->disk || d->disk_limit || d->checkpoint || d->resume) /* the processes keep their slices in memory */
        return cli_usage_error_in(cmd, "%s: --disk, --disk-limit, --checkpoint and --resume are not available "
                                       "under MPI", what);
#endif
    return -1;
}

void cli_table_disk_note(void)
{
    const char *tmp = getenv("TMPDIR");
    fprintf(stderr, "sbfs: the table needs more than the memory budget: it is built on disk, in slices, "
                    "in a folder under %s\n", tmp && *tmp ? tmp : "/tmp");
}

static int make_dirs(const char *dir)
{
    char buf[4096];
    size_t n = strlen(dir);
    if (n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            buf[i] = c;
        }
    return 0;
}

int cli_cache_dir(const char *arg, char *dir, size_t cap, const char *what)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n = -1;
    *dir = 0;
    if (arg)
        n = snprintf(dir, cap, "%s", arg);
    else if (x && *x == '/')
        n = snprintf(dir, cap, "%s/sbfs", x);
    else if (home && *home == '/')
        n = snprintf(dir, cap, "%s/.cache/sbfs", home);
    if (n < 0)
        return -1;
    if ((size_t)n >= cap)
        errno = ENAMETOOLONG;
    if ((size_t)n >= cap || make_dirs(dir) != 0) {
        fprintf(stderr, "sbfs: cannot create %s (%s): %s will not be cached\n", dir, strerror(errno), what);
        *dir = 0;
        return -1;
    }
    return 0;
}
