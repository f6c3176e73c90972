/* canonicalize's dedup key over UTF-8 bytes (the column kernels' form of
 * _pipeline_c's key): normalized text, its query's '&'-separated fields
 * filtered by drop rules and stably sorted by byte order, the fragment
 * optionally dropped.  UTF-8 byte order is code point order, so the key is
 * the UTF-8 of the str key.
 */
#ifndef FASTURI_CANON_H
#define FASTURI_CANON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fasturi_pct.h"

typedef struct {
    const uint8_t *ptr; /* UTF-8 bytes of a drop_params name, without '*' */
    ptrdiff_t size;
    int prefix; /* the name ended in '*' */
} fu_drop_rule_t;

typedef struct {
    ptrdiff_t start, end;
} fu_field_t;

/* Does the field's name (before its first '='), percent-decoded, match a
 * rule?  scratch has room for longest + 4 bytes. */
static inline int fu_canon_dropped(const uint8_t *s, ptrdiff_t a, ptrdiff_t b,
                                   const fu_drop_rule_t *rules, int nrules, ptrdiff_t longest,
                                   uint8_t *scratch)
{
    ptrdiff_t i = a, n = 0, cap = longest + 1;
    while (i < b && n < cap && s[i] != '=') {
        if (s[i] == '%' && i + 2 < b && fu_is_hex(s[i + 1]) && fu_is_hex(s[i + 2])) {
            scratch[n++] = (uint8_t)(fu_hexval(s[i + 1]) << 4 | fu_hexval(s[i + 2]));
            i += 3;
        } else {
            scratch[n++] = s[i++];
        }
    }
    /* n >= cap: longer than every rule, so only a prefix rule can match */
    int whole = n < cap;
    for (int k = 0; k < nrules; k++) {
        const fu_drop_rule_t *r = &rules[k];
        if (r->prefix) {
            if (r->size <= n && memcmp(scratch, r->ptr, (size_t)r->size) == 0)
                return 1;
        } else if (whole && r->size == n && memcmp(scratch, r->ptr, (size_t)n) == 0) {
            return 1;
        }
    }
    return 0;
}

static inline int fu_canon_cmp(const uint8_t *s, fu_field_t x, fu_field_t y)
{
    ptrdiff_t lx = x.end - x.start, ly = y.end - y.start;
    int r = memcmp(s + x.start, s + y.start, (size_t)(lx < ly ? lx : ly));
    if (r != 0)
        return r;
    return (lx > ly) - (lx < ly);
}

/* Stable merge sort of f[0, n); tmp has room for n / 2 + 1. */
static void fu_canon_sort(const uint8_t *s, fu_field_t *f, fu_field_t *tmp, ptrdiff_t n)
{
    ptrdiff_t i, j, mid, a, b, k;
    if (n <= 12) {
        for (i = 1; i < n; i++) {
            fu_field_t x = f[i];
            for (j = i; j > 0 && fu_canon_cmp(s, f[j - 1], x) > 0; j--)
                f[j] = f[j - 1];
            f[j] = x;
        }
        return;
    }
    mid = n / 2;
    fu_canon_sort(s, f, tmp, mid);
    fu_canon_sort(s, f + mid, tmp, n - mid);
    if (fu_canon_cmp(s, f[mid - 1], f[mid]) <= 0)
        return;
    memcpy(tmp, f, (size_t)mid * sizeof(fu_field_t));
    for (a = 0, b = mid, k = 0; a < mid && b < n; k++)
        f[k] = fu_canon_cmp(s, f[b], tmp[a]) < 0 ? f[b++] : tmp[a++];
    while (a < mid)
        f[k++] = tmp[a++];
}

/* The key of the normalized text t[0, n), written to out (room for n).
 * *fields / *cap is a scratch array the function grows (free it with
 * free()).  Returns the key's length, or -1 when out of memory. */
static inline ptrdiff_t fu_canon_key(const uint8_t *t, ptrdiff_t n, int sort_query,
                                     int drop_fragment, const fu_drop_rule_t *rules, int nrules,
                                     ptrdiff_t longest, uint8_t *scratch, fu_field_t **fields,
                                     ptrdiff_t *cap, uint8_t *out)
{
    const uint8_t *p;
    ptrdiff_t hash_at, q_at, count, kept, i, pos, o;
    fu_field_t *f;
    /* Appendix B: fragment from the first '#', query from the first '?'
     * before it; normalization never adds or removes either. */
    p = (const uint8_t *)memchr(t, '#', (size_t)n);
    hash_at = p ? p - t : n;
    p = hash_at ? (const uint8_t *)memchr(t, '?', (size_t)hash_at) : NULL;
    q_at = p ? p - t : -1;
    if (q_at < 0 || !(sort_query || nrules > 0)) {
        o = drop_fragment ? hash_at : n;
        if (o) /* out may be NULL for an empty key (memcpy's NULL is UB) */
            memcpy(out, t, (size_t)o);
        return o;
    }
    count = 1;
    for (i = q_at + 1; i < hash_at; i++)
        count += t[i] == '&';
    if (*cap < count + count / 2 + 1) {
        ptrdiff_t want = count + count / 2 + 1;
        f = (fu_field_t *)realloc(*fields, (size_t)want * sizeof(fu_field_t));
        if (f == NULL)
            return -1;
        *fields = f;
        *cap = want;
    }
    f = *fields;
    pos = q_at + 1;
    for (i = 0; i < count; i++) {
        p = (const uint8_t *)memchr(t + pos, '&', (size_t)(hash_at - pos));
        f[i].start = pos;
        f[i].end = p ? p - t : hash_at;
        pos = f[i].end + 1;
    }
    kept = count;
    if (nrules > 0) {
        kept = 0;
        for (i = 0; i < count; i++)
            if (!fu_canon_dropped(t, f[i].start, f[i].end, rules, nrules, longest, scratch))
                f[kept++] = f[i];
    }
    if (sort_query && kept > 1)
        fu_canon_sort(t, f, f + count, kept);
    memcpy(out, t, (size_t)q_at);
    o = q_at;
    for (i = 0; i < kept; i++) {
        out[o++] = i == 0 ? '?' : '&';
        memcpy(out + o, t + f[i].start, (size_t)(f[i].end - f[i].start));
        o += f[i].end - f[i].start;
    }
    if (!drop_fragment && hash_at < n) {
        memcpy(out + o, t + hash_at, (size_t)(n - hash_at));
        o += n - hash_at;
    }
    return o;
}

#endif /* FASTURI_CANON_H */
