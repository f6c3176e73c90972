/* fasturi_parts.h: what a log analyst reads out of a URI, row by row.
 *
 * The query's fields and a parameter by name (form-decoded or as written),
 * a query without the fields whose key matches a glob, the path's
 * extension and hierarchy, and the subdomain by the Public Suffix List:
 * the C of fasturi's query_param, query_params, remove_params,
 * path_extension, path_hierarchy and subdomain, for every caller (the
 * scalar functions of _parts_c.pyx, the column kernels of _arrow_c.pyx,
 * the DuckDB extension and the polars plugin).  _parts_py.py is the
 * reference: docs/reference.md fixes the semantics.
 *
 * Every function takes a row as (pointer, length) of its UTF-8 bytes and
 * reads only [0, length): never NUL termination.  Results are offsets into
 * the row, or bytes written to an `out` the caller sized (each function
 * says how much).  Plain C99, no Python.h, no state: safe on any thread.
 *
 * Form decoding (FU_FORM_DECODE): '+' is a space, then every valid %hh its
 * octet (a malformed '%' kept), and the octets read as UTF-8 with each
 * maximal invalid subsequence replaced by U+FFFD, as CPython's
 * bytes.decode(..., "replace") does.  A row known to be UTF-8 (every Arrow
 * row the kernels have checked, every DuckDB or polars string) passes
 * FU_FORM_DECODE; a row that may hold other bytes (a Python str with lone
 * surrogates, as its surrogatepass bytes) passes FU_FORM_DECODE |
 * FU_FORM_UNCHECKED, so that text without an escape is checked too.
 */
#ifndef FASTURI_PARTS_H
#define FASTURI_PARTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_arrow.h" /* fu_utf8_valid */
#include "fasturi_base.h"
#include "fasturi_codec.h" /* fu_pct_decode_1 */
#include "fasturi_psl.h"   /* fu_psl_host_range, fu_psl_lookup */
#include "fasturi_scan.h"  /* fu_stop_1 */

#define FU_FORM_DECODE 1    /* keys and values form-decoded, else as written */
#define FU_FORM_UNCHECKED 2 /* the row's bytes may not be UTF-8 */

/* The most bytes form-decoding n bytes writes, and the room it needs
 * (the octets are decoded into the room's last n bytes first). */
#define FU_FORM_ROOM(n) (4 * (n) + 4)

/* ---- UTF-8 with replacement ----------------------------------------------- */

/* The length of the valid UTF-8 sequence at s[0, n), or 0 when s[0] starts
 * none; *bad gets the length of the maximal invalid subpart then (at least
 * 1): the lead byte and the continuation bytes that could still have made
 * a sequence (Unicode's "maximal subpart", CPython's rule). */
static inline int fu_utf8_seq(const uint8_t *s, ptrdiff_t n, int *bad)
{
    uint8_t c = s[0], lo = 0x80, hi = 0xBF;
    int len, j;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlongs */
        else if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90; /* no overlongs */
        else if (c == 0xF4)
            hi = 0x8F; /* nothing past U+10FFFF */
    } else {
        *bad = 1;
        return 0;
    }
    j = 1;
    if (n > 1 && s[1] >= lo && s[1] <= hi)
        for (j = 2; j < len && j < n && (s[j] & 0xC0) == 0x80; j++)
            ;
    if (j == len)
        return len;
    *bad = j;
    return 0;
}

/* s[0, n) as UTF-8 into out (room 3n): each maximal invalid subpart
 * becomes U+FFFD.  The length written. */
static inline ptrdiff_t fu_utf8_replace(const uint8_t *s, ptrdiff_t n, uint8_t *out)
{
    ptrdiff_t i = 0, k = 0;
    int len, bad;
    while (i < n) {
        if (s[i] < 0x80) {
            out[k++] = s[i++];
            continue;
        }
        len = fu_utf8_seq(s + i, n - i, &bad);
        if (len) {
            memcpy(out + k, s + i, (size_t)len);
            k += len;
            i += len;
        } else {
            out[k] = 0xEF;
            out[k + 1] = 0xBF;
            out[k + 2] = 0xBD;
            k += 3;
            i += bad;
        }
    }
    return k;
}

/* ---- form decoding ---------------------------------------------------- */

/* Is form-decoding p[0, n) the identity on bytes known to be UTF-8: no '%'
 * and no '+'?  With SSE2 16 bytes at a time (most keys and values are
 * short: the last partial block read as the overlapping last 16). */
static inline int fu_form_plain(const uint8_t *p, ptrdiff_t n)
{
    return fu_stop_1(p, 0, n, '%', '+', '+', '+') == n;
}

/* p[0, n) form-decoded: its bytes, *res pointing at them, either p itself
 * (nothing to decode) or out (room FU_FORM_ROOM(n)).  `mode` is
 * FU_FORM_DECODE, with FU_FORM_UNCHECKED when p may not be UTF-8. */
static inline ptrdiff_t fu_form_decode(const uint8_t *p, ptrdiff_t n, int mode, uint8_t *out,
                                       const uint8_t **res)
{
    uint32_t high = 0;
    uint8_t *octets = out + 3 * n + 4;
    ptrdiff_t m;
    if (fu_form_plain(p, n)) {
        if (!(mode & FU_FORM_UNCHECKED) || fu_utf8_valid(p, n)) {
            *res = p;
            return n;
        }
        *res = out;
        return fu_utf8_replace(p, n, out);
    }
    m = fu_pct_decode_1(p, n, 1, octets, &high);
    *res = octets;
    if (!(high & 0x80))
        return m;
    if (fu_utf8_valid(octets, m))
        return m;
    /* (the writer stays behind the reader: 3 bytes out for 1 in at most,
     * and out's 3n + 4 bytes lie before the octets) */
    *res = out;
    return fu_utf8_replace(octets, m, out);
}

/* ---- the query's fields ------------------------------------------------ */

/* The query of s[0, n): 1 with [*a, *b), or 0 when there is none.  A scheme
 * or an authority holds no '?' or '#': the query starts after the first of
 * them that is a '?' and ends at the next '#' (RFC 3986 Appendix B). */
static inline int fu_query_range(const uint8_t *s, ptrdiff_t n, ptrdiff_t *a, ptrdiff_t *b)
{
    ptrdiff_t i = fu_stop_1(s, 0, n, '?', '#', '#', '#');
    if (i == n || s[i] == '#')
        return 0;
    *a = i + 1;
    *b = fu_stop_1(s, i + 1, n, '#', '#', '#', '#');
    return 1;
}

/* One field of a query: key [key, eq) or [key, end) when eq < 0 (no '='),
 * value [eq + 1, end); `escaped`: the key holds a '%' or a '+'. */
typedef struct {
    ptrdiff_t key, eq, end;
    int escaped;
} fu_qfield_t;

/* The marks of bytes s[i, i + 16): bit k of *stop when s[i + k] is '&' or
 * '#', of *eq when it is '=', of *esc when it is '%' or '+'. */
#if FU_SSE2
static inline void fu_piece_marks16(const uint8_t *s, ptrdiff_t i, unsigned *stop, unsigned *eq,
                                    unsigned *esc)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    *stop = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('&')), _mm_cmpeq_epi8(x, _mm_set1_epi8('#'))));
    *eq = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('=')));
    *esc = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('%')), _mm_cmpeq_epi8(x, _mm_set1_epi8('+'))));
}
#endif

/* The piece of a query that starts at s[pos] and ends at the first '&' or
 * '#' or at n: into f, its key (up to its first '=') and whether the key
 * holds a '%' or a '+'.  The key is read once for all three (with SSE2
 * 16 bytes at a time, the last partial block as the 16 bytes ending at n:
 * s[0, n) is the row's, or its start), the value then only for its end. */
static inline void fu_query_piece(const uint8_t *s, ptrdiff_t pos, ptrdiff_t n, fu_qfield_t *f)
{
    ptrdiff_t i = pos;
    f->key = pos;
    f->eq = -1;
    f->escaped = 0;
#if FU_SSE2
    if (n >= 16) { /* (s[0, n) is there: a short tail is read as s[n - 16, n)) */
        for (;;) {
            unsigned stop, eq, esc, shift = 0, key;
            if (i + 16 <= n) {
                fu_piece_marks16(s, i, &stop, &eq, &esc);
            } else if (i < n) { /* the last bytes, as the block ending at n */
                shift = (unsigned)(i - (n - 16));
                fu_piece_marks16(s, n - 16, &stop, &eq, &esc);
                stop >>= shift;
                eq >>= shift;
                esc >>= shift;
            } else {
                f->end = n;
                return;
            }
            eq &= stop ? (stop & (0u - stop)) - 1 : 0xFFFFu; /* a '=' before the end */
            key = eq ? (eq & (0u - eq)) - 1 : stop ? (stop & (0u - stop)) - 1 : 0xFFFFu;
            f->escaped |= (esc & key) != 0;
            if (eq) {
                f->eq = i + (ptrdiff_t)fu_ctz(eq);
                f->end = fu_stop_1(s, f->eq + 1, n, '&', '#', '#', '#');
                return;
            }
            if (stop) {
                f->end = i + (ptrdiff_t)fu_ctz(stop);
                return;
            }
            i += 16 - (ptrdiff_t)shift;
        }
    }
#endif
    for (; i < n && s[i] != '&' && s[i] != '#'; i++) {
        if (f->eq < 0) {
            if (s[i] == '=')
                f->eq = i;
            else if (s[i] == '%' || s[i] == '+')
                f->escaped = 1;
        }
    }
    f->end = i;
}

/* The next field of the query [*pos, qend) of s (a field being a non-empty
 * piece between '&'s): 1 with it in *f and *pos past it, or 0 at the end.
 * Start with *pos at the query's start. */
static inline int fu_query_next(const uint8_t *s, ptrdiff_t *pos, ptrdiff_t qend, fu_qfield_t *f)
{
    ptrdiff_t i = *pos;
    for (; i <= qend; i = f->end + 1) {
        fu_query_piece(s, i, qend, f);
        if (f->end > f->key) { /* (an empty piece is no field) */
            *pos = f->end + 1;
            return 1;
        }
    }
    return 0;
}

/* The key of field f of s: its bytes, form-decoded (into scratch, room
 * FU_FORM_ROOM of the field's length) when mode says so, *res pointing at
 * them. */
static inline ptrdiff_t fu_query_key(const uint8_t *s, const fu_qfield_t *f, int mode,
                                     uint8_t *scratch, const uint8_t **res)
{
    ptrdiff_t end = f->eq >= 0 ? f->eq : f->end;
    if (!(mode & FU_FORM_DECODE) || (!f->escaped && !(mode & FU_FORM_UNCHECKED))) {
        *res = s + f->key;
        return end - f->key;
    }
    return fu_form_decode(s + f->key, end - f->key, mode, scratch, res);
}

/* The value of field f of s as fu_query_key gives its key; -1 when the
 * field has no '='. */
static inline ptrdiff_t fu_query_value(const uint8_t *s, const fu_qfield_t *f, int mode,
                                       uint8_t *scratch, const uint8_t **res)
{
    if (f->eq < 0)
        return -1;
    if (!(mode & FU_FORM_DECODE)) {
        *res = s + f->eq + 1;
        return f->end - f->eq - 1;
    }
    return fu_form_decode(s + f->eq + 1, f->end - f->eq - 1, mode, scratch, res);
}

/* query_param: the value of the first field of s[0, n)'s query whose key
 * (form-decoded by `mode`) is name[0, nn); its length with *res pointing at
 * it (into s, or out: room FU_FORM_ROOM(n)), 0 for a field without '=',
 * or -1 when no field has that key.
 *
 * One pass from the '?', piece by piece up to the '#' (fu_query_piece).
 * Form-decoding never lengthens checked UTF-8 (an escape's three bytes
 * give one byte, or a U+FFFD of three; '+' gives a space), so a key
 * shorter than the name is passed over, and one as long or longer is
 * decoded only when it holds a '%' or a '+' (with FU_FORM_UNCHECKED every
 * key is decoded: a lone surrogate's three bytes give three U+FFFD). */
static inline ptrdiff_t fu_query_param_1(const uint8_t *s, ptrdiff_t n, const uint8_t *name,
                                         ptrdiff_t nn, int mode, uint8_t *out, const uint8_t **res)
{
    ptrdiff_t pos = fu_stop_1(s, 0, n, '?', '#', '#', '#'), m;
    const uint8_t *key;
    fu_qfield_t f;
    if (pos == n || s[pos] == '#')
        return -1;
    for (pos += 1;; pos = f.end + 1) {
        fu_query_piece(s, pos, n, &f);
        m = (f.eq >= 0 ? f.eq : f.end) - f.key;
        if (f.end > f.key && (m >= nn || (mode & FU_FORM_UNCHECKED))) {
            key = s + f.key;
            if ((mode & FU_FORM_DECODE) && (f.escaped || (mode & FU_FORM_UNCHECKED)))
                m = fu_form_decode(s + f.key, m, mode, out, &key);
            if (m == nn && memcmp(key, name, (size_t)nn) == 0) {
                m = fu_query_value(s, &f, mode, out, res);
                if (m < 0) {
                    *res = s; /* (any place: no byte is read) */
                    return 0;
                }
                return m;
            }
        }
        if (f.end == n || s[f.end] == '#')
            return -1;
    }
}

/* ---- remove_params' globs ------------------------------------------------ */

/* A glob: '*' any run of characters, '?' one character, any other byte
 * itself. */
typedef struct {
    const uint8_t *p;
    ptrdiff_t n;
} fu_glob_t;

/* The byte after the character at k[i] (k UTF-8: a lead byte says how
 * long its sequence is), at most n. */
static inline ptrdiff_t fu_char_next(const uint8_t *k, ptrdiff_t i, ptrdiff_t n)
{
    uint8_t c = k[i];
    ptrdiff_t len = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    return i + len < n ? i + len : n;
}

/* Does the whole of key k[0, kn) (UTF-8) match glob g?  A '*' gives back
 * one character at a time as the match behind it fails: the last '*' is
 * the only one to retry, which finds a match when there is one. */
static inline int fu_glob_match(const fu_glob_t *g, const uint8_t *k, ptrdiff_t kn)
{
    const uint8_t *p = g->p;
    ptrdiff_t pn = g->n, pi = 0, ki = 0, star = -1, from = 0;
    while (ki < kn) {
        if (pi < pn && p[pi] == '*') {
            star = ++pi;
            from = ki;
        } else if (pi < pn && p[pi] == '?') {
            pi++;
            ki = fu_char_next(k, ki, kn);
        } else if (pi < pn && p[pi] == k[ki]) {
            pi++;
            ki++;
        } else if (star >= 0) {
            from = fu_char_next(k, from, kn);
            ki = from;
            pi = star;
        } else {
            return 0;
        }
    }
    while (pi < pn && p[pi] == '*')
        pi++;
    return pi == pn;
}

/* remove_params: s[0, n) without the query fields whose form-decoded key
 * matches one of the ng globs, written to out (room n), its length; or -1
 * when no field matches (s is the answer).  The pieces kept (empty ones
 * too) are joined by '&' as they were; a query left empty loses its '?'.  scratch: room FU_FORM_ROOM(n).  `unchecked`: s may not be UTF-8. */
static inline ptrdiff_t fu_remove_params_1(const uint8_t *s, ptrdiff_t n, const fu_glob_t *globs,
                                           int ng, int unchecked, uint8_t *scratch, uint8_t *out)
{
    ptrdiff_t qa, qend, pos, end, eq, m, k = -1;
    int mode = FU_FORM_DECODE | (unchecked ? FU_FORM_UNCHECKED : 0), g, kept = 0;
    const uint8_t *key;
    if (ng == 0 || !fu_query_range(s, n, &qa, &qend))
        return -1;
    for (pos = qa;; pos = end + 1) {
        end = fu_find_byte(s, pos, qend, '&'); /* the piece [pos, end) */
        g = ng;
        if (end > pos) { /* (an empty piece is no field: always kept) */
            eq = fu_find_byte(s, pos, end, '=');
            m = fu_form_decode(s + pos, eq - pos, mode, scratch, &key);
            for (g = 0; g < ng && !fu_glob_match(&globs[g], key, m); g++)
                ;
        }
        if (g < ng && k < 0) {
            /* the first field removed: what comes before it, as it is */
            k = pos > qa ? pos - 1 : pos;
            memcpy(out, s, (size_t)k);
            kept = pos > qa;
        } else if (g == ng && k >= 0) {
            if (kept)
                out[k++] = '&';
            memcpy(out + k, s + pos, (size_t)(end - pos));
            k += end - pos;
            kept = 1;
        }
        if (end == qend)
            break;
    }
    if (k < 0)
        return -1;
    if (k == qa)
        k = qa - 1; /* the query is left empty: its '?' goes too */
    memcpy(out + k, s + qend, (size_t)(n - qend));
    return k + n - qend;
}

/* ---- the path ------------------------------------------------------------- */

/* The path of s[0, n): [*a, *b) (RFC 3986 Appendix B; always defined). */
static inline void fu_path_range(const uint8_t *s, ptrdiff_t n, ptrdiff_t *a, ptrdiff_t *b)
{
    ptrdiff_t i = fu_stop_1(s, 0, n, ':', '/', '?', '#'), start = 0;
    if (i > 0 && i < n && s[i] == ':')
        start = i + 1;
    if (n - start >= 2 && s[start] == '/' && s[start + 1] == '/')
        start = fu_stop_1(s, start + 2, n, '/', '?', '#', '#');
    *a = start;
    *b = fu_stop_1(s, start, n, '?', '#', '#', '#');
}

/* path_extension: the text after the last '.' of the path's last segment,
 * as [*at, *at + length) of s, its length; -1 when that segment has no
 * '.', when its last '.' is its first byte (".bashrc"), and for the
 * dot-segments "." and ".." (RFC 3986 §3.3). */
static inline ptrdiff_t fu_path_extension_1(const uint8_t *s, ptrdiff_t n, ptrdiff_t *at)
{
    ptrdiff_t a, b, i, dot = -1;
    fu_path_range(s, n, &a, &b);
    for (i = b - 1; i >= a && s[i] != '/'; i--)
        if (s[i] == '.' && dot < 0)
            dot = i;
    /* (i + 1 is the segment's start) */
    if (dot <= i + 1 || (b - i - 1 == 2 && s[i + 1] == '.'))
        return -1;
    *at = dot + 1;
    return b - dot - 1;
}

/* path_hierarchy, one level at a time: with *at = -1 first, the end of the
 * next level of the path [a, b) (each level is [a, end)), or -1 after the
 * last.  The levels end after each '/' but one at a, then at b when the
 * path does not end in '/'. */
static inline ptrdiff_t fu_path_level_next(const uint8_t *s, ptrdiff_t a, ptrdiff_t b,
                                           ptrdiff_t *at)
{
    ptrdiff_t i = *at < 0 ? a + 1 : *at;
    if (*at >= b || a == b)
        return -1;
    i = fu_find_byte(s, i, b, '/');
    *at = i < b ? i + 1 : b;
    return *at;
}

/* ---- the subdomain ---------------------------------------------------- */

/* subdomain of a host already found by fu_psl_host_range: h[0, hn), which
 * must be ASCII (the caller lowercases a host with other bytes first, as
 * str.lower does), by table t as fu_psl_lookup reads it.  The labels
 * before the registrable domain, lowercased, in out[0, length) (room hn),
 * the length; -1 when the host has no registrable domain. */
static inline ptrdiff_t fu_subdomain_host(const fu_psl_t *t, int depth, const uint8_t *h,
                                          ptrdiff_t hn, int shift, uint8_t *out)
{
    ptrdiff_t suffix_at, domain_at;
    if (fu_psl_lookup(t, depth, h, hn, out, shift, &suffix_at, &domain_at) < 0 || domain_at < 0)
        return -1;
    return domain_at > 0 ? domain_at - 1 : 0;
}

/* subdomain of s[0, n), a URI or a bare host: as fu_subdomain_host, with
 * -2 when the host has bytes beyond ASCII (found at [*ha, *hb) of s, for
 * the caller's case folding). */
static inline ptrdiff_t fu_subdomain_1(const fu_psl_t *t, int depth, const uint8_t *s, ptrdiff_t n,
                                       int shift, uint8_t *out, ptrdiff_t *ha, ptrdiff_t *hb)
{
    ptrdiff_t i;
    if (!fu_psl_host_range(s, n, ha, hb))
        return -1;
    for (i = *ha; i < *hb; i++)
        if (s[i] >= 0x80)
            return -2;
    return fu_subdomain_host(t, depth, s + *ha, *hb - *ha, shift, out);
}

#endif /* FASTURI_PARTS_H */
