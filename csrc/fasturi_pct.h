/* fasturi_pct.h: percent-encoding (RFC 3986 §2.1) and its normalization
 * (§6.2.2.1, §6.2.2.2).
 *
 * Octet codecs work on bytes: fu_pct_count / fu_pct_decode turn every valid
 * "%hh" triplet into its octet and keep malformed '%' as written;
 * fu_pct_encode_len / fu_pct_encode write "%HH" for every octet whose bit
 * is clear in a 256-bit keep set.  fu_pct_norm_N normalizes one component
 * of a str of code-unit width N (1, 2 or 4 bytes).
 *
 * Expects a pointer and a length; reads only [0, len) (or [a, b)), never
 * relies on NUL termination, and writes at most the documented number of
 * units to the output, which the caller sizes.
 */
#ifndef FASTURI_PCT_H
#define FASTURI_PCT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_chars.h"

/* Value of a hex digit, or -1.  Takes any code unit: the unsigned range
 * checks reject everything outside 0-9 A-F a-f, including c >= 0x80. */
static inline int fu_hexval(uint32_t c)
{
    if (c - '0' < 10u)
        return (int)(c - '0');
    if ((c | 0x20u) - 'a' < 6u)
        return (int)((c | 0x20u) - 'a' + 10);
    return -1;
}

static inline int fu_is_hex(uint32_t c) { return fu_hexval(c) >= 0; }

/* Membership in a fasturi_chars.h class for any code unit: the table covers
 * bytes only, and a wider unit must not alias its low byte. */
static inline int fu_in_class(uint32_t c, uint32_t mask)
{
    return c < 0x80u && FU_IS(c, mask);
}

static const char fu_hex_upper[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                      '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

/* ---- octet codecs ---------------------------------------------------- */

/* Number of valid "%hh" triplets in s[0, n). */
static inline ptrdiff_t fu_pct_count(const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t i, k = 0;
    for (i = 0; i + 2 < n; i++)
        if (s[i] == '%' && fu_is_hex(s[i + 1]) && fu_is_hex(s[i + 2])) {
            k++;
            i += 2;
        }
    return k;
}

/* Decode s[0, n) into out (room for n bytes); returns the length written. */
static inline ptrdiff_t fu_pct_decode(const uint8_t *s, ptrdiff_t n,
                                      uint8_t *out)
{
    ptrdiff_t i = 0, o = 0;
    while (i < n) {
        if (s[i] == '%' && i + 2 < n && fu_is_hex(s[i + 1])
            && fu_is_hex(s[i + 2])) {
            out[o++] = (uint8_t)(fu_hexval(s[i + 1]) << 4
                                 | fu_hexval(s[i + 2]));
            i += 3;
        } else {
            out[o++] = s[i++];
        }
    }
    return o;
}

/* keep: 256-bit set (8 words) of the octets written as themselves. */
static inline int fu_keeps(const uint32_t *keep, uint8_t c)
{
    return (keep[c >> 5] >> (c & 31)) & 1u;
}

/* Length of the encoding of s[0, n). */
static inline ptrdiff_t fu_pct_encode_len(const uint8_t *s, ptrdiff_t n,
                                          const uint32_t *keep)
{
    ptrdiff_t i, len = n;
    for (i = 0; i < n; i++)
        if (!fu_keeps(keep, s[i]))
            len += 2;
    return len;
}

/* Encode s[0, n) into out (room for fu_pct_encode_len units). */
static inline void fu_pct_encode(const uint8_t *s, ptrdiff_t n,
                                 const uint32_t *keep, uint8_t *out)
{
    ptrdiff_t i, o = 0;
    for (i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (fu_keeps(keep, c)) {
            out[o++] = c;
        } else {
            out[o++] = '%';
            out[o++] = (uint8_t)fu_hex_upper[c >> 4];
            out[o++] = (uint8_t)fu_hex_upper[c & 15];
        }
    }
}

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
static inline ptrdiff_t fu_pct_next_1(const uint8_t *s, ptrdiff_t i,
                                      ptrdiff_t b)
{
    const uint8_t *p = i < b ? (const uint8_t *)memchr(s + i, '%',
                                                       (size_t)(b - i))
                             : NULL;
    return p ? p - s : b;
}

#define FU_DEFINE_PCT_NEXT(N, T)                                              \
static inline ptrdiff_t fu_pct_next_##N(const T *s, ptrdiff_t i, ptrdiff_t b) \
{                                                                             \
    while (i < b && s[i] != '%')                                              \
        i++;                                                                  \
    return i;                                                                 \
}
FU_DEFINE_PCT_NEXT(2, uint16_t)
FU_DEFINE_PCT_NEXT(4, uint32_t)
#undef FU_DEFINE_PCT_NEXT

#define FU_DEFINE_PCT_NORM(N, T)                                              \
static inline ptrdiff_t fu_pct_norm_##N(const T *s, ptrdiff_t a, ptrdiff_t b, \
                                        T *out, int mode)                     \
{                                                                             \
    ptrdiff_t i = a, o = 0;                                                   \
    int lower = mode != FU_NORM_PLAIN;                                        \
    int bracket = mode == FU_NORM_HOST && a < b && s[a] == '[';               \
    int zone = 0;                                                             \
    while (i < b) {                                                           \
        uint32_t c;                                                           \
        if (!lower) { /* only '%' matters: copy up to the next one */        \
            ptrdiff_t j = fu_pct_next_##N(s, i, b);                           \
            memcpy(out + o, s + i, (size_t)(j - i) * sizeof(T));              \
            o += j - i;                                                       \
            if ((i = j) >= b)                                                 \
                break;                                                        \
        }                                                                     \
        c = s[i];                                                             \
        if (c == '%') {                                                       \
            int hi, lo;                                                       \
            if (i + 2 < b && (hi = fu_hexval(s[i + 1])) >= 0                  \
                && (lo = fu_hexval(s[i + 2])) >= 0) {                         \
                uint32_t v = (uint32_t)(hi << 4 | lo);                        \
                int decode = fu_in_class(v, FU_UNRESERVED);                   \
                if (decode && fu_is_hex(v)) {                                 \
                    if (o >= 2 && out[o - 2] == '%' && fu_is_hex(out[o - 1])) \
                        decode = 0;                                           \
                    else if (o >= 1 && out[o - 1] == '%' && i + 3 < b         \
                             && fu_is_hex(s[i + 3]))                          \
                        decode = 0;                                           \
                }                                                             \
                if (decode) {                                                 \
                    if (lower && !zone && v - 'A' < 26u)                      \
                        v += 32;                                              \
                    out[o++] = (T)v;                                          \
                } else {                                                      \
                    out[o++] = '%';                                           \
                    out[o++] = (T)fu_hex_upper[hi];                           \
                    out[o++] = (T)fu_hex_upper[lo];                           \
                    if (bracket && v == 0x25)                                 \
                        zone = 1;                                             \
                }                                                             \
                i += 3;                                                       \
                continue;                                                     \
            }                                                                 \
        } else if (c == ']') {                                                \
            zone = bracket = 0;                                               \
        } else if (lower && !zone && c - 'A' < 26u) {                         \
            c += 32;                                                          \
        }                                                                     \
        out[o++] = (T)c;                                                      \
        i++;                                                                  \
    }                                                                         \
    return o;                                                                 \
}

FU_DEFINE_PCT_NORM(1, uint8_t)
FU_DEFINE_PCT_NORM(2, uint16_t)
FU_DEFINE_PCT_NORM(4, uint32_t)

#undef FU_DEFINE_PCT_NORM

#endif /* FASTURI_PCT_H */
