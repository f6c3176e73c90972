/* fasturi_urlencoded.h: the URL Standard's application/x-www-form-urlencoded
 * parser and serializer, in the pieces the compiled SearchParams and the
 * search-params column kernel put together.
 *
 * Parsing is: split the bytes on '&', skip empty sequences (fu_ue_next),
 * cut each at its first '=', replace '+' by a space and percent-decode
 * each side (fasturi_codec.h's fu_pct_decode_1 in plus mode: one pass does
 * both, as '+' in the input is never the result of a decoding), then UTF-8
 * decode without BOM (the Encoding Standard's decoder: every maximal
 * subpart of an ill-formed sequence becomes U+FFFD, as Python's "replace"
 * does; fu_utf8_repair writes that decoding back as UTF-8).
 *
 * Serializing keeps the ASCII alphanumerics, '*', '-', '.' and '_',
 * writes U+0020 SPACE as '+' and every other byte of the UTF-8 as "%HH"
 * (the application/x-www-form-urlencoded percent-encode set, spaceAsPlus):
 * fasturi_codec.h's encoders with fu_ue_table, and for text of one-byte
 * code units (Latin-1, ASCII included) fu_ue_encode_1, which writes each
 * unit's whole encoding from a table (fu_ue_enc_t) without a branch: the
 * queries that need encoding at all mix kept and encoded bytes byte by
 * byte, where the codec's switch mispredicts.
 *
 * Pointer and length in, never NUL termination; output buffers are the
 * caller's, sized as each function says.  No state: safe on any thread.
 */
#ifndef FASTURI_URLENCODED_H
#define FASTURI_URLENCODED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"
#include "fasturi_codec.h"

/* The serializer's action table (fasturi_codec.h's FU_PCT_* per byte). */
static inline void fu_ue_table_init(uint8_t *t)
{
    int c;
    for (c = 0; c < 256; c++) {
        int kept = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '*'
                   || c == '-' || c == '.' || c == '_';
        t[c] = kept ? FU_PCT_COPY : c == ' ' ? FU_PCT_PLUS : FU_PCT_ESCAPE;
    }
}

/* Each one-byte code unit's encoding (a code point up to U+00FF): its
 * bytes, padded to 8, and how many of them count (1, 3 or 6). */
typedef struct {
    uint8_t code[256][8];
    uint8_t len[256];
} fu_ue_enc_t;

static inline void fu_ue_enc_init(fu_ue_enc_t *e)
{
    uint8_t t[256];
    int c;
    fu_ue_table_init(t);
    memset(e, 0, sizeof *e);
    for (c = 0; c < 256; c++) {
        uint8_t *o = e->code[c];
        if (t[c] == FU_PCT_COPY) {
            o[0] = (uint8_t)c;
            e->len[c] = 1;
        } else if (t[c] == FU_PCT_PLUS) {
            o[0] = '+';
            e->len[c] = 1;
        } else if (c < 0x80) {
            fu_pct_put(o, (uint32_t)c);
            e->len[c] = 3;
        } else { /* two bytes of UTF-8 */
            fu_pct_put(fu_pct_put(o, 0xC0u | ((uint32_t)c >> 6)), 0x80u | ((uint32_t)c & 0x3F));
            e->len[c] = 6;
        }
    }
}

/* The length of the encoding of the one-byte code units s[0, n). */
static inline ptrdiff_t fu_ue_encode_len_1(const fu_ue_enc_t *e, const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t i, out = 0;
    for (i = 0; i < n; i++)
        out += e->len[s[i]];
    return out;
}

/* Writes the encoding of s[0, n) at o, which has room up to end (at least
 * fu_ue_encode_len_1's length): 8 bytes a unit where 8 are left, the unit's
 * own length after that.  Returns the end of what it wrote. */
static inline uint8_t *fu_ue_encode_1(const fu_ue_enc_t *e, const uint8_t *s, ptrdiff_t n,
                                      uint8_t *o, const uint8_t *end)
{
    ptrdiff_t i = 0;
    for (; i < n && end - o >= 8; i++) {
        memcpy(o, e->code[s[i]], 8);
        o += e->len[s[i]];
    }
    for (; i < n; i++) {
        memcpy(o, e->code[s[i]], e->len[s[i]]);
        o += e->len[s[i]];
    }
    return o;
}

/* The next non-empty name-value sequence of s[0, n) at or after *i: 0 when
 * there is none; else 1, its name s[*a, *eq) and its value s[*eq + 1, *end)
 * (empty, *eq == *end, where it has no '='), and *i past it. */
static inline int fu_ue_next(const uint8_t *s, ptrdiff_t n, ptrdiff_t *i, ptrdiff_t *a,
                             ptrdiff_t *eq, ptrdiff_t *end)
{
    ptrdiff_t start = *i, stop;
    while (start < n && s[start] == '&')
        start++;
    if (start >= n) {
        *i = n;
        return 0;
    }
    stop = fu_find_byte(s, start, n, '&');
    *a = start;
    *eq = fu_find_byte(s, start, stop, '=');
    *end = stop;
    *i = stop;
    return 1;
}

/* The UTF-8 decode of s[0, n), written as UTF-8 into o (room for 3n
 * bytes): well-formed sequences copied, each maximal subpart of an
 * ill-formed one (Unicode §3.9, the Encoding Standard's UTF-8 decoder) as
 * U+FFFD.  Returns the length written. */
static inline ptrdiff_t fu_utf8_repair(const uint8_t *s, ptrdiff_t n, uint8_t *o)
{
    ptrdiff_t i = 0, k = 0;
    while (i < n) {
        uint32_t c = s[i];
        ptrdiff_t need, j;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            o[k++] = (uint8_t)c;
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0; /* no overlong */
            else if (c == 0xED)
                hi = 0x9F; /* no surrogate */
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90; /* no overlong */
            else if (c == 0xF4)
                hi = 0x8F; /* nothing past U+10FFFF */
        } else
            need = 0; /* not a lead byte */
        /* the lead and the continuation bytes that fit, the first of them
           within [lo, hi] */
        for (j = 1; j <= need && i + j < n; j++) {
            uint8_t d = s[i + j];
            if (d < lo || d > hi)
                break;
            lo = 0x80;
            hi = 0xBF;
        }
        if (need > 0 && j == need + 1) { /* well-formed */
            memcpy(o + k, s + i, (size_t)j);
            k += j;
        } else { /* a maximal subpart: U+FFFD */
            o[k++] = 0xEF;
            o[k++] = 0xBF;
            o[k++] = 0xBD;
        }
        i += j;
    }
    return k;
}

#endif /* FASTURI_URLENCODED_H */
