/* fasturi_parse.h: the splitting scans of urllib.parse, as offsets.
 *
 * fu_usplit_N() finds what the stdlib's urlsplit() cuts out of a URL: the
 * scheme (a run of scheme_chars ended by the first ':'), the netloc after
 * "//" (up to the first of / ? #), the fragment after the first '#' (when
 * fragments are allowed) and the query after the first '?' before it.  It
 * does not decide anything the stdlib decides with Python objects: inputs
 * the stdlib rewrites first (leading C0 control or space, tab/CR/LF
 * anywhere) are only flagged FU_US_SLOW, and brackets or non-ASCII text in
 * the netloc are flagged for the caller's checks.
 *
 * fu_params_N() is urlparse()'s _splitparams(): the ';' that starts the
 * params of the last path segment.  fu_count_N() counts one code unit.
 *
 * N is the code-unit width of the text (1, 2 or 4 bytes: a Python str's
 * kind, or 1 for bytes).  Expects a pointer and a length; reads only
 * [0, len) and never relies on NUL termination (URLs may contain NUL).
 * Offsets are code-unit indexes; -1 marks an undefined component.
 */
#ifndef FASTURI_PARSE_H
#define FASTURI_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

typedef struct {
    ptrdiff_t scheme_end;   /* scheme = [0, scheme_end) or -1 */
    ptrdiff_t netloc_start; /* netloc = [netloc_start, netloc_end) or -1 */
    ptrdiff_t netloc_end;
    ptrdiff_t path_start; /* path = [path_start, path_end), always defined */
    ptrdiff_t path_end;
    ptrdiff_t query_start; /* query = [query_start, query_end) or -1 */
    ptrdiff_t query_end;
    ptrdiff_t frag_start; /* fragment = [frag_start, len) or -1 */
    int flags;            /* FU_US_* */
} fu_usplit_t;

#define FU_US_SLOW 1          /* the stdlib rewrites this input first */
#define FU_US_OPEN_BR 2       /* '[' in the netloc */
#define FU_US_CLOSE_BR 4      /* ']' in the netloc */
#define FU_US_NETLOC_WIDE 8   /* a code unit >= 0x80 in the netloc */
#define FU_US_WIDE 16         /* a code unit >= 0x80 anywhere */
#define FU_US_SCHEME_UPPER 32 /* the scheme has A-Z (urlsplit lowers it) */
#define FU_US_SEMICOLON 64    /* ';' in the path */

/* What the scans stop at, one bit per question; indexed by code unit
 * (units >= 0x100 are FU_UP_WIDE, see FU_UP_CLASS). */
#define FU_UP_TCRLF 1    /* tab, LF, CR: removed by the stdlib first */
#define FU_UP_QUERY 2    /* '?' */
#define FU_UP_FRAG 4     /* '#' */
#define FU_UP_SEMI 8     /* ';' */
#define FU_UP_SLASH 16   /* '/' */
#define FU_UP_BRACKET 32 /* '[' or ']' */
#define FU_UP_WIDE 64    /* >= 0x80 */

#define FU_UP_W FU_UP_WIDE
#define FU_UP_W8 FU_UP_W, FU_UP_W, FU_UP_W, FU_UP_W, FU_UP_W, FU_UP_W, FU_UP_W, FU_UP_W
#define FU_UP_W64 FU_UP_W8, FU_UP_W8, FU_UP_W8, FU_UP_W8, FU_UP_W8, FU_UP_W8, FU_UP_W8, FU_UP_W8

/* clang-format off */
static const uint8_t fu_up_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, FU_UP_TCRLF, FU_UP_TCRLF, 0, 0, FU_UP_TCRLF, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* space ! " # $ % & ' ( ) * + , - . / */
    0, 0, 0, FU_UP_FRAG, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, FU_UP_SLASH,
    /* 0-9 : ; < = > ? */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, FU_UP_SEMI, 0, 0, 0, FU_UP_QUERY,
    /* @ A-O */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* P-Z [ \ ] ^ _ */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, FU_UP_BRACKET, 0, FU_UP_BRACKET, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    FU_UP_W64, FU_UP_W64,
};
/* clang-format on */

#undef FU_UP_W64
#undef FU_UP_W8
#undef FU_UP_W

/* The class of any code unit; for 1-byte units the test folds away. */
#define FU_UP_CLASS(c) ((c) < 0x100 ? fu_up_class[(uint8_t)(c)] : FU_UP_WIDE)

/* What ends the netloc, or needs a look inside it. */
#define FU_UP_IN_NETLOC                                                                            \
    (FU_UP_TCRLF | FU_UP_QUERY | FU_UP_FRAG | FU_UP_SLASH | FU_UP_BRACKET | FU_UP_WIDE)
/* What the path/query/fragment scan needs to see. */
#define FU_UP_IN_REST (FU_UP_TCRLF | FU_UP_QUERY | FU_UP_FRAG | FU_UP_SEMI | FU_UP_WIDE)

/* fu_next_N(s, i, len, mask): the first index >= i whose code unit's class
 * meets mask, or len. */
#define FU_DEFINE_NEXT(N, T)                                                                       \
    static inline ptrdiff_t fu_next_##N(const T *s, ptrdiff_t i, ptrdiff_t len, unsigned mask)     \
    {                                                                                              \
        while (i < len && !(FU_UP_CLASS(s[i]) & mask))                                             \
            i++;                                                                                   \
        return i;                                                                                  \
    }
FU_DEFINE_NEXT(2, uint16_t)
FU_DEFINE_NEXT(4, uint32_t)

/* Bytes go sixteen at a time where SSE2 is (every x86-64): a block is read
 * byte by byte only where it may hold a byte of the set.  A signed compare
 * with 0x0E flags both the controls below it (tab, LF, CR are the classed
 * ones) and every byte >= 0x80 at once. */
#if FU_SSE2

static inline ptrdiff_t fu_next_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t len, unsigned mask)
{
    const __m128i low = _mm_set1_epi8(0x0E);
    __m128i v, m;
    unsigned bits;
    int k;
    while (len - i >= 16) {
        v = _mm_loadu_si128((const __m128i *)(s + i));
        m = _mm_or_si128(_mm_cmplt_epi8(v, low),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))));
        if (mask & FU_UP_SEMI)
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
        if (mask & FU_UP_SLASH)
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
        if (mask & FU_UP_BRACKET)
            m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('[')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8(']'))));
        for (bits = (unsigned)_mm_movemask_epi8(m); bits; bits &= bits - 1) {
            k = (int)fu_ctz(bits);
            if (fu_up_class[s[i + k]] & mask)
                return i + k;
        }
        i += 16;
    }
    while (i < len && !(fu_up_class[s[i]] & mask))
        i++;
    return i;
}
#else
FU_DEFINE_NEXT(1, uint8_t)
#endif

#undef FU_DEFINE_NEXT

#define FU_DEFINE_USPLIT(N, T)                                                                     \
    static inline void fu_usplit_##N(const T *s, ptrdiff_t len, int alpha_first, int allow_frag,   \
                                     fu_usplit_t *o)                                               \
    {                                                                                              \
        ptrdiff_t i = 0, pos = 0, end;                                                             \
        int flags = 0;                                                                             \
        unsigned cls;                                                                              \
        o->scheme_end = o->netloc_start = o->netloc_end = -1;                                      \
        o->query_start = o->query_end = o->frag_start = -1;                                        \
        o->path_start = o->path_end = 0;                                                           \
        /* the stdlib lstrips C0 control and space first */                                        \
        if (len > 0 && s[0] <= 0x20) {                                                             \
            o->flags = FU_US_SLOW;                                                                 \
            return;                                                                                \
        }                                                                                          \
        /* scheme: url.find(':') with only scheme_chars before it, so the run */                   \
        /* of scheme_chars from the start must end exactly at a ':' */                             \
        while (i < len && s[i] < 0x80 && FU_IS(s[i], FU_SCHEME)) {                                 \
            if (s[i] >= 'A' && s[i] <= 'Z')                                                        \
                flags |= FU_US_SCHEME_UPPER;                                                       \
            i++;                                                                                   \
        }                                                                                          \
        if (i > 0 && i < len && s[i] == ':' && (!alpha_first || FU_IS(s[0], FU_ALPHA))) {          \
            o->scheme_end = i;                                                                     \
            pos = i + 1;                                                                           \
        } else {                                                                                   \
            flags &= ~FU_US_SCHEME_UPPER;                                                          \
        }                                                                                          \
        /* netloc: "//" then up to the first of / ? # (fragments or not) */                        \
        if (len - pos >= 2 && s[pos] == '/' && s[pos + 1] == '/') {                                \
            i = pos + 2;                                                                           \
            o->netloc_start = i;                                                                   \
            for (;;) {                                                                             \
                i = fu_next_##N(s, i, len, FU_UP_IN_NETLOC);                                       \
                if (i >= len)                                                                      \
                    break;                                                                         \
                cls = FU_UP_CLASS(s[i]);                                                           \
                if (cls & (FU_UP_SLASH | FU_UP_QUERY | FU_UP_FRAG))                                \
                    break;                                                                         \
                if (cls & FU_UP_TCRLF) {                                                           \
                    o->flags = FU_US_SLOW;                                                         \
                    return;                                                                        \
                }                                                                                  \
                if (cls & FU_UP_WIDE)                                                              \
                    flags |= FU_US_NETLOC_WIDE | FU_US_WIDE;                                       \
                else if (s[i] == '[')                                                              \
                    flags |= FU_US_OPEN_BR;                                                        \
                else                                                                               \
                    flags |= FU_US_CLOSE_BR;                                                       \
                i++;                                                                               \
            }                                                                                      \
            o->netloc_end = i;                                                                     \
            pos = i;                                                                               \
        }                                                                                          \
        /* the rest: first '#' (when allowed), first '?' before it */                              \
        o->path_start = pos;                                                                       \
        end = len;                                                                                 \
        for (i = pos;; i++) {                                                                      \
            i = fu_next_##N(s, i, len, FU_UP_IN_REST);                                             \
            if (i >= len)                                                                          \
                break;                                                                             \
            cls = FU_UP_CLASS(s[i]);                                                               \
            if (cls & FU_UP_TCRLF) {                                                               \
                o->flags = FU_US_SLOW;                                                             \
                return;                                                                            \
            }                                                                                      \
            if (cls & FU_UP_WIDE) {                                                                \
                flags |= FU_US_WIDE;                                                               \
            } else if (o->frag_start < 0) {                                                        \
                if (cls & FU_UP_FRAG) {                                                            \
                    if (allow_frag) {                                                              \
                        o->frag_start = i + 1;                                                     \
                        end = i;                                                                   \
                    }                                                                              \
                } else if (o->query_start < 0) {                                                   \
                    if (cls & FU_UP_QUERY)                                                         \
                        o->query_start = i + 1;                                                    \
                    else                                                                           \
                        flags |= FU_US_SEMICOLON;                                                  \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        if (o->query_start >= 0) {                                                                 \
            o->path_end = o->query_start - 1;                                                      \
            o->query_end = end;                                                                    \
        } else {                                                                                   \
            o->path_end = end;                                                                     \
        }                                                                                          \
        o->flags = flags;                                                                          \
    }                                                                                              \
                                                                                                   \
    /* _splitparams(path): index of the ';' that starts params, or -1.  Only */                    \
    /* the last segment can have params when the path has a '/'. */                                \
    static inline ptrdiff_t fu_params_##N(const T *s, ptrdiff_t start, ptrdiff_t end)              \
    {                                                                                              \
        ptrdiff_t i;                                                                               \
        for (i = end - 1; i >= start; i--)                                                         \
            if (s[i] == '/')                                                                       \
                break;                                                                             \
        if (i < start)                                                                             \
            i = start;                                                                             \
        for (; i < end; i++)                                                                       \
            if (s[i] == ';')                                                                       \
                return i;                                                                          \
        return -1;                                                                                 \
    }                                                                                              \
                                                                                                   \
    static inline ptrdiff_t fu_count_##N(const T *s, ptrdiff_t start, ptrdiff_t end,               \
                                         uint32_t unit)                                            \
    {                                                                                              \
        ptrdiff_t i, k = 0;                                                                        \
        for (i = start; i < end; i++)                                                              \
            k += (s[i] == unit);                                                                   \
        return k;                                                                                  \
    }

FU_DEFINE_USPLIT(1, uint8_t)
FU_DEFINE_USPLIT(2, uint16_t)
FU_DEFINE_USPLIT(4, uint32_t)

#undef FU_DEFINE_USPLIT

#endif /* FASTURI_PARSE_H */
