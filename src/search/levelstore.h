/* Sorted key files on disk (private to src/search): the store under the
 * disk-level engine (diskbfs.c), written so that any engine that keeps
 * levels or runs of sorted keys on disk (a distributed one, say) can use
 * it as it is.
 *
 * A store is one directory and a byte count: every file it writes is
 * counted, the peak is kept, and a write that would pass the limit fails
 * with SB_ENOMEM (a disk budget, as sb_mem is a memory one).  A file holds
 * strictly ascending keys of kw words, delta-coded:
 *   - one-word keys: each key is the difference from the one before it,
 *     less one, as a LEB128 number (7 bits a byte, high bit "more"); the
 *     first key is itself.  Keys 5, 6, 9, 200 are 05 00 02 be 01;
 *   - wider keys: j, the highest word in which the key differs from the one
 *     before, then that word's difference less one, then words j-1..0 as
 *     they are (all LEB128); the first key is j = kw-1 against zeros
 *     (with its difference the word itself, not less one).
 * A level of sliding-block keys where neighbours in the order are close
 * costs one or two bytes a key.  A writer opened with
 * sb_lwriter_open_packed codes the keys in blocks instead (format 1): per
 * block of 4096 words of keys (at least 256 keys), each key is the highest
 * 4-bit nibble in which it differs from the key before, that nibble's
 * increase less one, and the nibbles below it, each of these symbols in a
 * Huffman code of its own per nibble place, built for the block and
 * stored in front of it (levelstore.c has the layout).  Slower to write and read, but about half
 * the bytes on sliding-block levels.  The file opens with a header of 48
 * bytes: "SBFSKEY1", kw (u32 LE), format (u32: 0 gaps, 1 blocks), keys
 * (u64), body bytes (u64), checksum of the body (sb_checksum, u64), 0
 * (u64); a reader takes either format and refuses a file whose header,
 * size, checksum or coding does not match (SB_EBADFILE).
 *
 * Buffers come from the sb_mem given, iob bytes each; a packed reader or
 * writer takes sb_lstore_packed_extra() bytes more. */
#ifndef SBFS_LEVELSTORE_H
#define SBFS_LEVELSTORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/hash.h"
#include "sbfs/core.h"
#include "sbfs/search.h"
#include "keysort.h"

#define SB_LS_HEADER 48
#define SB_LS_NAME 4096

typedef struct sb_lstore {
    char dir[SB_LS_NAME]; /* where the files are */
    int own_dir;          /* dir was made by sb_lstore_open: removed by close */
    int kw;               /* key width in words */
    uint64_t used, peak;  /* bytes in the store's files now, and at most */
    uint64_t limit;       /* bytes allowed, 0 for no limit */
    size_t iob;           /* bytes of a reader's or writer's buffer */
    int sync;             /* files are flushed to the disk before they count as whole
                             (for files that must outlive a crash) */
    sb_mem *mem;
    pthread_mutex_t *lock; /* or NULL: held around used and peak while threads share the store */
} sb_lstore;

/* A store in dir (must exist).  private_dir: make a fresh directory
 * dir/sbfs.XXXXXX and use that (removed with its files by close), else
 * use dir itself.  limit 0: no limit.  SB_EIO when the directory cannot
 * be made. */
int sb_lstore_open(sb_lstore *ls, const char *dir, int private_dir, uint64_t limit, int kw, sb_mem *mem,
                   size_t iob, sb_error *err);
/* Close; the private directory goes with everything in it. */
void sb_lstore_close(sb_lstore *ls);
/* The path of file name in the store. */
void sb_lstore_path(const sb_lstore *ls, const char *name, char *out, size_t size);
/* Remove a file, its bytes taken off the count. */
void sb_lstore_remove(sb_lstore *ls, const char *name);
/* Count a file that is already there (found when resuming). */
void sb_lstore_adopt(sb_lstore *ls, const char *name);
/* Count n bytes more of files written outside the store's writers: 0,
 * or 1 when check is set and they would pass the limit (then nothing is
 * counted); sb_lstore_uncharge takes bytes back (a write that failed).
 * Under ls->lock when it is set, as every change of the count is. */
int sb_lstore_charge(sb_lstore *ls, uint64_t n, int check);
void sb_lstore_uncharge(sb_lstore *ls, uint64_t n);
/* The bytes counted now (under the lock). */
uint64_t sb_lstore_used(sb_lstore *ls);

typedef struct sb_lpack sb_lpack; /* a block coder (levelstore.c) */

typedef struct sb_lwriter {
    sb_lstore *ls;
    sb_lpack *pk;          /* the block coder, NULL for gaps */
    int fd;
    unsigned char *buf;
    size_t len;
    uint64_t prev[SB_SEARCH_MAXKW];
    uint64_t n, bytes;
    sb_sum sum;
    uint64_t check;        /* after close: the body's checksum, as in the header */
    char name[256];
} sb_lwriter;

/* A new file name (replacing one of that name). */
int sb_lwriter_open(sb_lwriter *w, sb_lstore *ls, const char *name, sb_error *err);
/* The same, the keys coded in blocks (format 1) when the store's buffers
 * are large enough for a block (sb_lstore_packed_extra non-zero), else as
 * sb_lwriter_open. */
int sb_lwriter_open_packed(sb_lwriter *w, sb_lstore *ls, const char *name, sb_error *err);
/* Bytes a packed writer or reader takes beyond its iob buffer (the most of
 * the two), or 0 when this store's buffers are too small to pack. */
size_t sb_lstore_packed_extra(const sb_lstore *ls);
/* Append a key, greater than the last one appended. */
int sb_lwriter_put(sb_lwriter *w, const uint64_t *key, sb_error *err);
/* Finish the file (header written, data on disk): 0 or an SB_E* code. */
int sb_lwriter_close(sb_lwriter *w, sb_error *err);
/* Give up the file: closed and removed. */
void sb_lwriter_abort(sb_lwriter *w);

typedef struct sb_lreader {
    sb_lstore *ls;
    sb_lpack *pk;      /* the block decoder, NULL for gaps */
    int fd;
    unsigned char *buf;
    size_t pos, len;
    uint64_t left;     /* keys not yet read */
    uint64_t n;        /* keys in the file */
    uint64_t body, got;/* body bytes, bytes read so far */
    uint64_t want;     /* the header's checksum */
    sb_sum sum;
    uint64_t key[SB_SEARCH_MAXKW]; /* the key sb_lreader_next read */
    char name[256];
} sb_lreader;

/* Open name for reading; *n (may be NULL) receives its key count. */
int sb_lreader_open(sb_lreader *r, sb_lstore *ls, const char *name, uint64_t *n, sb_error *err);
/* The next key into r->key: 1, 0 at the end (the checksum then checked),
 * or an SB_E* code. */
int sb_lreader_next(sb_lreader *r, sb_error *err);
/* Up to max keys (at most SB_LREADER_MANY) into keys, kw words each:
 * how many (fewer only at the end of the file; 0 there, after the checks
 * of sb_lreader_next), or an SB_E* code.  r->key is the last one read.
 * Faster than a call of sb_lreader_next a key. */
#define SB_LREADER_MANY 65536
int sb_lreader_many(sb_lreader *r, uint64_t *keys, size_t max, sb_error *err);
void sb_lreader_close(sb_lreader *r);
/* The header of a file alone: keys and body checksum (either may be
 * NULL); SB_EBADFILE as sb_lreader_open. */
int sb_lstore_header(sb_lstore *ls, const char *name, uint64_t *n, uint64_t *check, sb_error *err);
/* Read a whole file just to check it: 0, or SB_EBADFILE / SB_EIO. */
int sb_lstore_check(sb_lstore *ls, const char *name, uint64_t *n, sb_error *err);

/* A heap of open readers by their current keys, for merging files (the
 * disk engine's and the MPI back-end's): h[0..n) index r, r[h[0]] holds
 * the least key.  sb_lheap_down restores the order below place i. */
typedef struct sb_lheap {
    sb_lreader *r;
    int *h, n, kw;
} sb_lheap;

static inline int sb_lheap_less(const sb_lheap *H, int a, int b)
{
    return sb_key_cmp(H->r[H->h[a]].key, H->r[H->h[b]].key, H->kw) < 0;
}

static inline void sb_lheap_down(sb_lheap *H, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < H->n && sb_lheap_less(H, l, m))
            m = l;
        if (l + 1 < H->n && sb_lheap_less(H, l + 1, m))
            m = l + 1;
        if (m == i)
            return;
        int t = H->h[i];
        H->h[i] = H->h[m];
        H->h[m] = t;
        i = m;
    }
}

#endif
