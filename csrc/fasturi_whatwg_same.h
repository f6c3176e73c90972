/* fasturi_whatwg_same.h: URLs that serialize to themselves, proved in one
   pass (fu_ww_same), and a column's run of them (fu_ww_same_rows): most
   URLs in the wild are http or https URLs already written as the URL
   Standard's serializer writes them, and for those the parser's answer is
   the input itself.  The parser (fasturi_whatwg_parse.h) tries this
   first; the tests compare the two on every input this takes.

   Expects fasturi_whatwg_url.h; needs SSE2 to take anything (elsewhere
   fu_ww_same says no and the parser does the work). */
#ifndef FASTURI_WHATWG_SAME_H
#define FASTURI_WHATWG_SAME_H

#include "fasturi_whatwg_url.h"

/* "http://" and "https://" as the first 7 and 8 bytes of a 64-bit load,
   little-endian, and those of the first 7 (the first 4 or 5 bytes a scheme's
   letters, which | 0x20 lowercases and takes nothing else to). */
#define FU_WW_HEAD_HTTP 0x002F2F3A70747468ull
#define FU_WW_HEAD_HTTPS 0x2F2F3A7370747468ull
#define FU_WW_HEAD_7 0x00FFFFFFFFFFFFFFull

/* ---- URLs that serialize to themselves ----------------------------------

   Most URLs met in the wild are already in the URL Standard's serialized
   form: parsing them gives back their own bytes as href.  fu_ww_same
   proves that for one common shape in a single pass, without writing the
   URL piece by piece, and leaves everything else to the parser above
   (which gives the same answer for every input fu_ww_same takes; the
   tests compare the two).  An input is taken when all of these hold:

   - it is 17 bytes or more (the scan's blocks are whole 16-byte loads);
   - it starts "http://" or "https://" exactly (a lowercase scheme, two
     slashes: no other number of them, no backslash);
   - its host is one or more of a-z, 0-9, "-", "." (lowercase: the
     domain parser keeps an ASCII domain as written, "xn--" labels and
     all; no "%", no userinfo, no uppercase), not ending in "." and whose
     last label does not start with a digit (so the IPv4 "ends in a
     number" checker says no);
   - the host is followed by "/" (the path), or by ":", one to five
     digits without a leading zero, at most 65535 and not the scheme's
     default port, then "/" or the end; or by the end (the path is empty
     and the serializer writes "/" after the input);
   - no byte anywhere is a C0 control, space, DEL or beyond ASCII (so
     nothing to trim or remove), nor any of " < > \ ^ ` { } ' (the union
     of the path, special-query and fragment percent-encode sets beyond
     those, and backslash): nothing is percent-encoded;
   - no path segment starts with "." and the path holds no "%2e" or
     "%2E" (no single- or double-dot segment, spelt either way), the path
     ending at the first "?" or "#".

   Then the href is the input (and "/"), copied to out, and the parts are
   where the input has them.

   The scan is written for a branch predictor as much as for instruction
   counts: URLs differ in length, scheme and which of "?", "#", "%" they
   hold, and a branch on any of those is mispredicted often.  So the host
   is read 32 bytes at a time and the path 64 bytes at a time as straight
   code, the blocks past the end loaded as the input's last 16 bytes with
   their bits shifted out, and the parts found from bit masks by selects.
   Needs SSE2 (elsewhere nothing is taken); uses SSSE3 where the CPU has
   it. */

/* One 16-byte block of the path's scan, one bit per byte: bytes never
   taken (bad), "?", "#", and the bytes that may start a dot segment (sus:
   "." after "/", and "%", which may begin "%2e"). */
typedef struct {
    unsigned e, sus;
#if FU_SSE2
    __m128i bad; /* (not 0 in the bytes never taken) */
#endif
} fu_ww_m16;

/* The "%"s and "."s after "/" of s at r + the bits of m (all before the
   path's end): 0 where one starts a dot segment, as far as fu_ww_same
   cares ("/." or "%2e" anywhere in the path). */
static inline int fu_ww_same_sus(const uint8_t *s, ptrdiff_t n, ptrdiff_t r, uint64_t m)
{
    for (; m != 0; m &= m - 1) {
        ptrdiff_t i = r + (ptrdiff_t)fu_ctz64(m);
        if (s[i] == '.')
            return 0;
        if (i + 2 < n && s[i + 1] == '2' && (s[i + 2] | 0x20) == 'e')
            return 0;
    }
    return 1;
}

#if FU_SSE2
/* The bytes of v fu_ww_same never takes (see above), 0xFF each; the
   compares are signed, so bytes from 0x80 are below 0x21. */
static inline __m128i fu_ww_same_bad16(__m128i v)
{
    /* (v | 2) meets "<" and ">" at 0x3E, "\" and "^" at 0x5E, "}" and DEL
       at 0x7F; (v | 4) meets "{" at 0x7F */
    __m128i v2 = _mm_or_si128(v, _mm_set1_epi8(2));
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x21));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v2, _mm_set1_epi8(0x3E)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v2, _mm_set1_epi8(0x5E)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v2, _mm_set1_epi8(0x7F)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(4)), _mm_set1_epi8(0x7F)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('`')));
    return m;
}

/* The path block s[b..b+16) (b > 0), copied to out. */
static inline fu_ww_m16 fu_ww_same16_sse2(const uint8_t *s, ptrdiff_t b, uint8_t *out)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    __m128i w =
        _mm_loadu_si128((const __m128i *)(const void *)(s + b - 1)); /* each one's previous */
    _mm_storeu_si128((__m128i *)(void *)(out + b), v);
    fu_ww_m16 m;
    m.bad = fu_ww_same_bad16(v);
    m.e = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))));
    m.sus = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')),
                     _mm_and_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('/')),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('.')))));
    return m;
}

/* The host block s[b..b+16), copied to out: bits of its bytes of a-z,
   0-9, "-", "." (ok) and of "." (dt). */
static inline void fu_ww_host16(const uint8_t *s, ptrdiff_t b, uint8_t *out, unsigned *ok,
                                unsigned *dt)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    _mm_storeu_si128((__m128i *)(void *)(out + b), v);
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(v, _mm_set1_epi8('z' + 1)));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    __m128i h = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
    __m128i d = _mm_cmpeq_epi8(v, _mm_set1_epi8('.'));
    *ok =
        (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(h, d)));
    *dt = (unsigned)_mm_movemask_epi8(d);
}
#endif

#if FU_SSSE3_DISPATCH
/* fu_ww_same16_sse2 with SSSE3: each byte's classes by two 16-entry table
   lookups (pshufb), one by its low nibble, one by its high, ANDed; so a
   bit is a class that is a product of a set of low and a set of high
   nibbles:
     0x01 C0 controls and beyond ASCII (high 0, 1, 8..F; any low)
     0x02 space, '"', "'"  (high 2; low 0, 2, 7)
     0x04 "<", ">", "\", "^"  (high 3, 5; low C, E)
     0x08 "`"  (high 6; low 0)
     0x10 "{", "}", DEL  (high 7; low B, D, F)
     0x80 "."  (high 2; low E)
   the first five together fu_ww_same_bad16's bytes. */
FU_TARGET_SSSE3 static inline fu_ww_m16 fu_ww_same16_ssse3(const uint8_t *s, ptrdiff_t b,
                                                           uint8_t *out)
{
    const __m128i lo_table = _mm_setr_epi8(0x0B, 0x01, 0x03, 0x01, 0x01, 0x01, 0x01, 0x03, 0x01,
                                           0x01, 0x01, 0x11, 0x05, 0x11, (char)0x85, 0x11);
    const __m128i hi_table = _mm_setr_epi8(0x01, 0x01, (char)0x82, 0x04, 0x00, 0x04, 0x08, 0x10,
                                           0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01);
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(s + b - 1));
    _mm_storeu_si128((__m128i *)(void *)(out + b), v);
    __m128i nib = _mm_set1_epi8(0x0F);
    __m128i cls =
        _mm_and_si128(_mm_shuffle_epi8(lo_table, _mm_and_si128(v, nib)),
                      _mm_shuffle_epi8(hi_table, _mm_and_si128(_mm_srli_epi16(v, 4), nib)));
    fu_ww_m16 m;
    m.bad = _mm_and_si128(cls, _mm_set1_epi8(0x1F));
    m.e = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))));
    /* "." after "/": the high bit of cls where w is "/" */
    m.sus = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')),
                     _mm_and_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('/')), cls)));
    return m;
}
#endif

#if FU_SSE2
/* The path block at b, by SSSE3 where ssse3 (a constant where this is
   inlined: see fu_ww_same). */
static inline fu_ww_m16 fu_ww_same16(const uint8_t *s, ptrdiff_t b, uint8_t *out, int ssse3)
{
#if FU_SSSE3_DISPATCH
    if (ssse3)
        return fu_ww_same16_ssse3(s, b, out);
#endif
    (void)ssse3;
    return fu_ww_same16_sse2(s, b, out);
}

/* Where the block of the bytes from s[r] (a whole 16, or the rest when
   fewer) is loaded: at r, or, near the end, at n - 16 with the first
   *shift bits not r's (16 or more: none is; the callers' r is less than
   n + 48, so a 64-bit mask shifted by it is defined). */
static inline ptrdiff_t fu_ww_same_at(ptrdiff_t r, ptrdiff_t n, unsigned *shift)
{
    ptrdiff_t b = r <= n - 16 ? r : n - 16; /* (a select, not a branch) */
    *shift = (unsigned)(r - b);
    return b;
}

static inline int fu_ww_same_impl(const uint8_t *s, ptrdiff_t n, uint8_t *out, fu_ww_url *u,
                                  int ssse3)
{
    if (n < 17)
        return 0;
    uint64_t head;
    memcpy(&head, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    head = __builtin_bswap64(head);
#endif
    int is_http = (head & FU_WW_HEAD_7) == FU_WW_HEAD_HTTP;
    int is_https = head == FU_WW_HEAD_HTTPS;
    if (!(is_http | is_https))
        return 0;
    ptrdiff_t a = 7 + is_https; /* the host's start */
    memcpy(out, s, 8);

    /* the host: bytes of a-z, 0-9, "-", "." up to he, 32 at a time; the
       last "." */
    ptrdiff_t r = a, dot = a - 1, he;
    for (;;) {
        unsigned sh0, sh1, ok0, ok1, dt0, dt1;
        ptrdiff_t b0 = fu_ww_same_at(r, n, &sh0), b1 = fu_ww_same_at(r + 16, n, &sh1);
        fu_ww_host16(s, b0, out, &ok0, &dt0);
        fu_ww_host16(s, b1, out, &ok1, &dt1);
        uint64_t ok = ((uint64_t)ok0 >> sh0) | (((uint64_t)ok1 >> sh1) << 16);
        uint32_t dt = (uint32_t)(((uint64_t)dt0 >> sh0) | (((uint64_t)dt1 >> sh1) << 16));
        /* the host's bytes in the window (all 32: it goes on) */
        unsigned take = fu_ctz64(~ok); /* (bit 32 is set in ~ok) */
        dt &= (uint32_t)((1ull << take) - 1);
        ptrdiff_t last = r + (ptrdiff_t)fu_top(dt | 1u);
        dot = dt != 0 ? last : dot;
        if (take < 32 || r + 32 >= n) {
            he = r + (ptrdiff_t)take < n ? r + (ptrdiff_t)take : n;
            break;
        }
        r += 32;
    }
    if (he == a || s[he - 1] == '.' || fu_ww_digit(s[dot + 1]))
        return 0;
    ptrdiff_t ps = he; /* the path's start, a "/", or n */
    int32_t port = -1;
    if (he < n && s[he] == ':') {
        /* a port written as the serializer writes it */
        ptrdiff_t k = he + 1;
        int32_t v = 0;
        while (k < n && k - he <= 5 && fu_ww_digit(s[k]))
            v = v * 10 + (s[k++] - '0');
        if (k == he + 1 || (k < n && s[k] != '/') || s[he + 1] == '0' || v > 65535
            || v == (is_https ? 443 : 80))
            return 0;
        port = v;
        memcpy(out + he, s + he, (size_t)(k - he)); /* (past the host's window maybe) */
        ps = k;
    } else if (he < n && s[he] != '/') {
        return 0;
    }
    u->len = n;
    u->scheme = FU_WW_HTTP + is_https;
    u->scheme_end = a - 3;
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    u->host_start = a;
    u->host_end = he;
    u->port = port;
    u->path_start = ps;
    if (ps == n) {
        /* no path: the serializer writes a special URL's empty path as
           "/", after the input */
        out[n] = '/';
        u->len = n + 1;
        u->path_end = n + 1;
        u->query_start = u->frag_start = -1;
        return 1;
    }

    /* the path, query and fragment: 64 bytes from ps as straight code;
       the path ends at the first "?" or "#" (pe; e: their bits) */
    uint64_t e = 0, sus = 0;
    /* (the bytes never taken wanted nowhere: every block's, the bytes of
       a last block before ps too, which are the host's or port's) */
    __m128i bad = _mm_setzero_si128();
    for (int j = 0; j < 4; j++) {
        unsigned sh;
        ptrdiff_t b = fu_ww_same_at(ps + 16 * j, n, &sh);
        fu_ww_m16 m = fu_ww_same16(s, b, out, ssse3);
        bad = _mm_or_si128(bad, m.bad);
        e |= ((uint64_t)m.e >> sh) << (16 * j);
        sus |= ((uint64_t)m.sus >> sh) << (16 * j);
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF)
        return 0;
    /* the bits before the first "?" or "#": the path's */
    uint64_t in_path = (e & (0 - e)) - 1;
    if ((sus & in_path) != 0 && !fu_ww_same_sus(s, n, ps, sus & in_path))
        return 0;
    /* (a select: bit 63 stands in for none, the first bit found then not
       set) */
    unsigned ke = fu_ctz64(e | (1ull << 63));
    ptrdiff_t pe = (e >> ke) & 1u ? ps + (ptrdiff_t)ke : n;
    /* past 64 bytes, 16 at a time, the same way */
    for (r = ps + 64; r < n; r += 16) {
        unsigned sh;
        ptrdiff_t b = fu_ww_same_at(r, n, &sh);
        fu_ww_m16 m = fu_ww_same16(s, b, out, ssse3);
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(m.bad, _mm_setzero_si128())) != 0xFFFF)
            return 0;
        if (pe < n || ((m.e | m.sus) >> sh) == 0)
            continue;
        unsigned eb = m.e >> sh;
        if (!fu_ww_same_sus(s, n, r, (m.sus >> sh) & ((eb & (0u - eb)) - 1)))
            return 0;
        if (eb != 0)
            pe = r + (ptrdiff_t)fu_ctz(eb);
    }
    u->path_end = pe;
    u->query_start = u->frag_start = -1;
    if (pe < n) {
        if (s[pe] == '#') {
            u->frag_start = pe;
        } else {
            /* a query (in a tenth of URLs or so), and a fragment maybe */
            const uint8_t *h = (const uint8_t *)memchr(s + pe + 1, '#', (size_t)(n - pe - 1));
            u->query_start = pe;
            u->frag_start = h != NULL ? h - s : -1;
        }
    }
    return 1;
}
#endif

#if FU_SSE2
/* fu_ww_same's href of each row of a column of strings, one after another
   (a column kernel's loop, here so that fu_ww_same is inlined into it):
   row i's bytes data[off[i]..off[i + 1]), null where its bit in validity
   (if any; bit vbase + i) is 0.  The hrefs are appended to out at *len
   (room for cap bytes), row i's end written at ends[i + 1] and its bit
   set in valid.  Goes from row i to row end, and stops at the first row
   fu_ww_same does not take, a null, offsets that cannot be right, or a
   row that would not fit (or end past INT32_MAX): returns its index (end:
   every row taken).  The caller does that row its own way. */
static inline int64_t fu_ww_same_rows_impl(const uint8_t *data, const int32_t *off,
                                           const uint8_t *validity, int64_t vbase, int64_t i,
                                           int64_t end, uint8_t *out, int64_t *len, int64_t cap,
                                           int32_t *ends, uint8_t *valid, int ssse3)
{
    int64_t o = *len;
    /* (no href ends past INT32_MAX, as the int32 ends cannot say) */
    int64_t room = cap < 0x7FFFFFFF ? cap : 0x7FFFFFFF;
    fu_ww_url u;
    if (data == NULL)
        return i;
    for (; i < end; i++) {
        int64_t a = off[i], k = off[i + 1] - a, j = vbase + i;
        if (validity != NULL && !((validity[j >> 3] >> (j & 7)) & 1))
            break;
        if ((a | k) < 0 || o + k + 1 > room) /* (offsets that cannot be right; no room) */
            break;
        if (!fu_ww_same_impl(data + a, k, out + o, &u, ssse3))
            break;
        o += u.len;
        ends[i + 1] = (int32_t)o;
        valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    *len = o;
    return i;
}
#endif

/* fu_ww_same_impl compiled twice, SSSE3 or not, each with its blocks
   inlined (flatten: the SSSE3 block may only be inlined into the SSSE3
   copy). */
#if FU_SSSE3_DISPATCH
FU_TARGET_SSSE3 __attribute__((flatten)) static int fu_ww_same_ssse3(const uint8_t *s, ptrdiff_t n,
                                                                     uint8_t *out, fu_ww_url *u)
{
    return fu_ww_same_impl(s, n, out, u, 1);
}

__attribute__((flatten)) static int fu_ww_same_sse2(const uint8_t *s, ptrdiff_t n, uint8_t *out,
                                                    fu_ww_url *u)
{
    return fu_ww_same_impl(s, n, out, u, 0);
}
#endif

/* Whether s[0..n) serializes to itself (see above): 1, its href in out
   and its parts in *u; else 0 (out written over). */
static inline int fu_ww_same(const uint8_t *s, ptrdiff_t n, uint8_t *out, fu_ww_url *u)
{
#if FU_SSSE3_DISPATCH
    return fu_ww_ssse3 ? fu_ww_same_ssse3(s, n, out, u) : fu_ww_same_sse2(s, n, out, u);
#elif FU_SSE2
    return fu_ww_same_impl(s, n, out, u, 0);
#else
    (void)s;
    (void)n;
    (void)out;
    (void)u;
    return 0;
#endif
}

/* fu_ww_same_rows_impl, compiled twice as fu_ww_same_impl is, by SSSE3
   where the CPU has it; i where there is no SSE2 (fu_ww_same takes
   nothing there). */
#if FU_SSSE3_DISPATCH
FU_TARGET_SSSE3 __attribute__((flatten)) static int64_t
fu_ww_same_rows_ssse3(const uint8_t *data, const int32_t *off, const uint8_t *validity,
                      int64_t vbase, int64_t i, int64_t end, uint8_t *out, int64_t *len,
                      int64_t cap, int32_t *ends, uint8_t *valid)
{
    return fu_ww_same_rows_impl(data, off, validity, vbase, i, end, out, len, cap, ends, valid, 1);
}

__attribute__((flatten)) static int64_t
fu_ww_same_rows_sse2(const uint8_t *data, const int32_t *off, const uint8_t *validity,
                     int64_t vbase, int64_t i, int64_t end, uint8_t *out, int64_t *len, int64_t cap,
                     int32_t *ends, uint8_t *valid)
{
    return fu_ww_same_rows_impl(data, off, validity, vbase, i, end, out, len, cap, ends, valid, 0);
}
#endif

static inline int64_t fu_ww_same_rows(const uint8_t *data, const int32_t *off,
                                      const uint8_t *validity, int64_t vbase, int64_t i,
                                      int64_t end, uint8_t *out, int64_t *len, int64_t cap,
                                      int32_t *ends, uint8_t *valid)
{
#if FU_SSSE3_DISPATCH
    if (fu_ww_ssse3)
        return fu_ww_same_rows_ssse3(data, off, validity, vbase, i, end, out, len, cap, ends,
                                     valid);
    return fu_ww_same_rows_sse2(data, off, validity, vbase, i, end, out, len, cap, ends, valid);
#elif FU_SSE2
    return fu_ww_same_rows_impl(data, off, validity, vbase, i, end, out, len, cap, ends, valid, 0);
#else
    (void)data;
    (void)off;
    (void)validity;
    (void)vbase;
    (void)end;
    (void)out;
    (void)len;
    (void)cap;
    (void)ends;
    (void)valid;
    return i;
#endif
}

#endif /* FASTURI_WHATWG_SAME_H */
