/* fasturi_pct.h: percent-encoding normalization (RFC 3986 §6.2.2.1,
 * §6.2.2.2), the part of §6.2.2 that fasturi_dots.h's normalization runs
 * on each component.  The percent codec itself is fasturi_codec.h.
 *
 * fu_pct_norm_N normalizes one component of a str of code-unit width N (1,
 * 2 or 4 bytes).  Expects a pointer and bounds; reads only [a, b), never
 * relies on NUL termination, and writes at most b - a units to the output,
 * which the caller sizes.
 */
#ifndef FASTURI_PCT_H
#define FASTURI_PCT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

/* ---- component normalization (§6.2.2.1, §6.2.2.2) ---------------------- */

/* Modes of fu_pct_norm_N. */
#define FU_NORM_PLAIN 0 /* triplets only */
#define FU_NORM_LOWER 1 /* and ASCII letters lowercased (scheme) */
#define FU_NORM_HOST 2  /* lowercased, except an RFC 6874 ZoneID */

/* fu_pct_norm_N(s, a, b, out, mode): normalize the component s[a, b) into
 * out (room for b - a units); returns the length written.  Hex digits of a
 * triplet become uppercase, a triplet of an unreserved character is
 * decoded, malformed '%' is kept.  A decoded hex digit that would complete
 * a kept malformed '%' into a triplet ("%%34" then "1") stays encoded, so a
 * second pass changes nothing.  FU_NORM_HOST: in a host starting with '[',
 * the text after "%25" and before the first ']' keeps its case. */
/* Index of the first '%' in s[i, b), or b: what plain mode copies as is. */
static inline ptrdiff_t fu_pct_next_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t b)
{
    return fu_find_byte(s, i, b, '%');
}

#define FU_DEFINE_PCT_NEXT(N, T)                                                                   \
    static inline ptrdiff_t fu_pct_next_##N(const T *s, ptrdiff_t i, ptrdiff_t b)                  \
    {                                                                                              \
        while (i < b && s[i] != '%')                                                               \
            i++;                                                                                   \
        return i;                                                                                  \
    }
FU_DEFINE_PCT_NEXT(2, uint16_t)
FU_DEFINE_PCT_NEXT(4, uint32_t)
#undef FU_DEFINE_PCT_NEXT

#define FU_DEFINE_PCT_NORM(N, T)                                                                   \
    static inline ptrdiff_t fu_pct_norm_##N(const T *s, ptrdiff_t a, ptrdiff_t b, T *out,          \
                                            int mode)                                              \
    {                                                                                              \
        ptrdiff_t i = a, o = 0;                                                                    \
        int lower = mode != FU_NORM_PLAIN;                                                         \
        int bracket = mode == FU_NORM_HOST && a < b && s[a] == '[';                                \
        int zone = 0;                                                                              \
        if (lower) { /* most schemes and hosts: lowercase already, no '%' */                       \
            ptrdiff_t j = a;                                                                       \
            while (j < b && (uint32_t)s[j] - 'A' >= 26u && s[j] != '%' && s[j] != ']')             \
                j++;                                                                               \
            memcpy(out, s + a, (size_t)(j - a) * sizeof(T));                                       \
            o = j - a;                                                                             \
            i = j;                                                                                 \
        }                                                                                          \
        while (i < b) {                                                                            \
            uint32_t c;                                                                            \
            if (!lower) { /* only '%' matters: copy up to the next one */                          \
                ptrdiff_t j = fu_pct_next_##N(s, i, b);                                            \
                memcpy(out + o, s + i, (size_t)(j - i) * sizeof(T));                               \
                o += j - i;                                                                        \
                if ((i = j) >= b)                                                                  \
                    break;                                                                         \
            }                                                                                      \
            c = s[i];                                                                              \
            if (c == '%') {                                                                        \
                int hi, lo;                                                                        \
                if (i + 2 < b && (hi = fu_hexval(s[i + 1])) >= 0                                   \
                    && (lo = fu_hexval(s[i + 2])) >= 0) {                                          \
                    uint32_t v = (uint32_t)(hi << 4 | lo);                                         \
                    int decode = fu_in_class(v, FU_UNRESERVED);                                    \
                    if (decode && fu_is_hex(v)) {                                                  \
                        if (o >= 2 && out[o - 2] == '%' && fu_is_hex(out[o - 1]))                  \
                            decode = 0;                                                            \
                        else if (o >= 1 && out[o - 1] == '%' && i + 3 < b && fu_is_hex(s[i + 3]))  \
                            decode = 0;                                                            \
                    }                                                                              \
                    if (decode) {                                                                  \
                        if (lower && !zone && v - 'A' < 26u)                                       \
                            v += 32;                                                               \
                        out[o++] = (T)v;                                                           \
                    } else {                                                                       \
                        out[o++] = '%';                                                            \
                        out[o++] = (T)fu_hex_upper[hi];                                            \
                        out[o++] = (T)fu_hex_upper[lo];                                            \
                        if (bracket && v == 0x25)                                                  \
                            zone = 1;                                                              \
                    }                                                                              \
                    i += 3;                                                                        \
                    continue;                                                                      \
                }                                                                                  \
            } else if (c == ']') {                                                                 \
                zone = bracket = 0;                                                                \
            } else if (lower && !zone && c - 'A' < 26u) {                                          \
                c += 32;                                                                           \
            }                                                                                      \
            out[o++] = (T)c;                                                                       \
            i++;                                                                                   \
        }                                                                                          \
        return o;                                                                                  \
    }

FU_DEFINE_PCT_NORM(1, uint8_t)
FU_DEFINE_PCT_NORM(2, uint16_t)
FU_DEFINE_PCT_NORM(4, uint32_t)

#undef FU_DEFINE_PCT_NORM

#endif /* FASTURI_PCT_H */
