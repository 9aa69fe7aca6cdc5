/* The memory budget.  Large tables are charged to an sb_mem so that a
 * user-given ceiling holds: sbfs refuses an allocation (and the caller stops
 * cleanly or falls back to a leaner method) instead of being killed by the
 * system when memory runs out. */
#include "sbfs/core.h"
#include "internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sb_mem_init(sb_mem *m, size_t limit)
{
    if (!m)
        return SB_EUSAGE;
    m->limit = limit;
    m->used = 0;
    m->peak = 0;
    return 0;
}

/* A NULL budget is no budget: everything fits and nothing is counted. */
size_t sb_mem_left(const sb_mem *m)
{
    if (!m || m->limit == 0)
        return SIZE_MAX;
    return m->used >= m->limit ? 0 : m->limit - m->used;
}

static int charge(sb_mem *m, size_t n, sb_error *err)
{
    if (!m)
        return 0;
    if (n > sb_mem_left(m))
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "memory budget exhausted: need %zu more bytes, %zu of %zu in use",
                            n, m->used, m->limit);
    m->used += n;
    if (m->used > m->peak)
        m->peak = m->used;
    return 0;
}

void *sb_mem_alloc(sb_mem *m, size_t n, sb_error *err)
{
    void *p;
    if (charge(m, n, err))
        return NULL;
    p = calloc(1, n ? n : 1);
    if (!p) {
        if (m)
            m->used -= n;
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory allocating %zu bytes", n);
    }
    return p;
}

void *sb_mem_realloc(sb_mem *m, void *p, size_t old_n, size_t new_n, sb_error *err)
{
    void *q;
    if (new_n > old_n && charge(m, new_n - old_n, err))
        return NULL;
    q = realloc(p, new_n ? new_n : 1);
    if (!q) {
        if (m && new_n > old_n)
            m->used -= new_n - old_n;
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory allocating %zu bytes", new_n);
        return NULL;
    }
    if (m && new_n < old_n)
        m->used -= old_n - new_n;
    return q;
}

void sb_mem_free(sb_mem *m, void *p, size_t n)
{
    if (!p)
        return;
    free(p);
    if (m)
        m->used = n > m->used ? 0 : m->used - n;
}

size_t sb_mem_physical(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        return (size_t)pages * (size_t)size;
#endif
    return 0;
}

int sb_mem_parse_size(const char *s, size_t *out, sb_error *err)
{
    char *end;
    double v, mul = 1;
    if (!out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_mem_parse_size: out is NULL");
    if (!s || !*s)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "empty memory size");
    /* Plain decimals only: strtod alone would also take "nan", "inf",
     * "0x1p20", "1e9" and leading blanks or signs, and NaN has no size_t. */
    errno = 0;
    v = strtod(s, &end);
    if (errno || end == s || (size_t)(end - s) != strspn(s, "0123456789.") || v != v)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "bad memory size '%s'", s);
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B' || *end == 'b') {
        if (*end == 'i')
            end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (*end)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "bad memory size '%s' (use e.g. 512M or 4G)", s);
    v *= mul;
    if (v >= (double)SIZE_MAX)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "memory size '%s' too large", s);
    /* 0 would read as sb_mem's "no limit": the opposite of what was asked. */
    if (v < 1)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "memory size '%s' is less than a byte", s);
    *out = (size_t)v;
    return 0;
}
