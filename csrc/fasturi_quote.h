/* fasturi_quote.h: the loops of urllib.parse's quote family that are not
 * the percent codec (fasturi_codec.h holds that): the query-string field
 * scan of parse_qsl, and the run boundaries unquote needs, since the
 * stdlib decodes str data one ASCII run at a time.
 *
 * N is the code-unit width (1, 2 or 4: a Python str's kind; bytes use 1).
 * Every function takes a pointer and a length (or bounds), reads only
 * [0, len) and never relies on NUL termination.
 */
#ifndef FASTURI_QUOTE_H
#define FASTURI_QUOTE_H

#include <stddef.h>
#include <stdint.h>

#include "fasturi_base.h"

/* fu_q_ascii_end_N, fu_q_nonascii_end_N: the end of the run of ASCII (or
 * non-ASCII) code units from i.  fu_qs_field_N: one field of a query, from
 * i to the next `sep` (or n); sets *eq to the first '=' in it (or -1) and
 * *flags: FU_QS_PCT, FU_QS_PLUS, FU_QS_WIDE (a code unit >= 0x80) for the
 * name (bits 0-2) and the value (bits 4-6). */
#define FU_DEFINE_QUOTE(N, T)                                                                      \
    static inline ptrdiff_t fu_q_ascii_end_##N(const T *s, ptrdiff_t i, ptrdiff_t n)               \
    {                                                                                              \
        while (i < n && s[i] < 0x80)                                                               \
            i++;                                                                                   \
        return i;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline ptrdiff_t fu_q_nonascii_end_##N(const T *s, ptrdiff_t i, ptrdiff_t n)            \
    {                                                                                              \
        while (i < n && s[i] >= 0x80)                                                              \
            i++;                                                                                   \
        return i;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* the scan from i with what the field's earlier code units gave: *eq                       \
       (-1 while no '=') and *flags */  \
    static inline ptrdiff_t fu_qs_field_from_##N(const T *s, ptrdiff_t i, ptrdiff_t n,             \
                                                 uint32_t sep, ptrdiff_t *eq, uint32_t *flags)     \
    {                                                                                              \
        uint32_t f = *flags, shift = *eq < 0 ? 0 : 4;                                              \
        for (; i < n; i++) {                                                                       \
            uint32_t c = s[i];                                                                     \
            if (c == sep)                                                                          \
                break;                                                                             \
            if (c == '=' && shift == 0) {                                                          \
                *eq = i;                                                                           \
                shift = 4;                                                                         \
            } else if (c == '%')                                                                   \
                f |= FU_QS_PCT << shift;                                                           \
            else if (c == '+')                                                                     \
                f |= FU_QS_PLUS << shift;                                                          \
            else if (c >= 0x80)                                                                    \
                f |= FU_QS_WIDE << shift;                                                          \
        }                                                                                          \
        *flags = f;                                                                                \
        return i;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline ptrdiff_t fu_qs_field_scalar_##N(const T *s, ptrdiff_t i, ptrdiff_t n,           \
                                                   uint32_t sep, ptrdiff_t *eq, uint32_t *flags)   \
    {                                                                                              \
        *eq = -1;                                                                                  \
        *flags = 0;                                                                                \
        return fu_qs_field_from_##N(s, i, n, sep, eq, flags);                                      \
    }

#define FU_QS_PCT 1u
#define FU_QS_PLUS 2u
#define FU_QS_WIDE 4u

FU_DEFINE_QUOTE(1, uint8_t)
FU_DEFINE_QUOTE(2, uint16_t)
FU_DEFINE_QUOTE(4, uint32_t)

#undef FU_DEFINE_QUOTE

#define fu_qs_field_2 fu_qs_field_scalar_2
#define fu_qs_field_4 fu_qs_field_scalar_4

/* fu_qs_field_1 16 bytes at a time where it can (a query's fields run to
 * about a hundred bytes; the byte loop's four tests a byte were a third of
 * parse_qsl's time), then the byte loop for the rest. */
#if FU_SSE2
static inline uint32_t fu_qs_flags16(unsigned pct, unsigned plus, unsigned wide)
{
    return (pct ? FU_QS_PCT : 0) | (plus ? FU_QS_PLUS : 0) | (wide ? FU_QS_WIDE : 0);
}

static inline ptrdiff_t fu_qs_field_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, uint32_t sep,
                                      ptrdiff_t *eq, uint32_t *flags)
{
    ptrdiff_t e = -1;
    uint32_t f = 0;
    if (sep > 0xFF)
        return fu_qs_field_scalar_1(s, i, n, sep, eq, flags);
    for (; i + 16 <= n; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        unsigned at_sep = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)sep)));
        /* the bits of the code units before the field's end */
        unsigned in = at_sep ? (1u << fu_ctz(at_sep)) - 1 : 0xFFFFu;
        unsigned pct = in & (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('%')));
        unsigned plus = in & (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')));
        unsigned wide = in & (unsigned)_mm_movemask_epi8(x);
        unsigned eqs = in & (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('=')));
        if (e < 0 && eqs) { /* the name ends at the first '=' */
            unsigned b = fu_ctz(eqs), name = (1u << b) - 1, value = ~((2u << b) - 1);
            e = i + b;
            f |= fu_qs_flags16(pct & name, plus & name, wide & name);
            f |= fu_qs_flags16(pct & value, plus & value, wide & value) << 4;
        } else {
            f |= fu_qs_flags16(pct, plus, wide) << (e < 0 ? 0 : 4);
        }
        if (at_sep) {
            *eq = e;
            *flags = f;
            return i + fu_ctz(at_sep);
        }
    }
    *eq = e;
    *flags = f;
    return fu_qs_field_from_1(s, i, n, sep, eq, flags);
}
#else
#define fu_qs_field_1 fu_qs_field_scalar_1
#endif

/* Copy s[0:n) as bytes (every unit < 0x80), '+' -> ' ' when plus. */
#define FU_DEFINE_NARROW(N, T)                                                                     \
    static inline void fu_q_narrow_##N(const T *s, ptrdiff_t n, int plus, uint8_t *o)              \
    {                                                                                              \
        ptrdiff_t i;                                                                               \
        for (i = 0; i < n; i++)                                                                    \
            o[i] = (plus && s[i] == '+') ? ' ' : (uint8_t)s[i];                                    \
    }

FU_DEFINE_NARROW(1, uint8_t)
FU_DEFINE_NARROW(2, uint16_t)
FU_DEFINE_NARROW(4, uint32_t)

#undef FU_DEFINE_NARROW

#endif /* FASTURI_QUOTE_H */
