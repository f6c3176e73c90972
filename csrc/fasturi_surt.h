/* fasturi_surt.h: steps of surt (src/fasturi/_surt_c.pyx) over 16 bytes at
 * a time: the escaping, and the test for a path the segment step keeps.
 *
 * The surt package re-encodes the host, the path and the query the same
 * way: printable ASCII but "%" and "#" is kept, every other byte becomes
 * "%xx", and the whole is lowercased (so the hex is written lowercase at
 * once).  Most text needs no escape: 16 bytes at a time are checked and
 * lowercased together, and a block with a byte to escape goes byte by
 * byte.  Expects pointer and length pairs; never relies on NUL
 * termination; the output holds 3n bytes.
 */
#ifndef FASTURI_SURT_H
#define FASTURI_SURT_H

#include <stddef.h>
#include <stdint.h>

#include "fasturi_base.h"

static inline ptrdiff_t fu_surt_escape_byte(uint8_t c, uint8_t *o, ptrdiff_t j)
{
    static const char digits[] = "0123456789abcdef";
    if (c >= 0x21 && c <= 0x7E && c != '%' && c != '#') {
        o[j] = (uint8_t)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        return j + 1;
    }
    o[j] = '%';
    o[j + 1] = (uint8_t)digits[c >> 4];
    o[j + 2] = (uint8_t)digits[c & 15];
    return j + 3;
}

/* s[0, n) escaped and lowercased into o; the length written. */
static inline ptrdiff_t fu_surt_escape_lower(const uint8_t *s, ptrdiff_t n, uint8_t *o)
{
    ptrdiff_t i = 0, j = 0, k;
#if FU_SSE2
    const __m128i lo = _mm_set1_epi8(0x21), del = _mm_set1_epi8(0x7F);
    const __m128i pct = _mm_set1_epi8('%'), hash = _mm_set1_epi8('#');
    const __m128i bit = _mm_set1_epi8(0x20);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        /* signed: bytes >= 0x80 are below 0x21 too */
        __m128i esc = _mm_or_si128(_mm_cmplt_epi8(x, lo), _mm_cmpeq_epi8(x, del));
        esc = _mm_or_si128(esc, _mm_or_si128(_mm_cmpeq_epi8(x, pct), _mm_cmpeq_epi8(x, hash)));
        if (_mm_movemask_epi8(esc)) {
            for (k = 0; k < 16; k++)
                j = fu_surt_escape_byte(s[i + k], o, j);
            continue;
        }
        {
            x = _mm_add_epi8(x, _mm_and_si128(fu_capitals16(x), bit));
            _mm_storeu_si128((__m128i *)(void *)(o + j), x);
            j += 16;
        }
    }
#endif
    for (; i < n; i++)
        j = fu_surt_escape_byte(s[i], o, j);
    return j;
}

/* Whether surt's segment step keeps the path s[0, n) as it is: it starts
 * with "/" and no "/" is followed by "/" or "." (no empty segment but a
 * last one, no dot segment). */
static inline int fu_surt_plain_path(const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t i = 1;
    if (n == 0 || s[0] != '/')
        return 0;
#if FU_SSE2
    {
        const __m128i sl = _mm_set1_epi8('/'), dt = _mm_set1_epi8('.');
        unsigned carry = 1; /* s[0] is a "/" */
        for (; i + 16 <= n; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            unsigned sb = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, sl));
            unsigned db = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, dt));
            if ((sb | db) & ((sb << 1) | carry))
                return 0;
            carry = (sb >> 15) & 1u;
        }
    }
#endif
    for (; i < n; i++)
        if (s[i - 1] == '/' && (s[i] == '/' || s[i] == '.'))
            return 0;
    return 1;
}

#endif /* FASTURI_SURT_H */
