/* Options the GNU way, from one declarative table per command.
 *
 * A command declares its options once (cli_opt: short letter, long name,
 * whether a value follows, where it goes, the help line) and both the
 * parser and the help read that table, so the two cannot drift apart.
 * The forms accepted are those of getopt_long, without its abbreviations
 * (a new option must never turn a prefix someone typed into an ambiguity):
 *
 *   --threads=2  --threads 2  -j2  -j 2  -qv (= -q -v)  -qj2 (= -q -j 2)
 *   --           everything after it is an operand, "-q" included
 *   -            an operand: standard input
 *
 * Options and operands may come in any order ("god npuzzle 3x3 -j 2").
 * A value that begins with '-' is still taken as the value: "--memory -1"
 * reaches the size check, which names it. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void *field(void *o, const cli_opt *op)
{
    return (char *)o + op->off;
}

static int is_end(const cli_opt *op)
{
    return !op->shrt && !op->lng;
}

/* Store value v (NULL for a flag) of option op, named `name` on the
 * command line.  0, or the usage status with the message printed. */
static int take(const cli_cmd *c, const cli_opt *op, const char *name, const char *v, void *o)
{
    char *end;
    long n;
    switch (op->kind) {
    case CLI_FLAG:
        *(int *)field(o, op) = op->lo;
        return 0;
    case CLI_STR:
        *(const char **)field(o, op) = v;
        return 0;
    case CLI_LIST: {
        cli_list *l = field(o, op);
        if (l->n == CLI_LIST_MAX)
            return cli_usage_error_in(c->name, "%s: %s at most %d times", c->name, name, CLI_LIST_MAX);
        l->v[l->n++] = v;
        return 0;
    }
    case CLI_INT:
        errno = 0;
        n = strtol(v, &end, 10);
        if (errno || end == v || *end || n < op->lo || n > op->hi)
            return cli_usage_error_in(c->name, "%s: %s wants a number from %d to %d, not '%s'", c->name, name,
                                      op->lo, op->hi, v);
        *(int *)field(o, op) = (int)n;
        return 0;
    }
    return cli_status(SB_EINTERNAL);
}

static const cli_opt *find_long(const cli_cmd *c, const char *name, size_t len)
{
    for (const cli_opt *op = c->opts; op && !is_end(op); op++)
        if (op->lng && strlen(op->lng) == len && !strncmp(op->lng, name, len))
            return op;
    return NULL;
}

static const cli_opt *find_short(const cli_cmd *c, char ch)
{
    for (const cli_opt *op = c->opts; op && !is_end(op); op++)
        if (op->shrt == ch)
            return op;
    return NULL;
}

/* "-5" is a number, not an option, when the command says its operands may
 * be negative numbers and no option of its table is a digit. */
static int is_number(const cli_cmd *c, const char *a)
{
    return c->dash_digits && a[1] >= '0' && a[1] <= '9' && !find_short(c, a[1]);
}

/* The value of option op (shown as `shown`): v when it came in the same
 * word ("--memory=1M", "-j2"), else the next word, which it uses up. */
static int value_of(const cli_cmd *c, const cli_opt *op, const char *shown, const char *v, int argc,
                    char **argv, int *i, void *o)
{
    if (!v) {
        if (*i + 1 >= argc)
            return cli_usage_error_in(c->name, "%s: option '%s' needs a value (%s)", c->name, shown, op->arg);
        v = argv[++*i];
    }
    return take(c, op, shown, v, o);
}

int cli_parse(const cli_cmd *c, int argc, char **argv, void *o, const char **operands, int *noperands)
{
    int nops = 0, only_operands = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_operands || a[0] != '-' || !a[1] || is_number(c, a)) {
            if (nops == c->max_operands)
                return cli_usage_error_in(c->name, "%s: unexpected argument '%s'", c->name, a);
            operands[nops++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            only_operands = 1;
            continue;
        }
        if (a[1] == '-') { /* --name, --name=value, --name value */
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            const cli_opt *op = find_long(c, name, len);
            char shown[64];
            snprintf(shown, sizeof shown, "--%.*s", (int)(len < 40 ? len : 40), name);
            if (!op && len == 4 && !strncmp(name, "help", 4) && !eq) {
                cli_help(c, stdout);
                return 0;
            }
            if (!op)
                return cli_usage_error_in(c->name, "%s: unknown option '%s'", c->name, eq ? shown : a);
            if (op->kind == CLI_FLAG && eq)
                return cli_usage_error_in(c->name, "%s: option '%s' takes no value", c->name, shown);
            int st = op->kind == CLI_FLAG ? take(c, op, shown, NULL, o)
                                          : value_of(c, op, shown, eq ? eq + 1 : NULL, argc, argv, &i, o);
            if (st)
                return st;
            continue;
        }
        /* -abc: flags bundled; a letter that takes a value takes the rest
         * of the word ("-j2"), or the next word ("-j 2") */
        for (const char *p = a + 1; *p; p++) {
            const cli_opt *op = find_short(c, *p);
            char shown[3] = {'-', *p, 0};
            if (!op && *p == 'h') {
                cli_help(c, stdout);
                return 0;
            }
            if (!op)
                return cli_usage_error_in(c->name, "%s: unknown option '%s'", c->name, shown);
            if (op->kind == CLI_FLAG) {
                int st = take(c, op, shown, NULL, o);
                if (st)
                    return st;
                continue;
            }
            int st = value_of(c, op, shown, p[1] ? p + 1 : NULL, argc, argv, &i, o);
            if (st)
                return st;
            break;
        }
    }
    if (noperands)
        *noperands = nops;
    return -1;
}

/* "  -j, --threads N" as the help shows it, into buf. */
static int label(const cli_opt *op, char *buf, size_t n)
{
    int k;
    if (op->shrt && op->lng)
        k = snprintf(buf, n, "  -%c, --%s", op->shrt, op->lng);
    else if (op->shrt)
        k = snprintf(buf, n, "  -%c", op->shrt);
    else
        k = snprintf(buf, n, "      --%s", op->lng);
    if (op->kind != CLI_FLAG && op->arg)
        k += snprintf(buf + k, n - (size_t)k, " %s", op->arg);
    return k;
}

/* The help column: past the widest label, but never past 26 (a longer
 * label puts its help on the next line). */
enum { HELP_COL_MAX = 26 };

static void help_line(FILE *out, const char *lab, int col, const char *help)
{
    int k = fprintf(out, "%s", lab);
    if (k + 2 > col) {
        fputc('\n', out);
        k = 0;
    }
    fprintf(out, "%*s", col - k, "");
    /* the help text may run over several lines: each under the first */
    for (const char *s = help; *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        fprintf(out, "%.*s\n", (int)len, s);
        if (!nl)
            break;
        s = nl + 1;
        if (*s)
            fprintf(out, "%*s", col, "");
    }
}

void cli_help(const cli_cmd *c, FILE *out)
{
    char lab[96];
    int col = 0;
    fprintf(out, "usage: sbfs %s %s\n", c->name, c->synopsis);
    if (c->about)
        fputs(c->about, out);
    for (const cli_opt *op = c->opts; op && !is_end(op); op++)
        if (op->help) {
            int k = label(op, lab, sizeof lab) + 2;
            if (k > col && k <= HELP_COL_MAX)
                col = k;
        }
    if (col < (int)strlen("  -h, --help") + 2)
        col = (int)strlen("  -h, --help") + 2;
    fputs("\noptions:\n", out);
    for (const cli_opt *op = c->opts; op && !is_end(op); op++)
        if (op->help) {
            label(op, lab, sizeof lab);
            help_line(out, lab, col, op->help);
        }
    help_line(out, "  -h, --help", col, "this help");
    if (c->more)
        fprintf(out, "\n%s", c->more);
}
