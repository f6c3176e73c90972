/* fasturi_quote.h: the byte loops of urllib.parse's quote family.
 *
 * Quoting (quote, quote_plus, quote_from_bytes, urlencode) maps every code
 * unit through a 256-entry action table built by fu_qtable_*: FU_Q_COPY
 * keeps an ASCII character, FU_Q_PLUS writes '+' (quote_plus's space),
 * anything else is percent-encoded with uppercase hex.  For str data the
 * code points are encoded as UTF-8 on the fly (only valid for the UTF-8
 * codec); fu_quote_len_N() returns -1 on a surrogate, which UTF-8 cannot
 * encode, so the caller can defer to the codec for its exact error.
 *
 * Unquoting turns each "%hh" (two hex digits, either case) into one byte
 * and, in plus mode, '+' into ' '; a '%' without two hex digits is kept.
 * str data is decoded one ASCII run at a time, as the stdlib does, so the
 * fu_q_*_end_N() helpers find run boundaries.
 *
 * N is the code-unit width (1, 2 or 4: a Python str's kind; bytes use 1).
 * Every function takes a pointer and a length, reads only [0, len) and
 * never relies on NUL termination.  Output buffers are the caller's: the
 * fu_quote_len_N() result for quoting, the input length for unquoting.
 */
#ifndef FASTURI_QUOTE_H
#define FASTURI_QUOTE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

#define FU_Q_ESCAPE 0
#define FU_Q_COPY 1
#define FU_Q_PLUS 2

/* The stdlib's _ALWAYS_SAFE is RFC 3986 §2.3 unreserved; every byte
 * >= 0x80 is always escaped, whatever `safe` holds. */
static inline void fu_qtable_init(uint8_t *t)
{
    int c;
    for (c = 0; c < 256; c++)
        t[c] = FU_IS((uint8_t)c, FU_UNRESERVED) ? FU_Q_COPY : FU_Q_ESCAPE;
}

/* One character of `safe`; non-ASCII ones are dropped like the stdlib's
 * safe.encode('ascii', 'ignore'). */
static inline void fu_qtable_add(uint8_t *t, uint32_t c)
{
    if (c < 0x80 && t[c] == FU_Q_ESCAPE)
        t[c] = FU_Q_COPY;
}

static inline uint8_t *fu_q_put_pct(uint8_t *o, uint32_t b)
{
    o[0] = '%';
    o[1] = (uint8_t)fu_hex_upper[(b >> 4) & 0xF];
    o[2] = (uint8_t)fu_hex_upper[b & 0xF];
    return o + 3;
}

/* Bytes (quote_from_bytes): every byte is one unit. */
static inline ptrdiff_t fu_quote_span_bytes(const uint8_t *s, ptrdiff_t n, const uint8_t *t)
{
    ptrdiff_t i = 0;
    while (i < n && t[s[i]] == FU_Q_COPY)
        i++;
    return i;
}

static inline ptrdiff_t fu_quote_len_bytes(const uint8_t *s, ptrdiff_t n, const uint8_t *t)
{
    ptrdiff_t i, out = n;
    for (i = 0; i < n; i++)
        if (t[s[i]] == FU_Q_ESCAPE)
            out += 2;
    return out;
}

static inline uint8_t *fu_quote_write_bytes(const uint8_t *s, ptrdiff_t n, const uint8_t *t,
                                            uint8_t *o)
{
    ptrdiff_t i;
    for (i = 0; i < n; i++) {
        uint8_t c = s[i];
        switch (t[c]) {
        case FU_Q_COPY: *o++ = c; break;
        case FU_Q_PLUS: *o++ = '+'; break;
        default: o = fu_q_put_pct(o, c);
        }
    }
    return o;
}

/* str data: code points, percent-encoded as their UTF-8 bytes. */
#define FU_DEFINE_QUOTE(N, T)                                                                      \
    static inline ptrdiff_t fu_quote_span_##N(const T *s, ptrdiff_t n, const uint8_t *t)           \
    {                                                                                              \
        ptrdiff_t i = 0;                                                                           \
        while (i < n && s[i] < 0x80 && t[s[i]] == FU_Q_COPY)                                       \
            i++;                                                                                   \
        return i;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline ptrdiff_t fu_quote_len_##N(const T *s, ptrdiff_t n, const uint8_t *t)            \
    {                                                                                              \
        ptrdiff_t i, out = 0;                                                                      \
        for (i = 0; i < n; i++) {                                                                  \
            uint32_t c = s[i];                                                                     \
            if (c < 0x80)                                                                          \
                out += t[c] == FU_Q_ESCAPE ? 3 : 1;                                                \
            else if (c < 0x800)                                                                    \
                out += 6;                                                                          \
            else if (c < 0x10000) {                                                                \
                if (c >= 0xD800 && c <= 0xDFFF)                                                    \
                    return -1;                                                                     \
                out += 9;                                                                          \
            } else                                                                                 \
                out += 12;                                                                         \
        }                                                                                          \
        return out;                                                                                \
    }                                                                                              \
                                                                                                   \
    static inline uint8_t *fu_quote_write_##N(const T *s, ptrdiff_t n, const uint8_t *t,           \
                                              uint8_t *o)                                          \
    {                                                                                              \
        ptrdiff_t i;                                                                               \
        for (i = 0; i < n; i++) {                                                                  \
            uint32_t c = s[i];                                                                     \
            if (c < 0x80) {                                                                        \
                switch (t[c]) {                                                                    \
                case FU_Q_COPY: *o++ = (uint8_t)c; break;                                          \
                case FU_Q_PLUS: *o++ = '+'; break;                                                 \
                default: o = fu_q_put_pct(o, c);                                                   \
                }                                                                                  \
            } else if (c < 0x800) {                                                                \
                o = fu_q_put_pct(o, 0xC0 | (c >> 6));                                              \
                o = fu_q_put_pct(o, 0x80 | (c & 0x3F));                                            \
            } else if (c < 0x10000) {                                                              \
                o = fu_q_put_pct(o, 0xE0 | (c >> 12));                                             \
                o = fu_q_put_pct(o, 0x80 | ((c >> 6) & 0x3F));                                     \
                o = fu_q_put_pct(o, 0x80 | (c & 0x3F));                                            \
            } else {                                                                               \
                o = fu_q_put_pct(o, 0xF0 | (c >> 18));                                             \
                o = fu_q_put_pct(o, 0x80 | ((c >> 12) & 0x3F));                                    \
                o = fu_q_put_pct(o, 0x80 | ((c >> 6) & 0x3F));                                     \
                o = fu_q_put_pct(o, 0x80 | (c & 0x3F));                                            \
            }                                                                                      \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* Unquote s[0:n) into o; returns the output length.  *high gets the OR of */                  \
    /* every output byte, so (*high & 0x80) == 0 means the result is ASCII. */                     \
    static inline ptrdiff_t fu_unquote_##N(const T *s, ptrdiff_t n, int plus, uint8_t *o,          \
                                           uint32_t *high)                                         \
    {                                                                                              \
        ptrdiff_t i = 0, k = 0;                                                                    \
        uint32_t h = 0;                                                                            \
        while (i < n) {                                                                            \
            uint32_t c = s[i];                                                                     \
            if (c == '%' && n - i >= 3) {                                                          \
                int a = fu_hexval(s[i + 1]), b = fu_hexval(s[i + 2]);                              \
                if (a >= 0 && b >= 0) {                                                            \
                    c = (uint32_t)(a << 4 | b);                                                    \
                    i += 3;                                                                        \
                    o[k++] = (uint8_t)c;                                                           \
                    h |= c;                                                                        \
                    continue;                                                                      \
                }                                                                                  \
            } else if (c == '+' && plus)                                                           \
                c = ' ';                                                                           \
            o[k++] = (uint8_t)c;                                                                   \
            h |= c;                                                                                \
            i++;                                                                                   \
        }                                                                                          \
        *high |= h;                                                                                \
        return k;                                                                                  \
    }                                                                                              \
                                                                                                   \
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
    /* One field of a query: from i to the next `sep` (or n).  Sets *eq to the */                  \
    /* first '=' in it (or -1) and *flags: FU_QS_PCT, FU_QS_PLUS, FU_QS_WIDE */                    \
    /* (a code unit >= 0x80) for the name (bits 0-2) and value (bits 4-6). */                      \
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
