/* fasturi_psl_table.h: the Public Suffix List in a plain shared library (the
 * DuckDB extension, the polars plugin), which has no Python to build it.
 *
 * Python hands the library the keys of _psl_c's table (fasturi._psl.keys:
 * one a line, each after its flags as two hex digits), and
 * fu_psl_table_build makes fasturi_psl.h's table of them.  A library keeps
 * the one it was handed last in an int64_t published with fasturi_shared.h's
 * atomics; a table is never freed (a later list replaces the pointer, and a
 * function still running on the old one keeps reading it).
 *
 * fu_psl_answer gives a row's registrable domain or public suffix as
 * _psl_c does: the host of a URI or a bare host, lowered by Python's
 * str.lower where it is not ASCII.  Expects, included before it, the
 * str.lower tables setup.py writes from the building Python
 * (fasturi_lower_unicode.h: FU_LOWER, FU_CASED, FU_IGNORABLE),
 * fasturi_arrow.h (fu_utf8_decode, fu_is_ascii) and fasturi_psl.h. */
#ifndef FASTURI_PSL_TABLE_H
#define FASTURI_PSL_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    fu_psl_t t;
    int depth;
    uint8_t *keys;
    char version[128];
} fu_psl_table_t;

/* The table of the keys p[0, n) (as fasturi._psl.keys writes them) and the
 * list's version v[0, nv); NULL when out of memory or not such keys. */
static fu_psl_table_t *fu_psl_table_build(const uint8_t *p, int64_t n, const uint8_t *v, int64_t nv)
{
    fu_psl_table_t *table = (fu_psl_table_t *)calloc(1, sizeof(fu_psl_table_t));
    size_t count = 0, capacity = 16;
    int64_t i, line, end;
    uint32_t off = 0;
    if (table == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        count += p[i] == '\n';
    while (3 * capacity < 4 * count + 4)
        capacity *= 2;
    table->keys = (uint8_t *)malloc((size_t)n + 1);
    table->t.slots = (fu_psl_slot_t *)calloc(capacity, sizeof(fu_psl_slot_t));
    if (table->keys == NULL || table->t.slots == NULL)
        goto bad;
    table->t.mask = capacity - 1;
    table->t.keys = table->keys;
    for (line = 0; line < n; line = end + 1) {
        int flags, labels = 1, hi, lo;
        const uint8_t *nl = (const uint8_t *)memchr(p + line, '\n', (size_t)(n - line));
        end = nl ? nl - p : n;
        if (end - line < 3 || (hi = fu_hexval(p[line])) < 0 || (lo = fu_hexval(p[line + 1])) < 0)
            goto bad;
        flags = hi << 4 | lo;
        if (flags == 0 || end - line - 2 > 0xFFFF)
            goto bad;
        memcpy(table->keys + off, p + line + 2, (size_t)(end - line - 2));
        for (i = line + 2; i < end; i++)
            labels += p[i] == '.';
        if (labels > table->depth)
            table->depth = labels;
        fu_psl_insert(&table->t, off, (uint32_t)(end - line - 2), (uint8_t)flags);
        off += (uint32_t)(end - line - 2);
    }
    if (table->depth > FU_PSL_MAX_DEPTH || nv >= (int64_t)sizeof table->version)
        goto bad;
    memcpy(table->version, v, (size_t)nv);
    return table;
bad:
    free(table->keys);
    free(table->t.slots);
    free(table);
    return NULL;
}

/* ---- str.lower beyond ASCII ----------------------------------------------- */

/* Whether code point c is in the sorted ranges r[0, n) ({first, last}). */
static int fu_in_ranges(const uint32_t (*r)[2], size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid][0])
            hi = mid;
        else if (c > r[mid][1])
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

/* str.lower's mapping of c (not U+03A3): up to 3 code points into out;
 * their count. */
static int fu_lower_of(uint32_t c, uint32_t *out)
{
    size_t lo = 0, hi = sizeof FU_LOWER / sizeof FU_LOWER[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < FU_LOWER[mid][0]) {
            hi = mid;
        } else if (c > FU_LOWER[mid][0]) {
            lo = mid + 1;
        } else {
            int k, m = (int)FU_LOWER[mid][1];
            for (k = 0; k < m; k++)
                out[k] = FU_LOWER[mid][2 + k];
            return m;
        }
    }
    out[0] = c;
    return 1;
}

#define FU_IS_CASED(c) fu_in_ranges(FU_CASED, sizeof FU_CASED / sizeof FU_CASED[0], (c))
#define FU_IS_IGNORABLE(c)                                                                         \
    fu_in_ranges(FU_IGNORABLE, sizeof FU_IGNORABLE / sizeof FU_IGNORABLE[0], (c))

static uint8_t *fu_put_utf8(uint8_t *o, uint32_t c)
{
    if (c < 0x80) {
        *o++ = (uint8_t)c;
    } else if (c < 0x800) {
        *o++ = (uint8_t)(0xC0 | (c >> 6));
        *o++ = (uint8_t)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (uint8_t)(0xE0 | (c >> 12));
        *o++ = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (uint8_t)(0x80 | (c & 0x3F));
    } else {
        *o++ = (uint8_t)(0xF0 | (c >> 18));
        *o++ = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (uint8_t)(0x80 | (c & 0x3F));
    }
    return o;
}

/* Python's str.lower of the code points w[0, n) (Final_Sigma included), as
 * UTF-8 into out (room for 3 * 4 * n bytes); its length. */
static ptrdiff_t fu_str_lower(const uint32_t *w, int64_t n, uint8_t *out)
{
    uint8_t *o = out;
    int64_t i, j;
    uint32_t low[3];
    for (i = 0; i < n; i++) {
        int k, m;
        if (w[i] == 0x3A3) { /* CPython's handle_capital_sigma */
            int final = 0;
            for (j = i - 1; j >= 0 && FU_IS_IGNORABLE(w[j]); j--)
                ;
            final = j >= 0 && FU_IS_CASED(w[j]);
            if (final && i + 1 < n) {
                for (j = i + 1; j < n && FU_IS_IGNORABLE(w[j]); j++)
                    ;
                final = j == n || !FU_IS_CASED(w[j]);
            }
            o = fu_put_utf8(o, final ? 0x3C2 : 0x3C3);
            continue;
        }
        m = fu_lower_of(w[i], low);
        for (k = 0; k < m; k++)
            o = fu_put_utf8(o, low[k]);
    }
    return o - out;
}

/* ---- a row's answer ------------------------------------------------------------ */

/* A caller's scratch memory, kept from row to row. */
typedef struct {
    uint32_t *wide; /* a host's code points */
    size_t wide_cap;
    uint8_t *lower; /* its str.lower */
    size_t lower_cap;
    uint8_t *key; /* the lookup's work */
    size_t key_cap;
} fu_psl_scratch_t;

static void fu_psl_scratch_free(fu_psl_scratch_t *s)
{
    free(s->wide);
    free(s->lower);
    free(s->key);
    memset(s, 0, sizeof *s);
}

static int fu_psl_room(void **p, size_t *cap, size_t want)
{
    void *q;
    if (want <= *cap)
        return 0;
    if (want < 256)
        want = 256;
    q = realloc(*p, want);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = want;
    return 0;
}

/* fu_psl_answer's answers */
#define FU_PSL_SUFFIX 0    /* the public suffix */
#define FU_PSL_DOMAIN 1    /* the registrable domain */
#define FU_PSL_SUBDOMAIN 2 /* the labels before the registrable domain */

/* The answer `what` (FU_PSL_*) for the URI or bare host p[0, n), valid
 * UTF-8, by table t (shift 0: the ICANN section; 4: the whole list): its *m
 * bytes at *out (in s's memory).  1, or 0 where there is none (no host, an
 * IP literal, a host that is a public suffix: a null), -1 when out of
 * memory.  The subdomain of a host that is its registrable domain is "". */
static int fu_psl_answer(const fu_psl_table_t *t, int shift, int what, const uint8_t *p, int64_t n,
                         fu_psl_scratch_t *s, const uint8_t **out, int64_t *m)
{
    const uint8_t *host;
    int64_t count = 0;
    ptrdiff_t a, b, size, suffix_at, domain_at, at;
    if (!fu_psl_host_range(p, n, &a, &b))
        return 0;
    host = p + a;
    size = b - a;
    if (!fu_is_ascii(host, size)) {
        /* str.lower of the host's text first, as _psl_c does */
        if (fu_psl_room((void **)&s->wide, &s->wide_cap, (size_t)size * sizeof(uint32_t)) < 0
            || fu_psl_room((void **)&s->lower, &s->lower_cap, (size_t)size * 12) < 0)
            return -1;
        fu_utf8_decode(host, size, s->wide, &count);
        size = fu_str_lower(s->wide, count, s->lower);
        host = s->lower;
    }
    if (fu_psl_room((void **)&s->key, &s->key_cap, (size_t)size + 1) < 0)
        return -1;
    if (fu_psl_lookup(&t->t, t->depth, host, size, s->key, shift, &suffix_at, &domain_at) < 0)
        return 0;
    at = what == FU_PSL_SUFFIX ? suffix_at : domain_at;
    if (at < 0)
        return 0;
    if (what == FU_PSL_SUBDOMAIN) {
        *out = s->key;
        *m = at > 0 ? at - 1 : 0;
        return 1;
    }
    *out = s->key + at;
    *m = size - at;
    return 1;
}

#endif /* FASTURI_PSL_TABLE_H */
