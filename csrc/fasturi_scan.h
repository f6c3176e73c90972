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
    const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('A' - 1)),
                                                     _mm_cmplt_epi8(x, _mm_set1_epi8('Z' + 1))));
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
    }                                                                                              \
                                                                                                   \
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

FU_DEFINE_SCAN(1, uint8_t)
FU_DEFINE_SCAN(2, uint16_t)
FU_DEFINE_SCAN(4, uint32_t)

#undef FU_DEFINE_SCAN

#endif /* FASTURI_SCAN_H */
