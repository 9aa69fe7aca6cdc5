/* The core functions the library's modules (and the command line, which
 * is built with the library) share but a user of the library does not
 * need: allocation charged to a budget, the clock, the generator's raw
 * stream, quoting bytes for a message.  Not installed. */
#ifndef SBFS_CORE_INTERNAL_H
#define SBFS_CORE_INTERNAL_H

#include "sbfs/core.h"

/* s[0..n-1] as a message quotes it, in buf (size bytes, NUL-terminated):
 * printable ASCII as itself, a NUL byte as \0, any other byte as \xNN,
 * cut short with "..." when it does not fit.  Returns buf.  So "a\0b"
 * is shown a\0b, where %s would show only a. */
const char *sb_error_quote(char *buf, size_t size, const char *s, size_t n);

/* Zero-filled block of n bytes charged to m, or NULL with err filled. */
void *sb_mem_alloc(sb_mem *m, size_t n, sb_error *err);
/* Resize a block from sb_mem_alloc; new bytes are NOT zeroed. */
void *sb_mem_realloc(sb_mem *m, void *p, size_t old_n, size_t new_n, sb_error *err);
/* Return a block of n bytes (n as allocated) to the budget; p may be NULL. */
void sb_mem_free(sb_mem *m, void *p, size_t n);

/* The next number; 0 when r is NULL. */
uint64_t sb_rng_next(sb_rng *r);

/* The same for r not NULL, inline: xoshiro256** (Blackman and Vigna).
 * A hot loop that calls a function must keep its vector registers in
 * memory across the call; the annealer's walk draws once or twice a step. */
static inline uint64_t sb_rng_step(sb_rng *r)
{
    uint64_t *s = r->s, t = s[1] << 17, x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Convenience for library code: nonzero when ctl asks to stop.  Worker
 * threads poll the flag while a signal handler or a progress callback on
 * another thread sets it, so it is read as an atomic (relaxed: it orders
 * nothing, it only has to be seen). */
static inline int sb_control_stopped(const sb_control *ctl)
{
    return ctl && ctl->stop && __atomic_load_n(ctl->stop, __ATOMIC_RELAXED);
}

/* Monotonic clock in seconds. */
double sb_now(void);

#endif
