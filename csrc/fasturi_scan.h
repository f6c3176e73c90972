/* fasturi_scan.h: component offsets of a URI reference.
 *
 * fu_split_N() is RFC 3986 Appendix B's regular expression
 *     ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
 * as a single forward scan; fu_authority_N() splits an authority into
 * userinfo, host and port the way docs/ARCHITECTURE.md fixes.  N is the
 * code-unit width of the text (1, 2 or 4 bytes: a Python str's kind).
 *
 * Expects a pointer and a length; reads only [0, len) and never relies on
 * NUL termination (URIs may contain NUL).  Offsets are code-unit indexes;
 * -1 marks an undefined component.
 */
#ifndef FASTURI_SCAN_H
#define FASTURI_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

/* fu_stop_N(s, i, n, a, b, c, d): index of the first of the four code
 * units a..d in s[i, n), or n.  Pass one twice to look for fewer.  With
 * SSE2 bytes are looked at 16 at a time (the last partial block as the
 * overlapping last 16): the path and the query are most of a URI. */
#if FU_SSE2
static inline ptrdiff_t fu_stop_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, uint8_t a, uint8_t b,
                                  uint8_t c, uint8_t d)
{
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    const __m128i vc = _mm_set1_epi8((char)c), vd = _mm_set1_epi8((char)d);
    unsigned bits;
    __m128i x, m;
    for (; i + 16 <= n; i += 16) {
        x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                         _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
        bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return i + (ptrdiff_t)fu_ctz(bits);
    }
    if (i < n && n >= 16) {
        x = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
        m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                         _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
        bits = (unsigned)_mm_movemask_epi8(m) >> (i - (n - 16));
        return bits ? i + (ptrdiff_t)fu_ctz(bits) : n;
    }
    while (i < n && s[i] != a && s[i] != b && s[i] != c && s[i] != d)
        i++;
    return i;
}
#endif

#define FU_DEFINE_STOP(N, T)                                                                       \
    static inline ptrdiff_t fu_stop_##N(const T *s, ptrdiff_t i, ptrdiff_t n, T a, T b, T c, T d)  \
    {                                                                                              \
        while (i < n && s[i] != a && s[i] != b && s[i] != c && s[i] != d)                          \
            i++;                                                                                   \
        return i;                                                                                  \
    }
#if !FU_SSE2
FU_DEFINE_STOP(1, uint8_t)
#endif
FU_DEFINE_STOP(2, uint16_t)
FU_DEFINE_STOP(4, uint32_t)
#undef FU_DEFINE_STOP

/* fu_last_N(s, a, b, c): index of the last code unit c in s[a, b), or -1;
 * s is the text's start, so s[0, b) may be read.  With SSE2, 16 bytes at a
 * time from the end, a last partial block read as the 16 bytes ending at b
 * (or starting at a) with the bits outside [a, b) dropped: an authority's
 * '@' and ':' sit near its end, and most authorities are short. */
#if FU_SSE2
static inline unsigned fu_eq16(const uint8_t *s, uint8_t c)
{
    return (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)s), _mm_set1_epi8((char)c)));
}

static inline ptrdiff_t fu_last_1(const uint8_t *s, ptrdiff_t a, ptrdiff_t b, uint8_t c)
{
    const ptrdiff_t end = b;
    unsigned bits;
    for (; b - a >= 16; b -= 16)
        if ((bits = fu_eq16(s + b - 16, c)) != 0)
            return b - 16 + (ptrdiff_t)fu_top(bits);
    if (b > a && b >= 16) { /* bit j is s[b - 16 + j]: those below a go */
        bits = fu_eq16(s + b - 16, c) & (~0u << (a - (b - 16)));
        return bits ? b - 16 + (ptrdiff_t)fu_top(bits) : -1;
    }
    if (b > a && end - a >= 16) { /* bit j is s[a + j]: those from b go */
        bits = fu_eq16(s + a, c) & ((1u << (b - a)) - 1u);
        return bits ? a + (ptrdiff_t)fu_top(bits) : -1;
    }
    while (b > a)
        if (s[--b] == c)
            return b;
    return -1;
}
#endif

/* fu_has_upper_N(s, a, b): is there an ASCII capital letter in s[a, b)?
 * (s[0, b) may be read.)  With SSE2, 16 bytes at a time, as fu_last_1. */
#if FU_SSE2
static inline unsigned fu_upper16(const uint8_t *s)
{
    return (unsigned)_mm_movemask_epi8(
        fu_capitals16(_mm_loadu_si128((const __m128i *)(const void *)s)));
}

static inline int fu_has_upper_1(const uint8_t *s, ptrdiff_t a, ptrdiff_t b)
{
    for (; b - a >= 16; b -= 16)
        if (fu_upper16(s + b - 16))
            return 1;
    if (b > a && b >= 16)
        return (fu_upper16(s + b - 16) & (~0u << (a - (b - 16)))) != 0;
    for (; a < b; a++)
        if ((uint32_t)s[a] - 'A' < 26u)
            return 1;
    return 0;
}
#endif

#define FU_DEFINE_LAST(N, T)                                                                       \
    static inline ptrdiff_t fu_last_##N(const T *s, ptrdiff_t a, ptrdiff_t b, T c)                 \
    {                                                                                              \
        while (b > a)                                                                              \
            if (s[--b] == c)                                                                       \
                return b;                                                                          \
        return -1;                                                                                 \
    }                                                                                              \
                                                                                                   \
    static inline int fu_has_upper_##N(const T *s, ptrdiff_t a, ptrdiff_t b)                       \
    {                                                                                              \
        for (; a < b; a++)                                                                         \
            if ((uint32_t)s[a] - 'A' < 26u)                                                        \
                return 1;                                                                          \
        return 0;                                                                                  \
    }
#if !FU_SSE2
FU_DEFINE_LAST(1, uint8_t)
#endif
FU_DEFINE_LAST(2, uint16_t)
FU_DEFINE_LAST(4, uint32_t)
#undef FU_DEFINE_LAST

typedef struct {
    ptrdiff_t scheme_end; /* scheme = [0, scheme_end) or -1 */
    ptrdiff_t auth_start; /* authority = [auth_start, auth_end) or -1 */
    ptrdiff_t auth_end;
    ptrdiff_t path_start; /* path = [path_start, path_end), always defined */
    ptrdiff_t path_end;
    ptrdiff_t query_start; /* query = [query_start, query_end) or -1 */
    ptrdiff_t query_end;
    ptrdiff_t frag_start; /* fragment = [frag_start, len) or -1 */
} fu_split_t;

typedef struct {
    ptrdiff_t userinfo_end; /* userinfo = [start, userinfo_end) or -1 */
    ptrdiff_t host_start;   /* host = [host_start, host_end), always defined */
    ptrdiff_t host_end;
    ptrdiff_t port_start; /* port = [port_start, end) or -1 */
} fu_authority_t;

#define FU_DEFINE_SCAN(N, T)                                                                       \
    static inline void fu_split_##N(const T *s, ptrdiff_t len, fu_split_t *o)                      \
    {                                                                                              \
        ptrdiff_t i = 0, pos = 0;                                                                  \
        o->scheme_end = o->auth_start = o->auth_end = -1;                                          \
        o->query_start = o->query_end = o->frag_start = -1;                                        \
        /* scheme: a non-empty run free of / ? # ending at the first ':' */                        \
        i = fu_stop_##N(s, 0, len, ':', '/', '?', '#');                                            \
        if (i > 0 && i < len && s[i] == ':') {                                                     \
            o->scheme_end = i;                                                                     \
            pos = i + 1;                                                                           \
        }                                                                                          \
        /* authority: "//" then everything up to / ? # */                                          \
        if (len - pos >= 2 && s[pos] == '/' && s[pos + 1] == '/') {                                \
            i = pos + 2;                                                                           \
            o->auth_start = i;                                                                     \
            i = fu_stop_##N(s, i, len, '/', '?', '#', '#');                                        \
            o->auth_end = i;                                                                       \
            pos = i;                                                                               \
        }                                                                                          \
        /* path: up to ? # */                                                                      \
        i = pos;                                                                                   \
        i = fu_stop_##N(s, i, len, '?', '#', '#', '#');                                            \
        o->path_start = pos;                                                                       \
        o->path_end = i;                                                                           \
        if (i < len && s[i] == '?') {                                                              \
            o->query_start = ++i;                                                                  \
            i = fu_stop_##N(s, i, len, '#', '#', '#', '#');                                        \
            o->query_end = i;                                                                      \
        }                                                                                          \
        if (i < len) /* s[i] == '#' */                                                             \
            o->frag_start = i + 1;                                                                 \
    }

#define FU_DEFINE_AUTHORITY(N, T)                                                                  \
    static inline void fu_authority_##N(const T *s, ptrdiff_t start, ptrdiff_t end,                \
                                        fu_authority_t *o)                                         \
    {                                                                                              \
        ptrdiff_t i, h;                                                                            \
        o->userinfo_end = -1;                                                                      \
        o->port_start = -1;                                                                        \
        /* userinfo: everything before the last '@' */                                             \
        o->userinfo_end = fu_last_##N(s, start, end, '@');                                         \
        h = o->userinfo_end >= 0 ? o->userinfo_end + 1 : start;                                    \
        o->host_start = h;                                                                         \
        o->host_end = end;                                                                         \
        if (h < end && s[h] == '[') {                                                              \
            /* IP-literal: host runs to the first ']'; a port needs ':' right */                   \
            /* after it, anything else after ']' stays in the host */                              \
            for (i = h + 1; i < end && s[i] != ']'; i++)                                           \
                ;                                                                                  \
            if (i < end && i + 1 < end && s[i + 1] == ':') {                                       \
                o->host_end = i + 1;                                                               \
                o->port_start = i + 2;                                                             \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        i = fu_last_##N(s, h, end, ':');                                                           \
        if (i >= 0) {                                                                              \
            o->host_end = i;                                                                       \
            o->port_start = i + 1;                                                                 \
        }                                                                                          \
    }

#if !FU_SSE2
FU_DEFINE_SCAN(1, uint8_t)
#endif
FU_DEFINE_SCAN(2, uint16_t)
FU_DEFINE_SCAN(4, uint32_t)
FU_DEFINE_AUTHORITY(1, uint8_t)
FU_DEFINE_AUTHORITY(2, uint16_t)
FU_DEFINE_AUTHORITY(4, uint32_t)

#undef FU_DEFINE_SCAN
#undef FU_DEFINE_AUTHORITY

/* With SSE2, fu_split_1 reads each byte once: a 16-byte block at a time, the
 * bytes that end the component being scanned found as one bit mask, the
 * block kept while the scan moves on to the next component (which stops at
 * fewer bytes).  Four separate scans read the start of each component
 * twice and paid a call and a mispredicted exit for each.
 * fu_split_ascii_1 also says whether every byte is below 0x80: the column
 * kernels' UTF-8 check, on the same loads. */
#if FU_SSE2
enum { FU_AT_SCHEME, FU_AT_AUTHORITY, FU_AT_PATH, FU_AT_QUERY };

/* Bit j: block byte j ends the component scanned `at` (a constant once
 * inlined, so only its own compares are made). */
static inline unsigned fu_stops16(__m128i x, int at)
{
    __m128i m = _mm_cmpeq_epi8(x, _mm_set1_epi8('#'));
    if (at <= FU_AT_PATH)
        m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('?')));
    if (at <= FU_AT_AUTHORITY)
        m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('/')));
    if (at == FU_AT_SCHEME)
        m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(':')));
    return (unsigned)_mm_movemask_epi8(m);
}

/* The block at b of the text s[0, len), 0 <= b < len: never a byte past the
 * text.  The last block is the text's last 16 bytes, *skip of them before b;
 * a text of fewer than 16 bytes is copied to `tail`, whose zeros stop
 * nothing. */
static inline __m128i fu_block16(const uint8_t *s, ptrdiff_t len, ptrdiff_t b, unsigned *skip,
                                 uint8_t *tail)
{
    if (len - b >= 16)
        return _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    if (len >= 16) {
        *skip = (unsigned)(b - (len - 16));
        return _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
    }
    memset(tail, 0, 16);
    memcpy(tail, s, (size_t)len);
    return _mm_loadu_si128((const __m128i *)(const void *)tail);
}

/* i = the first index >= i ending component AT, or len; i - b <= 18 (a
 * scheme's ':' ends a block and "//" follows it). */
#define FU_BLOCK_STOP(AT)                                                                          \
    for (;;) {                                                                                     \
        bits = (fu_stops16(x, AT) >> skip) & (i > b ? ~0u << (i - b) : ~0u);                       \
        if (bits) {                                                                                \
            i = b + (ptrdiff_t)fu_ctz(bits);                                                       \
            break;                                                                                 \
        }                                                                                          \
        if (b + 16 >= len) {                                                                       \
            i = len;                                                                               \
            break;                                                                                 \
        }                                                                                          \
        b += 16;                                                                                   \
        x = fu_block16(s, len, b, &skip, tail);                                                    \
        high |= (unsigned)_mm_movemask_epi8(x);                                                    \
    }

/* head: the scheme and the authority alone (the path, query and fragment
 * are left as they start: the whole text a path, no query, no fragment);
 * a constant once inlined. */
static FU_ALWAYS_INLINE int fu_split_scan_1(const uint8_t *s, ptrdiff_t len, fu_split_t *o,
                                            int ascii, int head)
{
    uint8_t tail[16];
    ptrdiff_t i = 0, b = 0, pos = 0;
    unsigned bits, skip = 0, high;
    __m128i x;
    o->scheme_end = o->auth_start = o->auth_end = -1;
    o->query_start = o->query_end = o->frag_start = -1;
    o->path_start = 0;
    o->path_end = len;
    if (len == 0)
        return 1;
    x = fu_block16(s, len, 0, &skip, tail);
    high = (unsigned)_mm_movemask_epi8(x);
    FU_BLOCK_STOP(FU_AT_SCHEME)
    if (i > 0 && i < len && s[i] == ':') {
        o->scheme_end = i;
        pos = i + 1;
    }
    if (len - pos >= 2 && s[pos] == '/' && s[pos + 1] == '/') {
        o->auth_start = i = pos + 2;
        FU_BLOCK_STOP(FU_AT_AUTHORITY)
        o->auth_end = pos = i;
    }
    if (head)
        goto rest;
    o->path_start = i = pos;
    FU_BLOCK_STOP(FU_AT_PATH)
    o->path_end = i;
    if (i < len && s[i] == '?') {
        o->query_start = ++i;
        FU_BLOCK_STOP(FU_AT_QUERY)
        o->query_end = i;
    }
    if (i < len)
        o->frag_start = i + 1;
rest:
    if (!ascii)
        return 1;
    while (b + 16 < len) {
        b += 16;
        high |= (unsigned)_mm_movemask_epi8(fu_block16(s, len, b, &skip, tail));
    }
    return high == 0;
}

#undef FU_BLOCK_STOP

static inline void fu_split_1(const uint8_t *s, ptrdiff_t len, fu_split_t *o)
{
    fu_split_scan_1(s, len, o, 0, 0);
}

static FU_ALWAYS_INLINE int fu_split_ascii_1(const uint8_t *s, ptrdiff_t len, fu_split_t *o)
{
    return fu_split_scan_1(s, len, o, 1, 0);
}

/* The scheme and authority alone (what their components need), and
 * whether the whole text is ASCII. */
static FU_ALWAYS_INLINE int fu_split_head_ascii_1(const uint8_t *s, ptrdiff_t len, fu_split_t *o)
{
    return fu_split_scan_1(s, len, o, 1, 1);
}
#else
static inline int fu_split_ascii_1(const uint8_t *s, ptrdiff_t len, fu_split_t *o)
{
    ptrdiff_t i;
    fu_split_1(s, len, o);
    for (i = 0; i < len; i++)
        if (s[i] >= 0x80)
            return 0;
    return 1;
}

static inline int fu_split_head_ascii_1(const uint8_t *s, ptrdiff_t len, fu_split_t *o)
{
    return fu_split_ascii_1(s, len, o);
}
#endif

/* A column row's split, with its authority's parts when `authority` (else
 * a is zeroed), and whether the row is ASCII.  Inlined where it is called:
 * out of line, its results went through memory on every row. */
static FU_ALWAYS_INLINE int fu_split_row_1(const uint8_t *s, ptrdiff_t len, int authority,
                                           fu_split_t *o, fu_authority_t *a)
{
    int ascii = fu_split_ascii_1(s, len, o);
    memset(a, 0, sizeof(*a));
    if (authority && o->auth_start >= 0)
        fu_authority_1(s, o->auth_start, o->auth_end, a);
    return ascii;
}

/* The components, in the order of fasturi.arrow.FIELDS. */
enum {
    FU_F_SCHEME,
    FU_F_AUTHORITY,
    FU_F_USERINFO,
    FU_F_HOST,
    FU_F_PORT,
    FU_F_PATH,
    FU_F_QUERY,
    FU_F_FRAGMENT,
    FU_F_COUNT
};

/* Every component's [lo[f], hi[f]) in a row of n bytes split into s and a
 * (fu_split_row_1; the authority's parts only when `authority`, else they
 * are undefined); lo[f] is -1 where the component is undefined (a null).
 * All at once, with no branch on which is wanted: a switch on the field
 * took a mispredicted jump a field a row. */
static FU_ALWAYS_INLINE void fu_split_ranges(ptrdiff_t n, const fu_split_t *s,
                                             const fu_authority_t *a, int authority, ptrdiff_t *lo,
                                             ptrdiff_t *hi)
{
    int has = authority && s->auth_start >= 0;
    lo[FU_F_SCHEME] = s->scheme_end >= 0 ? 0 : -1;
    hi[FU_F_SCHEME] = s->scheme_end;
    lo[FU_F_AUTHORITY] = s->auth_start;
    hi[FU_F_AUTHORITY] = s->auth_end;
    lo[FU_F_PATH] = s->path_start;
    hi[FU_F_PATH] = s->path_end;
    lo[FU_F_QUERY] = s->query_start;
    hi[FU_F_QUERY] = s->query_end;
    lo[FU_F_FRAGMENT] = s->frag_start;
    hi[FU_F_FRAGMENT] = n;
    lo[FU_F_HOST] = has ? a->host_start : -1;
    hi[FU_F_HOST] = a->host_end;
    lo[FU_F_USERINFO] = has && a->userinfo_end >= 0 ? s->auth_start : -1;
    hi[FU_F_USERINFO] = a->userinfo_end;
    lo[FU_F_PORT] = has ? a->port_start : -1;
    hi[FU_F_PORT] = s->auth_end;
}

#endif /* FASTURI_SCAN_H */
