/* fasturi_w3lib.h: the scan that lets canonicalize(preset="w3lib") copy a
 * path as it is.
 *
 * w3lib quotes a path twice (see src/fasturi/_w3lib_c.pyx); a path of
 * characters both passes keep, with no "%", comes out unchanged.  That is
 * the usual path, so one scan tells it apart and finds what the key needs
 * besides: the last "/" (params start in the last segment) and whether a
 * "/." occurs (where every dot segment starts).
 *
 * Kept characters: printable ASCII (0x21-0x7E) but  " # % < > [ \ ] ^ ` { | }
 * (_w3lib.PATH_SAFE without "%"; _w3lib_c checks the two agree when it
 * is imported).  Expects a
 * pointer and a length; reads only [0, n).
 */
#ifndef FASTURI_W3LIB_H
#define FASTURI_W3LIB_H

#include <stddef.h>
#include <stdint.h>

#include "fasturi_base.h"

/* Bit c of the pair: whether ASCII byte c is kept. */
static inline int fu_w3_kept(uint8_t c)
{
    static const uint64_t kept[2] = { 0xAFFFFFD200000000ULL, 0x47FFFFFE87FFFFFFULL };
    return c < 0x80 && (int)((kept[c >> 6] >> (c & 63)) & 1u);
}

/* How many bytes at the start of s[0, n) are kept (n: all of them).
 * Within those, *last_slash gets the index of the last "/" (-1 for none)
 * and *dots is set to 1 when a "/" is followed by a ".". */
static inline ptrdiff_t fu_w3_plain(const uint8_t *s, ptrdiff_t n, ptrdiff_t *last_slash, int *dots)
{
    ptrdiff_t i = 0, slash = -1;
    int dot = 0;
    uint8_t c, prev = 0;
#if FU_SSE2
    /* 16 bytes a step; the last partial block is the overlapping last 16
     * (its bytes before i, seen already, change nothing) */
    ptrdiff_t at;
    unsigned skip;
    const __m128i lo = _mm_set1_epi8(0x21), del = _mm_set1_epi8(0x7F);
    const __m128i q = _mm_set1_epi8('"'), h = _mm_set1_epi8('#'), p = _mm_set1_epi8('%');
    const __m128i lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'), bq = _mm_set1_epi8('`');
    const __m128i b0 = _mm_set1_epi8('[' - 1), b1 = _mm_set1_epi8('^' + 1);
    const __m128i c0 = _mm_set1_epi8('{' - 1), c1 = _mm_set1_epi8('}' + 1);
    const __m128i sl = _mm_set1_epi8('/'), dt = _mm_set1_epi8('.');
    unsigned carry = 0; /* 1 when the byte before the block is a "/" */
    while (i < n && n >= 16) {
        at = i + 16 <= n ? i : n - 16;
        skip = (unsigned)(i - at);
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + at));
        /* signed: bytes >= 0x80 are below 0x21 too */
        __m128i bad = _mm_or_si128(_mm_cmplt_epi8(x, lo), _mm_cmpeq_epi8(x, del));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, h)));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, p), _mm_cmpeq_epi8(x, lt)));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, gt), _mm_cmpeq_epi8(x, bq)));
        bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpgt_epi8(x, b0), _mm_cmplt_epi8(x, b1)));
        bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpgt_epi8(x, c0), _mm_cmplt_epi8(x, c1)));
        if (_mm_movemask_epi8(bad))
            break; /* the scalar loop finds where */
        {
            unsigned sb = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, sl));
            unsigned db = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, dt));
            /* an overlapping block holds the byte before i itself */
            if (db & ((sb << 1) | (skip ? 0u : carry)))
                dot = 1;
            carry = (sb >> 15) & 1u;
            if (sb) {
                unsigned k = 15;
                while (!(sb >> k))
                    k--;
                slash = at + (ptrdiff_t)k;
            }
        }
        i = at + 16;
    }
    if (i > 0 && i < n)
        prev = s[i - 1];
#endif
    for (; i < n; i++) {
        c = s[i];
        if (!fu_w3_kept(c))
            break;
        if (c == '/')
            slash = i;
        else if (c == '.' && prev == '/')
            dot = 1;
        prev = c;
    }
    *last_slash = slash;
    *dots = dot;
    return i;
}

#endif /* FASTURI_W3LIB_H */
