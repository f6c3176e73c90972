/* fasturi_codec.h: the percent codec (RFC 3986 §2.1), one for the whole
 * package: the RFC API (percent_encode, percent_decode,
 * percent_decode_bytes) and the urllib.parse drop-in (quote, quote_plus,
 * quote_from_bytes, unquote, unquote_plus, unquote_to_bytes, urlencode,
 * parse_qsl) run these same loops.
 *
 * Encoding maps every code unit through a 256-entry action table built by
 * fu_pct_table_init / fu_pct_table_add: FU_PCT_COPY keeps an ASCII
 * character, FU_PCT_PLUS writes '+' (quote_plus's space), anything else
 * becomes "%HH" (uppercase hex, as §2.1 asks of producers).  Bytes are
 * encoded as they are (fu_pct_*_bytes); the code points of str data are
 * encoded as UTF-8 on the fly (fu_pct_*_N), and fu_pct_encode_len_N()
 * returns -1 on a surrogate, which UTF-8 cannot encode, so the caller can
 * defer to the codec for its exact error.
 *
 * Decoding turns each "%hh" (two hex digits, either case) into its octet
 * and, in plus mode, '+' into ' '; a '%' without two hex digits is kept as
 * written.  Every other code unit is copied as one byte, so the input must
 * be bytes or ASCII text (the callers split other text into ASCII runs, or
 * encode it first).
 *
 * N is the code-unit width (1, 2 or 4: a Python str's kind).  Every
 * function takes a pointer and a length, reads only [0, len) and never
 * relies on NUL termination.  Output buffers are the caller's: the
 * fu_pct_encode_len_*() result for encoding, the input length for decoding.
 */
#ifndef FASTURI_CODEC_H
#define FASTURI_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

/* ---- the action table -------------------------------------------------- */

#define FU_PCT_ESCAPE 0
#define FU_PCT_COPY 1
#define FU_PCT_PLUS 2

/* §2.3 unreserved is always kept (the stdlib's _ALWAYS_SAFE is the same
 * set); every byte >= 0x80 is always escaped, whatever `safe` holds. */
static inline void fu_pct_table_init(uint8_t *t)
{
    int c;
    for (c = 0; c < 256; c++)
        t[c] = FU_IS((uint8_t)c, FU_UNRESERVED) ? FU_PCT_COPY : FU_PCT_ESCAPE;
}

/* One character of `safe`; non-ASCII ones are dropped (the stdlib's
 * safe.encode('ascii', 'ignore'); percent_encode honours ASCII only). */
static inline void fu_pct_table_add(uint8_t *t, uint32_t c)
{
    if (c < 0x80 && t[c] == FU_PCT_ESCAPE)
        t[c] = FU_PCT_COPY;
}

static inline uint8_t *fu_pct_put(uint8_t *o, uint32_t b)
{
    o[0] = '%';
    o[1] = (uint8_t)fu_hex_upper[(b >> 4) & 0xF];
    o[2] = (uint8_t)fu_hex_upper[b & 0xF];
    return o + 3;
}

/* ---- encoding bytes: every byte is one unit ---------------------------- */

/* Length of the run of kept bytes at the start of s. */
static inline ptrdiff_t fu_pct_span_bytes(const uint8_t *s, ptrdiff_t n, const uint8_t *t)
{
    ptrdiff_t i = 0;
    /* eight at a time: the AND of their actions is FU_PCT_COPY (1) only
       when each is (FU_PCT_PLUS is 2, FU_PCT_ESCAPE 0) */
    while (i + 8 <= n
           && (t[s[i]] & t[s[i + 1]] & t[s[i + 2]] & t[s[i + 3]] & t[s[i + 4]] & t[s[i + 5]]
               & t[s[i + 6]] & t[s[i + 7]])
                  == FU_PCT_COPY)
        i += 8;
    while (i < n && t[s[i]] == FU_PCT_COPY)
        i++;
    return i;
}

/* Whether quote()'s default (RFC 3986 unreserved and '/') keeps every byte
 * of s: [A-Za-z0-9], '-' '.' '/' (with the digits, the run 0x2D-0x39), '_'
 * and '~'.  quote(text) of text it keeps is the commonest call of all; the
 * table walk of fu_pct_span_bytes mispredicts where its runs end, this
 * tests 16 bytes at once and branches only on the length.
 *
 * `headed`: the 32 bytes before s + n may be read even where n < 32, as
 * where s is a compact str's data, which follows a header longer than that.
 * Text of up to 32 bytes is then tested by two loads ending at s + n, the
 * header's bytes (and any padding in it) masked off the result: real paths'
 * lengths vary call to call, and the branches that followed them were a
 * third of the test's time.  Otherwise reads only s[0, n). */
#if FU_SSE2
/* Bit i set: byte i of x is kept. */
static FU_ALWAYS_INLINE unsigned fu_pct_kept_bits(__m128i x)
{
    const __m128i run = _mm_sub_epi8(x, _mm_set1_epi8(0x2D));
    const __m128i letter = _mm_sub_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8(0x61));
    __m128i ok = _mm_cmpeq_epi8(_mm_min_epu8(run, _mm_set1_epi8(12)), run);
    ok = _mm_or_si128(ok, _mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(25)), letter));
    ok = _mm_or_si128(ok, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x5F)));
    ok = _mm_or_si128(ok, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7E)));
    return (unsigned)_mm_movemask_epi8(ok);
}

static FU_ALWAYS_INLINE unsigned fu_pct_kept_bits_at(const uint8_t *p)
{
    return fu_pct_kept_bits(_mm_loadu_si128((const __m128i *)p));
}
#endif

static FU_ALWAYS_INLINE int fu_pct_quote_keeps(const uint8_t *s, ptrdiff_t n,
                                               const uint8_t *slash_table, int headed)
{
#if FU_SSE2
    unsigned all = 0xFFFF;
    ptrdiff_t i;
    (void)slash_table; /* the fallback's */
    if (headed && n <= 32) {
        /* bit j: byte s[n - 32 + j]; the text's bytes are the top n bits */
        uint64_t m =
            (uint64_t)fu_pct_kept_bits_at(s + n - 16) << 16 | fu_pct_kept_bits_at(s + n - 32);
        return (m >> (32 - n)) == (UINT64_C(1) << n) - 1;
    }
    if (n < 16) {
        uint8_t b[16];
        memset(b, 'a', sizeof b);
        memcpy(b, s, (size_t)n);
        return fu_pct_kept_bits_at(b) == 0xFFFF;
    }
    if (n <= 32)
        return (fu_pct_kept_bits_at(s) & fu_pct_kept_bits_at(s + n - 16)) == 0xFFFF;
    if (n <= 64) /* the first 32 and the last 32 */
        return (fu_pct_kept_bits_at(s) & fu_pct_kept_bits_at(s + 16)
                & fu_pct_kept_bits_at(s + n - 32) & fu_pct_kept_bits_at(s + n - 16))
               == 0xFFFF;
    /* every block's bits and-ed, then the last (overlapping) 16: no exit to
       predict in between */
    for (i = 0; i + 16 < n; i += 16)
        all &= fu_pct_kept_bits_at(s + i);
    return (all & fu_pct_kept_bits_at(s + n - 16)) == 0xFFFF;
#else
    (void)headed;
    return fu_pct_span_bytes(s, n, slash_table) == n;
#endif
}

static inline ptrdiff_t fu_pct_encode_len_bytes(const uint8_t *s, ptrdiff_t n, const uint8_t *t)
{
    ptrdiff_t i, out = n;
    for (i = 0; i < n; i++)
        if (t[s[i]] == FU_PCT_ESCAPE)
            out += 2;
    return out;
}

/* Returns the end of what it wrote. */
static inline uint8_t *fu_pct_encode_bytes(const uint8_t *s, ptrdiff_t n, const uint8_t *t,
                                           uint8_t *o)
{
    ptrdiff_t i;
    for (i = 0; i < n; i++) {
        uint8_t c = s[i];
        switch (t[c]) {
        case FU_PCT_COPY: *o++ = c; break;
        case FU_PCT_PLUS: *o++ = '+'; break;
        default: o = fu_pct_put(o, c);
        }
    }
    return o;
}

/* fu_pct_skip_N(s, i, n, plus, o, &k, &h): decoding's runs with nothing to
 * decode.  Copies s[i, ...) to o + k up to the next "%" (or "+" in plus
 * mode), ORing the bytes into h, and returns where it stopped; the caller
 * decodes from there.  Only bytes have it, 16 at a time (with SSE2): wider
 * code units go one by one.  In place (o == s) it writes only behind what
 * it has read, and it stores whole blocks only where a block has no stop,
 * so nothing is written past the decoded text's end: an output of exactly
 * the decoded length is enough. */
#if FU_SSE2
static inline ptrdiff_t fu_pct_skip_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int plus,
                                      uint8_t *o, ptrdiff_t *k, uint32_t *h)
{
    const __m128i pct = _mm_set1_epi8('%'), alt = _mm_set1_epi8(plus ? '+' : '%');
    __m128i any = _mm_setzero_si128();
    ptrdiff_t j = *k, stop = n;
    uint32_t c = 0;
    for (; i + 16 <= n; i += 16, j += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        unsigned bits = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(x, pct), _mm_cmpeq_epi8(x, alt)));
        if (bits) {
            stop = i + (ptrdiff_t)fu_ctz(bits);
            break;
        }
        _mm_storeu_si128((__m128i *)(void *)(o + j), x);
        any = _mm_or_si128(any, x);
    }
    if (j != *k) { /* whole blocks were copied: their OR, as one byte */
        any = _mm_or_si128(any, _mm_srli_si128(any, 8));
        any = _mm_or_si128(any, _mm_srli_si128(any, 4));
        any = _mm_or_si128(any, _mm_srli_si128(any, 2));
        any = _mm_or_si128(any, _mm_srli_si128(any, 1));
        c = (uint32_t)_mm_cvtsi128_si32(any) & 0xFFu;
    }
    if (stop < n) /* the block with a stop: its bytes before it one by one */
        for (; i < stop; i++) {
            c |= s[i];
            o[j++] = s[i];
        }
    *h |= c;
    *k = j;
    return i;
}
#else
static inline ptrdiff_t fu_pct_skip_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int plus,
                                      uint8_t *o, ptrdiff_t *k, uint32_t *h)
{
    (void)s, (void)n, (void)plus, (void)o, (void)k, (void)h;
    return i;
}
#endif
static inline ptrdiff_t fu_pct_skip_2(const uint16_t *s, ptrdiff_t i, ptrdiff_t n, int plus,
                                      uint8_t *o, ptrdiff_t *k, uint32_t *h)
{
    (void)s, (void)n, (void)plus, (void)o, (void)k, (void)h;
    return i;
}
static inline ptrdiff_t fu_pct_skip_4(const uint32_t *s, ptrdiff_t i, ptrdiff_t n, int plus,
                                      uint8_t *o, ptrdiff_t *k, uint32_t *h)
{
    (void)s, (void)n, (void)plus, (void)o, (void)k, (void)h;
    return i;
}

/* ---- encoding str data, decoding --------------------------------------- */

/* fu_pct_span_N, fu_pct_encode_len_N, fu_pct_encode_N: as the _bytes ones,
 * for code points, each non-ASCII one written as the %HH of its UTF-8
 * bytes.  fu_pct_decode_N(s, n, plus, o, high): decode s[0, n) into o and
 * return the length written; *high gets the OR of every output byte, so
 * (*high & 0x80) == 0 means the result is ASCII. */
#define FU_DEFINE_PCT_CODEC(N, T)                                                                  \
    static inline ptrdiff_t fu_pct_span_##N(const T *s, ptrdiff_t n, const uint8_t *t)             \
    {                                                                                              \
        ptrdiff_t i = 0;                                                                           \
        if (sizeof(T) == 1) /* Latin-1 units index the table as bytes do */                        \
            return fu_pct_span_bytes((const uint8_t *)s, n, t);                                    \
        while (i < n && s[i] < 0x80 && t[s[i]] == FU_PCT_COPY)                                     \
            i++;                                                                                   \
        return i;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline ptrdiff_t fu_pct_encode_len_##N(const T *s, ptrdiff_t n, const uint8_t *t)       \
    {                                                                                              \
        ptrdiff_t i, out = 0;                                                                      \
        for (i = 0; i < n; i++) {                                                                  \
            uint32_t c = s[i];                                                                     \
            if (c < 0x80)                                                                          \
                out += t[c] == FU_PCT_ESCAPE ? 3 : 1;                                              \
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
    static inline uint8_t *fu_pct_encode_##N(const T *s, ptrdiff_t n, const uint8_t *t,            \
                                             uint8_t *o)                                           \
    {                                                                                              \
        ptrdiff_t i;                                                                               \
        for (i = 0; i < n; i++) {                                                                  \
            uint32_t c = s[i];                                                                     \
            if (c < 0x80) {                                                                        \
                switch (t[c]) {                                                                    \
                case FU_PCT_COPY: *o++ = (uint8_t)c; break;                                        \
                case FU_PCT_PLUS: *o++ = '+'; break;                                               \
                default: o = fu_pct_put(o, c);                                                     \
                }                                                                                  \
            } else if (c < 0x800) {                                                                \
                o = fu_pct_put(o, 0xC0 | (c >> 6));                                                \
                o = fu_pct_put(o, 0x80 | (c & 0x3F));                                              \
            } else if (c < 0x10000) {                                                              \
                o = fu_pct_put(o, 0xE0 | (c >> 12));                                               \
                o = fu_pct_put(o, 0x80 | ((c >> 6) & 0x3F));                                       \
                o = fu_pct_put(o, 0x80 | (c & 0x3F));                                              \
            } else {                                                                               \
                o = fu_pct_put(o, 0xF0 | (c >> 18));                                               \
                o = fu_pct_put(o, 0x80 | ((c >> 12) & 0x3F));                                      \
                o = fu_pct_put(o, 0x80 | ((c >> 6) & 0x3F));                                       \
                o = fu_pct_put(o, 0x80 | (c & 0x3F));                                              \
            }                                                                                      \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline ptrdiff_t fu_pct_decode_##N(const T *s, ptrdiff_t n, int plus, uint8_t *o,       \
                                              uint32_t *high)                                      \
    {                                                                                              \
        ptrdiff_t i = 0, k = 0;                                                                    \
        uint32_t h = 0;                                                                            \
        while (i < n) {                                                                            \
            uint32_t c = s[i];                                                                     \
            if (c != '%' && !(c == '+' && plus)) { /* a run to copy */                             \
                i = fu_pct_skip_##N(s, i, n, plus, o, &k, &h);                                     \
                if (i == n)                                                                        \
                    break;                                                                         \
                c = s[i];                                                                          \
            }                                                                                      \
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
    }

FU_DEFINE_PCT_CODEC(1, uint8_t)
FU_DEFINE_PCT_CODEC(2, uint16_t)
FU_DEFINE_PCT_CODEC(4, uint32_t)

#undef FU_DEFINE_PCT_CODEC

/* Number of valid "%hh" triplets in the bytes s[0, n): a decoding of them
 * (plus mode off) is n - 2 * count bytes long. */
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

#endif /* FASTURI_CODEC_H */
