/* Streaming work on files of sorted keys (keyfiles.h).
 *
 * The merge keeps its inputs in a binary heap ordered by each reader's
 * current key, so that a merge of k files costs log k comparisons a key;
 * repeats across the inputs come out of the heap one after another and
 * are written once.  The files to leave out are not in the heap: each is
 * a probe that moves forward only, in step with the keys that come out,
 * so it is read once whatever its size.  Nothing but the readers' and the
 * writer's buffers is held, which is what lets a process merge levels far
 * larger than its memory. */
#include "keyfiles.h"

#include <stdlib.h>
#include <string.h>

#include "../src/search/keysort.h"

int sbmpi_probe_open(sbmpi_probe *p, sb_lstore *ls, const char *name, sb_error *err)
{
    int rc = sb_lreader_open(&p->r, ls, name, NULL, err);
    if (rc)
        return rc;
    p->has = sb_lreader_next(&p->r, err);
    if (p->has < 0) {
        rc = p->has;
        sb_lreader_close(&p->r);
    }
    return rc;
}

int sbmpi_probe_has(sbmpi_probe *p, const uint64_t *key, sb_error *err)
{
    int kw = p->r.ls->kw;
    while (p->has == 1 && sb_key_cmp(p->r.key, key, kw) < 0)
        p->has = sb_lreader_next(&p->r, err);
    if (p->has < 0)
        return p->has;
    return p->has == 1 && !sb_key_cmp(p->r.key, key, kw);
}

void sbmpi_probe_close(sbmpi_probe *p)
{
    sb_lreader_close(&p->r);
}

int sbmpi_files_merge(sb_lstore *ls, const char *const *in, int k, const char *const *ex, int nex, const char *out,
                      int (*on)(void *ctx, const uint64_t *key), void *ctx, uint64_t *n, uint64_t *bytes,
                      sb_error *err)
{
    int kw = ls->kw, rc = 0, opened = 0, probes = 0, wopen = 0;
    sb_lreader *r = calloc((size_t)k + 1, sizeof *r);
    int *h = calloc((size_t)k + 1, sizeof *h);
    sbmpi_probe *x = calloc((size_t)nex + 1, sizeof *x);
    sb_lwriter w;
    *n = 0;
    if (!r || !h || !x) {
        free(r);
        free(h);
        free(x);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    sb_lheap H = {r, h, 0, kw};
    for (; opened < k && !rc; opened++) {
        if ((rc = sb_lreader_open(&r[opened], ls, in[opened], NULL, err)))
            break;
        int g = sb_lreader_next(&r[opened], err);
        if (g < 0)
            rc = g;
        else if (g)
            h[H.n++] = opened;
    }
    for (; probes < nex && !rc; probes++)
        if (ex[probes] && (rc = sbmpi_probe_open(&x[probes], ls, ex[probes], err)))
            break;
    if (!rc && !(rc = sb_lwriter_open(&w, ls, out, err)))
        wopen = 1;
    for (int i = H.n / 2 - 1; i >= 0; i--)
        sb_lheap_down(&H, i);
    uint64_t cur[SB_SEARCH_MAXKW];
    int have = 0;
    while (!rc && H.n) {
        sb_lreader *t = &r[h[0]];
        if (have && !sb_key_cmp(t->key, cur, kw)) {
            /* a repeat of the key just seen */
        } else {
            memcpy(cur, t->key, (size_t)kw * sizeof *cur);
            have = 1;
            int held = 0;
            for (int j = 0; j < nex && !held && !rc; j++)
                if (ex[j] && (held = sbmpi_probe_has(&x[j], cur, err)) < 0)
                    rc = held;
            if (!rc && !held && !(rc = sb_lwriter_put(&w, cur, err))) {
                ++*n;
                if (on)
                    rc = on(ctx, cur);
            }
        }
        int g = rc ? 0 : sb_lreader_next(t, err);
        if (g < 0)
            rc = g;
        else if (!g)
            h[0] = h[--H.n];
        sb_lheap_down(&H, 0);
    }
    for (int j = 0; j < probes; j++)
        if (ex[j])
            sbmpi_probe_close(&x[j]);
    for (int i = 0; i < opened; i++)
        sb_lreader_close(&r[i]);
    free(r);
    free(h);
    free(x);
    if (wopen) {
        if (rc)
            sb_lwriter_abort(&w);
        else
            rc = sb_lwriter_close(&w, err);
        if (!rc && bytes)
            *bytes = SB_LS_HEADER + w.bytes;
    }
    return rc;
}
