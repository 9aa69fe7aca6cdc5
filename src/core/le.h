/* Little-endian integers in byte buffers (library-internal).
 *
 * Every integer sbfs saves is written least significant byte first,
 * whatever the machine, so that a file written on one machine loads on any
 * other.  The byte-by-byte forms below are what compilers recognise: on a
 * little-endian machine each becomes one plain load or store.
 * SB_LE_HOST is 1 when the machine itself is little-endian, so that bulk
 * data (a table's 64-bit words) can be written and read as it lies in
 * memory, and 0 when it must be converted word by word (or when the
 * compiler does not say). */
#ifndef SBFS_LE_H
#define SBFS_LE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SB_LE_HOST 1
#else
#define SB_LE_HOST 0
#endif

static inline void sb_le_put16(unsigned char *b, uint16_t v)
{
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
}

static inline void sb_le_put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static inline void sb_le_put64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static inline uint16_t sb_le_get16(const unsigned char *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t sb_le_get32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t sb_le_get64(const unsigned char *b)
{
    return (uint64_t)sb_le_get32(b) | (uint64_t)sb_le_get32(b + 4) << 32;
}

/* A growing buffer of little-endian 64-bit words: a record being made.
 * bad is set when the buffer could not grow; the words after are lost. */
typedef struct sb_lewords {
    unsigned char *b;
    size_t n, cap;
    int bad;
} sb_lewords;

static inline void sb_lewords_put(sb_lewords *w, uint64_t v)
{
    if (w->n + 8 > w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 1024;
        unsigned char *b = (unsigned char *)realloc(w->b, nc);
        if (!b) {
            w->bad = 1;
            return;
        }
        w->b = b;
        w->cap = nc;
    }
    sb_le_put64(w->b + w->n, v);
    w->n += 8;
}

/* A key of kw words, or kw zeros for k NULL. */
static inline void sb_lewords_key(sb_lewords *w, const uint64_t *k, int kw)
{
    for (int i = 0; i < kw; i++)
        sb_lewords_put(w, k ? k[i] : 0);
}

#endif
