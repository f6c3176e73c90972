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
    static inline ptrdiff_t fu_qs_field_##N(const T *s, ptrdiff_t i, ptrdiff_t n, uint32_t sep,    \
                                            ptrdiff_t *eq, uint32_t *flags)                        \
    {                                                                                              \
        uint32_t f = 0, shift = 0;                                                                 \
        *eq = -1;                                                                                  \
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
    }

#define FU_QS_PCT 1u
#define FU_QS_PLUS 2u
#define FU_QS_WIDE 4u

FU_DEFINE_QUOTE(1, uint8_t)
FU_DEFINE_QUOTE(2, uint16_t)
FU_DEFINE_QUOTE(4, uint32_t)

#undef FU_DEFINE_QUOTE

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
