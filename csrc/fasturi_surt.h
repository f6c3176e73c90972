/* fasturi_surt.h: steps of surt (src/fasturi/_surt_c.pyx) over 16 bytes at
 * a time: the escaping, the host most URLs have, its labels reversed, and
 * the test for a path the segment step keeps.
 *
 * The surt package re-encodes the host, the path and the query the same
 * way: printable ASCII but "%" and "#" is kept, every other byte becomes
 * "%xx", and the whole is lowercased (so the hex is written lowercase at
 * once).  Most text needs no escape: 16 bytes at a time are checked and
 * lowercased together, and a block with a byte to escape goes byte by
 * byte.  Expects pointer and length pairs; never relies on NUL
 * termination.
 *
 * Padding.  With SSE2 a text's last partial block is read whole and its
 * bytes past the end are masked off, and outputs are stored 16 bytes at a
 * time: every input must be readable, and every output writable, 16 bytes
 * past its end (_surt_c lays its scratch out so).  That keeps the short
 * texts (a host, most paths) out of byte loops.
 */
#ifndef FASTURI_SURT_H
#define FASTURI_SURT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

static inline ptrdiff_t fu_surt_escape_byte(uint8_t c, uint8_t *o, ptrdiff_t j)
{
    if (c >= 0x21 && c <= 0x7E && c != '%' && c != '#') {
        o[j] = (uint8_t)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        return j + 1;
    }
    o[j] = '%';
    o[j + 1] = (uint8_t)fu_hex_lower[c >> 4];
    o[j + 2] = (uint8_t)fu_hex_lower[c & 15];
    return j + 3;
}

#if FU_SSE2
/* 0xFF in each byte of x the escaping rewrites (signed compares: bytes from
 * 0x80 are below 0x21 too). */
static inline __m128i fu_surt_escapes16(__m128i x)
{
    __m128i esc = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x21)),
                               _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7F)));
    return _mm_or_si128(esc, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('%')),
                                          _mm_cmpeq_epi8(x, _mm_set1_epi8('#'))));
}

/* The bits of a block's first w bytes (1 <= w). */
static inline unsigned fu_first_bits(ptrdiff_t w) { return w >= 16 ? 0xFFFFu : (1u << w) - 1u; }
#endif

/* s[0, n) copied to o up to its first tab, LF, CR or "#" (the bytes surt
 * drops, and the fragment); how many bytes were copied.  16 at a time; o
 * gets the padding, s is read only within [0, n).  *high is nonzero when a
 * byte read (those copied, and maybe some after them) is 0x80 or above: the
 * column kernel's UTF-8 check then needs no pass of its own over most rows. */
static inline ptrdiff_t fu_surt_copy_to_stop(const uint8_t *s, ptrdiff_t n, uint8_t *o,
                                             unsigned *high)
{
    ptrdiff_t i = 0;
    unsigned h = 0;
#if FU_SSE2
    /* the bytes up to CR (unsigned) and "#" in one compare each; a hit on
     * another control byte (rare) is passed over */
    const __m128i cr = _mm_set1_epi8('\r'), hash = _mm_set1_epi8('#');
    unsigned bits;
    __m128i x, seen = _mm_setzero_si128();
    if (n >= 16)
        for (;; i += 16) {
            if (i + 16 > n) /* the last partial block as the last 16 bytes */
                i = n - 16;
            x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            seen = _mm_or_si128(seen, x);
            bits = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, cr), x), _mm_cmpeq_epi8(x, hash)));
            _mm_storeu_si128((__m128i *)(void *)(o + i), x);
            for (; bits; bits &= bits - 1) {
                ptrdiff_t at = i + (ptrdiff_t)fu_ctz(bits);
                if (s[at] == '\t' || s[at] == '\n' || s[at] == '\r' || s[at] == '#') {
                    *high = (unsigned)_mm_movemask_epi8(seen);
                    return at;
                }
            }
            if (i + 16 == n) {
                *high = (unsigned)_mm_movemask_epi8(seen);
                return n;
            }
        }
#endif
    for (; i < n; i++) {
        uint8_t c = s[i];
        if (c == '\t' || c == '\n' || c == '\r' || c == '#')
            break;
        o[i] = c;
        h |= c;
    }
    *high = h & 0x80u;
    return i;
}

#if FU_SSE2
/* The block x's first w bytes into o + j, where the bits of esc (within
 * them, at least one) mark the bytes to escape: the runs between them go
 * lowercased 16 bytes at a time, each escape as "%xx"; the new j. */
static inline ptrdiff_t fu_surt_escape_block(__m128i x, unsigned esc, ptrdiff_t w, uint8_t *o,
                                             ptrdiff_t j)
{
    uint8_t raw[16], low[32];
    ptrdiff_t at = 0, t;
    _mm_storeu_si128((__m128i *)(void *)raw, x);
    _mm_storeu_si128((__m128i *)(void *)low, fu_lower16(x));
    _mm_storeu_si128((__m128i *)(void *)(low + 16), _mm_setzero_si128());
    do {
        t = (ptrdiff_t)fu_ctz(esc);
        _mm_storeu_si128((__m128i *)(void *)(o + j),
                         _mm_loadu_si128((const __m128i *)(const void *)(low + at)));
        j += t - at;
        o[j] = '%';
        o[j + 1] = (uint8_t)fu_hex_lower[raw[t] >> 4];
        o[j + 2] = (uint8_t)fu_hex_lower[raw[t] & 15];
        j += 3;
        at = t + 1;
        esc &= esc - 1;
    } while (esc);
    _mm_storeu_si128((__m128i *)(void *)(o + j),
                     _mm_loadu_si128((const __m128i *)(const void *)(low + at)));
    return j + w - at;
}

/* The block x's first w bytes escaped and lowercased into o + j; the new j. */
static inline ptrdiff_t fu_surt_escape16(__m128i x, ptrdiff_t w, uint8_t *o, ptrdiff_t j)
{
    unsigned esc = (unsigned)_mm_movemask_epi8(fu_surt_escapes16(x)) & fu_first_bits(w);
    if (esc)
        return fu_surt_escape_block(x, esc, w, o, j);
    _mm_storeu_si128((__m128i *)(void *)(o + j), fu_lower16(x));
    return j + w;
}
#endif

/* s[0, n) escaped and lowercased into o (3n bytes and the padding); the
 * length written. */
static inline ptrdiff_t fu_surt_escape_lower(const uint8_t *s, ptrdiff_t n, uint8_t *o)
{
    ptrdiff_t i = 0, j = 0;
#if FU_SSE2
    for (; i < n; i += 16)
        j = fu_surt_escape16(_mm_loadu_si128((const __m128i *)(const void *)(s + i)),
                             n - i < 16 ? n - i : 16, o, j);
#else
    for (; i < n; i++)
        j = fu_surt_escape_byte(s[i], o, j);
#endif
    return j;
}

/* The host steps of surt for the host nearly every URL has, which they
 * leave as it is but for case: up to 32 bytes of printable ASCII without
 * "%" (nothing to decode or escape), no ".." and no dot at either end
 * (nothing to fold), not only digits and dots (no IPv4 form).  Such a host
 * h[0, n) goes lowercased into o: n, or -1 when it is not one. */
static inline ptrdiff_t fu_surt_plain_host(const uint8_t *h, ptrdiff_t n, uint8_t *o)
{
#if FU_SSE2
    const __m128i dot = _mm_set1_epi8('.');
    uint32_t dots = 0, other = 0;
    ptrdiff_t i;
    if (n == 0 || n > 32)
        return -1;
    for (i = 0; i < n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(h + i));
        __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
        __m128i d = _mm_cmpeq_epi8(x, dot);
        unsigned valid = fu_first_bits(n - i);
        if ((unsigned)_mm_movemask_epi8(fu_surt_escapes16(x)) & valid)
            return -1;
        dots |= ((uint32_t)_mm_movemask_epi8(d) & valid) << i;
        other |= ((uint32_t)~_mm_movemask_epi8(_mm_or_si128(d, digit)) & valid) << i;
        _mm_storeu_si128((__m128i *)(void *)(o + i), fu_lower16(x));
    }
    if (!other || (dots & (dots >> 1)) || (dots & 1u) || ((dots >> (n - 1)) & 1u))
        return -1;
    return n;
#else
    (void)h;
    (void)n;
    (void)o;
    return -1;
#endif
}

/* The host h[0, n) with its labels last first, joined by ",", into o;
 * the length written. */
static inline ptrdiff_t fu_surt_reverse_labels(const uint8_t *h, ptrdiff_t n, uint8_t *o)
{
    ptrdiff_t a, b = n, j = 0;
#if FU_SSE2
    if (n <= 32) {
        ptrdiff_t k;
        const __m128i dot = _mm_set1_epi8('.');
        uint32_t dots = (uint32_t)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)h), dot));
        if (n > 16)
            dots |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                        _mm_loadu_si128((const __m128i *)(const void *)(h + 16)), dot))
                    << 16;
        dots &= n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
        for (;;) {
            a = dots ? (ptrdiff_t)fu_top(dots) : -1;
            /* the label h(a, b), 16 bytes at a time */
            for (k = 0; k < b - a - 1; k += 16)
                _mm_storeu_si128((__m128i *)(void *)(o + j + k),
                                 _mm_loadu_si128((const __m128i *)(const void *)(h + a + 1 + k)));
            j += b - a - 1;
            if (a < 0)
                return j;
            o[j++] = ',';
            dots &= ~(1u << a);
            b = a;
        }
    }
#endif
    for (;;) {
        a = b - 1;
        while (a >= 0 && h[a] != '.')
            a--;
        memcpy(o + j, h + a + 1, (size_t)(b - a - 1));
        j += b - a - 1;
        if (a < 0)
            return j;
        o[j++] = ',';
        b = a;
    }
}

/* Whether surt's segment step keeps the path s[0, n) as it is: it starts
 * with "/" and no "/" is followed by "/" or "." (no empty segment but a
 * last one, no dot segment). */
static inline int fu_surt_plain_path(const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t i;
    if (n == 0 || s[0] != '/')
        return 0;
    for (i = 1; i < n; i++)
        if (s[i - 1] == '/' && (s[i] == '/' || s[i] == '.'))
            return 0;
    return 1;
}

/* The path s[0, n) escaped and lowercased into o, as fu_surt_escape_lower,
 * when fu_surt_plain_path holds (most paths): the length written, else -1
 * (the caller removes the segments and escapes then).  One pass does both. */
static inline ptrdiff_t fu_surt_escape_plain_path(const uint8_t *s, ptrdiff_t n, uint8_t *o)
{
#if FU_SSE2
    const __m128i sl = _mm_set1_epi8('/'), dt = _mm_set1_epi8('.');
    ptrdiff_t i, j = 0;
    unsigned carry = 0; /* whether the byte before the block is a "/" */
    if (n == 0 || s[0] != '/')
        return -1;
    for (i = 0; i < n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        ptrdiff_t w = n - i < 16 ? n - i : 16;
        unsigned valid = fu_first_bits(w);
        unsigned sb = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, sl));
        unsigned db = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, dt));
        if ((sb | db) & ((sb << 1) | carry) & valid)
            return -1;
        carry = (sb >> 15) & 1u;
        j = fu_surt_escape16(x, w, o, j);
    }
    return j;
#else
    return fu_surt_plain_path(s, n) ? fu_surt_escape_lower(s, n, o) : -1;
#endif
}

#endif /* FASTURI_SURT_H */
