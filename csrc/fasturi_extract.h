/* fasturi_extract.h: finds URIs in running text (RFC 3986 Appendix C,
 * RFC 2396 Appendix E and F), exactly as src/fasturi/_extract_py.py's
 * docstring defines them.
 *
 * fu_extract_next_N() finds the next URI after st->pos, fills *m and
 * returns 1, or returns 0 at the end of the text.  N is the code-unit width
 * of the text (1, 2 or 4 bytes: a Python str's kind); the scanners are
 * written once below, in FU_DEFINE_EXTRACT, and stamped out for each width
 * (see fasturi_base.h).
 *
 * Expects a pointer and a length; reads only [0, len) and never relies on
 * NUL termination.  Every code unit is examined a bounded number of times
 * over all calls on one text, so a whole extraction is linear.
 */
#ifndef FASTURI_EXTRACT_H
#define FASTURI_EXTRACT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

/* What the caller builds from a match's span [start, end). */
#define FU_EXT_BARE 0    /* the span as it is */
#define FU_EXT_WRAPPED 1 /* the span less its ASCII whitespace (<...>) */
#define FU_EXT_WWW 2     /* "http://" + the span (Appendix F) */
#define FU_EXT_FTP 3     /* "ftp://" + the span (Appendix F) */

typedef struct {
    ptrdiff_t pos;   /* where the next scan starts; 0 at first */
    ptrdiff_t floor; /* end of the last URI found: URIs never overlap */
    int abbreviated; /* also find RFC 2396 Appendix F forms */
} fu_ext_state_t;

typedef struct {
    ptrdiff_t start, end;
    int kind; /* FU_EXT_* */
} fu_ext_match_t;

/* Where a URI can be recognised: a scheme's ':' and Appendix C's '<' (bit
 * 1); the first letter of Appendix F's "www." / "ftp." (bit 2). */
static const uint8_t fu_ext_trigger[256] = {
    [':'] = 1, ['<'] = 1, ['W'] = 2, ['w'] = 2, ['F'] = 2, ['f'] = 2,
};

/* unreserved / gen-delims / sub-delims, and '%' of pct-encoded (RFC 3986 §2) */
#define FU_EXT_BODY_MASK (FU_UNRESERVED | FU_GEN_DELIM | FU_SUB_DELIM)

/* Non-ASCII characters that delimit text although RFC 3987 allows them:
 * Unicode spaces, General Punctuation (less the hyphens and en dash of
 * names), CJK and fullwidth punctuation. */
static inline int fu_ext_text_delimiter(uint32_t c)
{
    if (c < 0x2000)
        return c == 0x00A0 || c == 0x00AB || c == 0x00BB || c == 0x1680;
    if (c <= 0x206F)
        return c < 0x2010 || c > 0x2013;
    if (c >= 0x3000 && c <= 0x301F)
        return c <= 0x3003 || (c >= 0x3008 && c <= 0x3011) || c >= 0x3014;
    if (c == 0xFEFF)
        return 1;
    if (c >= 0xFF01 && c <= 0xFF64)
        return c == 0xFF01 || c == 0xFF08 || c == 0xFF09 || c == 0xFF0C || c == 0xFF1A
               || c == 0xFF1B || c == 0xFF1F || c == 0xFF3B || c == 0xFF3D || c == 0xFF5B
               || c == 0xFF5D || c >= 0xFF5F;
    return 0;
}

/* A non-ASCII body character: RFC 3987 ucschar / iprivate, less the text
 * delimiters.  Lone surrogates and noncharacters are neither. */
static inline int fu_ext_nonascii_body(uint32_t c)
{
    if (c < 0xA0)
        return 0;
    if (c <= 0xFFFF) {
        if ((c >= 0xD800 && c <= 0xDFFF) || (c >= 0xFDD0 && c <= 0xFDEF) || c >= 0xFFF0)
            return 0;
        return !fu_ext_text_delimiter(c);
    }
    if ((c & 0xFFFE) == 0xFFFE || (c >= 0xE0000 && c <= 0xE0FFF))
        return 0;
    return c <= 0x10FFFD;
}

static inline int fu_ext_body(uint32_t c)
{
    if (c < 0x80)
        return FU_IS(c, FU_EXT_BODY_MASK) || c == '%';
    return fu_ext_nonascii_body(c);
}

/* Appendix C: "spaces, line-breaks, tabs, etc." */
static inline int fu_ext_space(uint32_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* A host-name label character of an abbreviated URL. */
static inline int fu_ext_label(uint32_t c)
{
    if (c < 0x80)
        return FU_IS(c, FU_ALPHA | FU_DIGIT) || c == '-';
    return fu_ext_nonascii_body(c);
}

/* Sentence punctuation that follows a URI in prose rather than ending it. */
static inline int fu_ext_trim_char(uint32_t c)
{
    return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\'';
}

/* Schemes that count without "//": the list of _extract_py.OPAQUE_SCHEMES.
 * lower holds len lowercase characters. */
static inline int fu_ext_opaque_scheme(const char *lower, ptrdiff_t len)
{
#define FU_EXT_IS(name)                                                                            \
    (len == (ptrdiff_t)sizeof(name) - 1 && memcmp(lower, name, sizeof(name) - 1) == 0)
    switch (lower[0]) {
    case 'a': return FU_EXT_IS("about");
    case 'b': return FU_EXT_IS("bitcoin");
    case 'c': return FU_EXT_IS("cid");
    case 'd': return FU_EXT_IS("data");
    case 'f': return FU_EXT_IS("fax") || FU_EXT_IS("file");
    case 'g': return FU_EXT_IS("geo");
    case 'i': return FU_EXT_IS("info");
    case 'm': return FU_EXT_IS("magnet") || FU_EXT_IS("mailto") || FU_EXT_IS("mid");
    case 'n': return FU_EXT_IS("news");
    case 's': return FU_EXT_IS("sip") || FU_EXT_IS("sips") || FU_EXT_IS("sms");
    case 't': return FU_EXT_IS("tag") || FU_EXT_IS("tel");
    case 'u': return FU_EXT_IS("urn");
    case 'x': return FU_EXT_IS("xmpp");
    default: return 0;
    }
#undef FU_EXT_IS
}

/* SSE2 (every x86-64) looks at 16 code units at a time; elsewhere the
 * same scans run one code unit at a time (the vector loops below are
 * `while (FU_SSE2 && ...)`, which the compiler drops when FU_SSE2 is 0).
 *
 * fu_ext_load16_N(p): 16 code units from p as 16 byte lanes.  An ASCII unit
 * keeps its value; any other unit becomes a byte of 0x80 or more, or 0
 * (the saturating packs), which no vector test below takes for ASCII: such
 * units are always decided one at a time. */
#if FU_SSE2
#define FU_EXT_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

static inline __m128i fu_ext_load16_1(const uint8_t *p) { return FU_EXT_LOADU(p); }

static inline __m128i fu_ext_load16_2(const uint16_t *p)
{
    return _mm_packus_epi16(FU_EXT_LOADU(p), FU_EXT_LOADU(p + 8));
}

static inline __m128i fu_ext_load16_4(const uint32_t *p)
{
    return _mm_packus_epi16(_mm_packs_epi32(FU_EXT_LOADU(p), FU_EXT_LOADU(p + 4)),
                            _mm_packs_epi32(FU_EXT_LOADU(p + 8), FU_EXT_LOADU(p + 12)));
}

#undef FU_EXT_LOADU

/* Bit k set when lane k of v is not an ASCII body character (or is a '
 * when quote).  Signed lanes: bytes of 0x80 and up read as negative and
 * fail "> 0x20", as does 0, so they stop the fast path. */
static inline unsigned fu_ext_body_stops(__m128i v, int quote)
{
    __m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x20)),
                               _mm_cmplt_epi8(v, _mm_set1_epi8('{')));
    __m128i bad = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('<'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('^')),
                                         _mm_cmpeq_epi8(v, _mm_set1_epi8('`'))));
    if (quote)
        bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
    ok = _mm_or_si128(_mm_andnot_si128(bad, ok), _mm_cmpeq_epi8(v, _mm_set1_epi8('~')));
    return (unsigned)_mm_movemask_epi8(ok) ^ 0xFFFFu;
}

/* Bit k set when lane k of v is a trigger character: ':' or '<', and when
 * abbreviated 'w' or 'f' in either case (only 'W'/'w' OR 0x20 give 'w',
 * so 'f'). */
static inline unsigned fu_ext_triggers(__m128i v, int abbreviated)
{
    __m128i hit =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    if (abbreviated) {
        __m128i low = _mm_or_si128(v, _mm_set1_epi8(0x20));
        hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(low, _mm_set1_epi8('w')),
                                             _mm_cmpeq_epi8(low, _mm_set1_epi8('f'))));
    }
    return (unsigned)_mm_movemask_epi8(hit);
}

#define FU_EXT_VECTOR(N) fu_ext_load16_##N(p)
#else
/* Never called (the loops test FU_SSE2 first); they keep the calls valid. */
#define FU_EXT_VECTOR(N) ((void)p, 0)
#define fu_ext_body_stops(v, quote) ((void)(v), (void)(quote), 0u)
#define fu_ext_triggers(v, abbreviated) ((void)(v), (void)(abbreviated), 0u)
#endif

/* The vector tests above for 16 units of each width. */
#define FU_DEFINE_EXTRACT_VECTOR(N, T)                                                             \
    static inline unsigned fu_ext_body_stops_##N(const T *p, int quote)                            \
    {                                                                                              \
        return fu_ext_body_stops(FU_EXT_VECTOR(N), quote);                                         \
    }                                                                                              \
    static inline unsigned fu_ext_trigger_hits_##N(const T *p, int abbreviated)                    \
    {                                                                                              \
        return fu_ext_triggers(FU_EXT_VECTOR(N), abbreviated);                                     \
    }
FU_DEFINE_EXTRACT_VECTOR(1, uint8_t)
FU_DEFINE_EXTRACT_VECTOR(2, uint16_t)
FU_DEFINE_EXTRACT_VECTOR(4, uint32_t)
#undef FU_DEFINE_EXTRACT_VECTOR
#undef FU_EXT_VECTOR

/* The scanners, for code units of type T. */
#define FU_DEFINE_EXTRACT(N, T)                                                                    \
                                                                                                   \
    /* text[pos:] starts with word (lowercase ASCII), in any ASCII case. */                        \
    static inline int fu_ext_word_##N(const T *s, ptrdiff_t n, ptrdiff_t pos, const char *word)    \
    {                                                                                              \
        ptrdiff_t k;                                                                               \
        for (k = 0; word[k]; k++) {                                                                \
            uint32_t c;                                                                            \
            if (pos + k >= n)                                                                      \
                return 0;                                                                          \
            c = s[pos + k];                                                                        \
            if (c >= 'A' && c <= 'Z')                                                              \
                c += 'a' - 'A';                                                                    \
            if (c != (uint32_t)(unsigned char)word[k])                                             \
                return 0;                                                                          \
        }                                                                                          \
        return 1;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* End of the run of body characters from i (and before a ' if quote). */                      \
    static inline ptrdiff_t fu_ext_body_end_##N(const T *s, ptrdiff_t n, ptrdiff_t i, int quote)   \
    {                                                                                              \
        for (;;) {                                                                                 \
            uint32_t c;                                                                            \
            /* Whole blocks of ASCII body characters; the block's first other */                   \
            /* code unit (non-ASCII included) is decided one at a time below. */                   \
            while (FU_SSE2 && n - i >= 16) {                                                       \
                unsigned stop = fu_ext_body_stops_##N(s + i, quote);                               \
                if (stop) {                                                                        \
                    i += (ptrdiff_t)fu_ctz(stop);                                                  \
                    break;                                                                         \
                }                                                                                  \
                i += 16;                                                                           \
            }                                                                                      \
            if (i >= n)                                                                            \
                return i;                                                                          \
            c = s[i];                                                                              \
            if ((quote && c == '\'') || !fu_ext_body(c))                                           \
                return i;                                                                          \
            i++;                                                                                   \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    /* Could the trigger at i start a URI?  False only where the scanners */                       \
    /* would reject it at once: a '<' before neither a letter nor whitespace */                    \
    /* (an HTML end tag, "<=": Appendix C's "<URL:" and "<scheme:" start with */                   \
    /* a letter), a ':' neither before a '/' nor after a letter (so neither "//" */                \
    /* nor an opaque scheme, which all end in a letter), and a 'w'/'f' after a */                  \
    /* letter or not before 'w'/'t' (no "www."/"ftp."). */                                         \
    static inline int fu_ext_viable_##N(const T *s, ptrdiff_t n, ptrdiff_t i)                      \
    {                                                                                              \
        uint32_t c = s[i], next = i + 1 < n ? s[i + 1] : 0;                                        \
        if (c == '<')                                                                              \
            return ((next | 0x20u) - 'a') < 26u || fu_ext_space(next);                             \
        if (c == ':' && next == '/')                                                               \
            return 1;                                                                              \
        if (i > 0 && ((s[i - 1] | 0x20u) - 'a') < 26u) /* after a letter */                        \
            return c == ':';                                                                       \
        if (c == ':')                                                                              \
            return 0;                                                                              \
        /* c is 'w' or 'f', in either case */                                                      \
        return (next | 0x20u) == ((c | 0x20u) == 'w' ? 'w' : 't');                                 \
    }                                                                                              \
                                                                                                   \
    /* The next trigger at or after i (bit 1 always, bit 2 if abbreviated), */                     \
    /* passing over those fu_ext_viable() rules out.  The vector loop looks for */                 \
    /* the trigger characters only; the context of each hit is checked apart, */                   \
    /* since most blocks of text hold none. */                                                     \
    static inline ptrdiff_t fu_ext_next_trigger_##N(const T *s, ptrdiff_t n, ptrdiff_t i,          \
                                                    int abbreviated)                               \
    {                                                                                              \
        const uint8_t mask = abbreviated ? 3 : 1;                                                  \
        while (FU_SSE2 && n - i >= 16) {                                                           \
            unsigned bits = fu_ext_trigger_hits_##N(s + i, abbreviated);                           \
            while (bits) {                                                                         \
                ptrdiff_t j = i + (ptrdiff_t)fu_ctz(bits);                                         \
                if (fu_ext_viable_##N(s, n, j))                                                    \
                    return j;                                                                      \
                bits &= bits - 1;                                                                  \
            }                                                                                      \
            i += 16;                                                                               \
        }                                                                                          \
        while (i < n) {                                                                            \
            uint32_t c = s[i];                                                                     \
            if (c < 256 && (fu_ext_trigger[c] & mask))                                             \
                return i;                                                                          \
            i++;                                                                                   \
        }                                                                                          \
        return n;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* End of s[start:end] less trailing sentence punctuation, never below */                      \
    /* minimum; a closing ')' or ']' goes only while it has no partner. */                         \
    static inline ptrdiff_t fu_ext_trim_##N(const T *s, ptrdiff_t start, ptrdiff_t end,            \
                                            ptrdiff_t minimum)                                     \
    {                                                                                              \
        ptrdiff_t paren_open = 0, paren_close = 0, square_open = 0, square_close = 0, k;           \
        int counted = 0;                                                                           \
        while (end > minimum) {                                                                    \
            uint32_t c = s[end - 1];                                                               \
            if (fu_ext_trim_char(c)) {                                                             \
                end--;                                                                             \
                continue;                                                                          \
            }                                                                                      \
            if (c != ')' && c != ']')                                                              \
                break;                                                                             \
            if (!counted) {                                                                        \
                /* Only punctuation has gone so far: these counts stay exact */                    \
                /* as closers are removed one by one. */                                           \
                for (k = start; k < end; k++) {                                                    \
                    uint32_t d = s[k];                                                             \
                    paren_open += d == '(';                                                        \
                    paren_close += d == ')';                                                       \
                    square_open += d == '[';                                                       \
                    square_close += d == ']';                                                      \
                }                                                                                  \
                counted = 1;                                                                       \
            }                                                                                      \
            if (c == ')') {                                                                        \
                if (paren_close <= paren_open)                                                     \
                    break;                                                                         \
                paren_close--;                                                                     \
            } else {                                                                               \
                if (square_close <= square_open)                                                   \
                    break;                                                                         \
                square_close--;                                                                    \
            }                                                                                      \
            end--;                                                                                 \
        }                                                                                          \
        return end;                                                                                \
    }                                                                                              \
                                                                                                   \
    /* Is s[a:b] (scheme characters) one of the schemes allowed without "//"? */                   \
    static inline int fu_ext_opaque_##N(const T *s, ptrdiff_t a, ptrdiff_t b)                      \
    {                                                                                              \
        char lower[8];                                                                             \
        ptrdiff_t k;                                                                               \
        if (b - a < 3 || b - a > 7)                                                                \
            return 0;                                                                              \
        for (k = a; k < b; k++) {                                                                  \
            uint32_t c = s[k];                                                                     \
            lower[k - a] = (char)((c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c);                   \
        }                                                                                          \
        return fu_ext_opaque_scheme(lower, b - a);                                                 \
    }                                                                                              \
                                                                                                   \
    /* The bare URI whose scheme ends at the ':' at colon. */                                      \
    static inline int fu_ext_bare_##N(const T *s, ptrdiff_t n, ptrdiff_t colon, ptrdiff_t floor,   \
                                      fu_ext_match_t *m, ptrdiff_t *resume)                        \
    {                                                                                              \
        ptrdiff_t start = colon, minimum, scanned, end;                                            \
        int quote, slashes = colon + 2 < n && s[colon + 1] == '/' && s[colon + 2] == '/';          \
        *resume = colon + 1;                                                                       \
        /* Quick rejection of prose colons ("12:30", "Note: x"), decided as the */                 \
        /* full test below would: without "//" the scheme must be one of the */                    \
        /* opaque ones, which all end in a letter, and a body must follow. */                      \
        if (!slashes                                                                               \
            && (colon == floor || !fu_in_class(s[colon - 1], FU_ALPHA) || colon + 1 >= n           \
                || !fu_ext_body(s[colon + 1])))                                                    \
            return 0;                                                                              \
        while (start > floor && fu_in_class(s[start - 1], FU_SCHEME))                              \
            start--;                                                                               \
        /* scheme = ALPHA *( ... ): drop what precedes its first letter */                         \
        while (start < colon && !FU_IS(s[start], FU_ALPHA))                                        \
            start++;                                                                               \
        if (start == colon)                                                                        \
            return 0;                                                                              \
        if (slashes)                                                                               \
            minimum = colon + 3;                                                                   \
        else if (fu_ext_opaque_##N(s, start, colon))                                               \
            minimum = colon + 1;                                                                   \
        else                                                                                       \
            return 0;                                                                              \
        quote = start > 0 && s[start - 1] == '\'';                                                 \
        scanned = fu_ext_body_end_##N(s, n, colon + 1, quote);                                     \
        end = fu_ext_trim_##N(s, start, scanned, minimum);                                         \
        if (end <= minimum) {                                                                      \
            /* Only punctuation after the scheme: it holds no letter that could */                 \
            /* start another URI, so skip it. */                                                   \
            *resume = scanned;                                                                     \
            return 0;                                                                              \
        }                                                                                          \
        m->start = start;                                                                          \
        m->end = end;                                                                              \
        m->kind = FU_EXT_BARE;                                                                     \
        *resume = end;                                                                             \
        return 1;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* Appendix C: <URI> or <URL:URI> with the '<' at lt. */                                       \
    static inline int fu_ext_wrapped_##N(const T *s, ptrdiff_t n, ptrdiff_t lt, fu_ext_match_t *m, \
                                         ptrdiff_t *resume)                                        \
    {                                                                                              \
        ptrdiff_t i = lt + 1, start, colon, body = 0;                                              \
        int space = 0, slashes = 0;                                                                \
        *resume = lt + 1;                                                                          \
        while (i < n && fu_ext_space(s[i]))                                                        \
            i++;                                                                                   \
        if (fu_ext_word_##N(s, n, i, "url:")) {                                                    \
            i += 4;                                                                                \
            while (i < n && fu_ext_space(s[i]))                                                    \
                i++;                                                                               \
        }                                                                                          \
        start = i;                                                                                 \
        if (i >= n || !fu_in_class(s[i], FU_ALPHA))                                                \
            return 0;                                                                              \
        while (i < n && fu_in_class(s[i], FU_SCHEME))                                              \
            i++;                                                                                   \
        if (i >= n || s[i] != ':')                                                                 \
            return 0;                                                                              \
        colon = i++;                                                                               \
        for (; i < n; i++) {                                                                       \
            uint32_t c = s[i];                                                                     \
            if (fu_ext_space(c)) {                                                                 \
                space = 1;                                                                         \
            } else if (fu_ext_body(c)) {                                                           \
                /* does the body, whitespace dropped, start with "//"? */                          \
                if (body < 2 && c == '/')                                                          \
                    slashes++;                                                                     \
                body++;                                                                            \
            } else {                                                                               \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
        if (i >= n || s[i] != '>')                                                                 \
            return 0;                                                                              \
        if (slashes == 2 ? body <= 2 : (body == 0 || !fu_ext_opaque_##N(s, start, colon)))         \
            return 0;                                                                              \
        m->start = start;                                                                          \
        m->end = i;                                                                                \
        m->kind = space ? FU_EXT_WRAPPED : FU_EXT_BARE;                                            \
        *resume = i + 1;                                                                           \
        return 1;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* RFC 2396 Appendix F: www.host[:port][/...] or ftp.host... at at. */                         \
    static inline int fu_ext_abbreviated_##N(const T *s, ptrdiff_t n, ptrdiff_t at,                \
                                             fu_ext_match_t *m, ptrdiff_t *resume)                 \
    {                                                                                              \
        ptrdiff_t i, end;                                                                          \
        int kind, labels = 0;                                                                      \
        *resume = at + 1;                                                                          \
        if (fu_ext_word_##N(s, n, at, "www."))                                                     \
            kind = FU_EXT_WWW;                                                                     \
        else if (fu_ext_word_##N(s, n, at, "ftp."))                                                \
            kind = FU_EXT_FTP;                                                                     \
        else                                                                                       \
            return 0;                                                                              \
        if (at > 0) {                                                                              \
            uint32_t c = s[at - 1];                                                                \
            if (c < 0x80 ? (FU_IS(c, FU_UNRESERVED) || c == '%' || c == '@' || c == '/'            \
                            || c == ':' || c == '+')                                               \
                         : fu_ext_nonascii_body(c))                                                \
                return 0;                                                                          \
        }                                                                                          \
        i = at + 4;                                                                                \
        while (i < n && fu_ext_label(s[i])) {                                                      \
            while (i < n && fu_ext_label(s[i]))                                                    \
                i++;                                                                               \
            labels++;                                                                              \
            if (i + 1 < n && s[i] == '.' && fu_ext_label(s[i + 1]))                                \
                i++;                                                                               \
            else                                                                                   \
                break;                                                                             \
        }                                                                                          \
        if (labels < 2)                                                                            \
            return 0;                                                                              \
        if (i + 1 < n && s[i] == ':' && fu_in_class(s[i + 1], FU_DIGIT)) {                         \
            i++;                                                                                   \
            while (i < n && fu_in_class(s[i], FU_DIGIT))                                           \
                i++;                                                                               \
        }                                                                                          \
        if (i < n) {                                                                               \
            uint32_t c = s[i];                                                                     \
            if (c < 0x80                                                                           \
                && (FU_IS(c, FU_ALPHA | FU_DIGIT) || c == '-' || c == '_' || c == '~' || c == '@'  \
                    || c == '%'))                                                                  \
                return 0;                                                                          \
        }                                                                                          \
        end = i;                                                                                   \
        if (i < n && (s[i] == '/' || s[i] == '?' || s[i] == '#')) {                                \
            int quote = at > 0 && s[at - 1] == '\'';                                               \
            end = fu_ext_trim_##N(s, at, fu_ext_body_end_##N(s, n, i, quote), i);                  \
        }                                                                                          \
        m->start = at;                                                                             \
        m->end = end;                                                                              \
        m->kind = kind;                                                                            \
        *resume = end;                                                                             \
        return 1;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline int fu_extract_next_##N(const T *s, ptrdiff_t n, fu_ext_state_t *st,             \
                                          fu_ext_match_t *m)                                       \
    {                                                                                              \
        ptrdiff_t i = st->pos, resume;                                                             \
        for (;;) {                                                                                 \
            uint32_t c;                                                                            \
            int found;                                                                             \
            i = fu_ext_next_trigger_##N(s, n, i, st->abbreviated);                                 \
            if (i >= n) {                                                                          \
                st->pos = n;                                                                       \
                return 0;                                                                          \
            }                                                                                      \
            c = s[i];                                                                              \
            if (c == ':')                                                                          \
                found = fu_ext_bare_##N(s, n, i, st->floor, m, &resume);                           \
            else if (c == '<')                                                                     \
                found = fu_ext_wrapped_##N(s, n, i, m, &resume);                                   \
            else                                                                                   \
                found = fu_ext_abbreviated_##N(s, n, i, m, &resume);                               \
            if (found) {                                                                           \
                st->pos = st->floor = resume;                                                      \
                return 1;                                                                          \
            }                                                                                      \
            i = resume;                                                                            \
        }                                                                                          \
    }

FU_DEFINE_EXTRACT(1, uint8_t)
FU_DEFINE_EXTRACT(2, uint16_t)
FU_DEFINE_EXTRACT(4, uint32_t)

#undef FU_DEFINE_EXTRACT

#endif /* FASTURI_EXTRACT_H */
