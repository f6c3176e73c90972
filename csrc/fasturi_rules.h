/* fasturi_rules.h: ABNF matchers for RFC 3986 Appendix A (with the RFC 6874
 * zone identifier), RFC 3987 §2.2 and RFC 2396 Appendix A.
 *
 * Input is (pointer, length) of one byte per character: an ASCII string's
 * bytes as they are, or for other text the byte fu_code_class() gives each
 * code point (ASCII stays itself; anything beyond U+007F becomes FU_X_UCS,
 * FU_X_PRIVATE or FU_X_OTHER, the only distinctions RFC 3987 makes).  Reads
 * only [0, len) and never relies on NUL termination.
 *
 * fu_rule_check(id, s, len) returns -1 when s matches rule id, else the error
 * position: the length of the longest prefix of s that some string matching
 * the rule starts with.
 *
 * Internally each matcher scans from i and returns the end of what it read
 * (>= 0), or FU_M_FAIL(p) when the text cannot be completed past p.  The
 * grammars are read left to right, one character of look-ahead, because a
 * run of one rule's characters never contains the character that follows
 * the rule; the few places where that is not so (authority, IPv6address,
 * dec-octet, RFC 2396 host) say how they decide.
 */
#ifndef FASTURI_RULES_H
#define FASTURI_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "fasturi_base.h"

/* What a code point beyond U+007F is to RFC 3987 §2.2. */
#define FU_X_UCS 0x80     /* ucschar */
#define FU_X_PRIVATE 0x81 /* iprivate */
#define FU_X_OTHER 0x82   /* neither: C1 controls, surrogates, noncharacters */

/* Which of those a character position accepts (0 for RFC 3986 rules). */
#define FU_M_EXT_UCS 1     /* iunreserved */
#define FU_M_EXT_PRIVATE 2 /* iquery */

#define FU_M_FAIL(p) (-1 - (ptrdiff_t)(p))
#define FU_M_FAILPOS(r) (-1 - (r))

static inline uint8_t fu_code_class(uint32_t c)
{
    if (c < 0x80)
        return (uint8_t)c;
    if (c > 0x10FFFF)
        return FU_X_OTHER;
    /* ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ...
     *         / %xD0000-DFFFD / %xE1000-EFFFD
     * iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD */
    if (c < 0x10000) {
        if (c < 0xA0 || (c >= 0xD800 && c < 0xE000))
            return FU_X_OTHER;
        if (c < 0xD800)
            return FU_X_UCS;
        if (c < 0xF900)
            return FU_X_PRIVATE;
        if (c < 0xFDD0 || (c >= 0xFDF0 && c < 0xFFF0))
            return FU_X_UCS;
        return FU_X_OTHER;
    }
    /* the last two code points of every plane (xFFFE, xFFFF) are in neither */
    if ((c & 0xFFFF) > 0xFFFD)
        return FU_X_OTHER;
    if (c >= 0xF0000)
        return FU_X_PRIVATE;
    if (c >= 0xE0000 && c < 0xE1000)
        return FU_X_OTHER;
    return FU_X_UCS;
}

#define FU_DEFINE_CLASSIFY(N, T)                                                                   \
    static inline void fu_classify_##N(const T *src, ptrdiff_t len, uint8_t *dst)                  \
    {                                                                                              \
        ptrdiff_t i;                                                                               \
        for (i = 0; i < len; i++)                                                                  \
            dst[i] = fu_code_class((uint32_t)src[i]);                                              \
    }
FU_DEFINE_CLASSIFY(1, uint8_t)
FU_DEFINE_CLASSIFY(2, uint16_t)
FU_DEFINE_CLASSIFY(4, uint32_t)
#undef FU_DEFINE_CLASSIFY

static inline int fu_m_ext_ok(uint8_t c, int ext)
{
    return (c == FU_X_UCS && (ext & FU_M_EXT_UCS))
           || (c == FU_X_PRIVATE && (ext & FU_M_EXT_PRIVATE));
}

/* pct-encoded = "%" HEXDIG HEXDIG, at s[i] == '%' */
static inline ptrdiff_t fu_m_pct(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i + 1 >= n)
        return FU_M_FAIL(n);
    if (!fu_is_hex(s[i + 1]))
        return FU_M_FAIL(i + 1);
    if (i + 2 >= n)
        return FU_M_FAIL(n);
    if (!fu_is_hex(s[i + 2]))
        return FU_M_FAIL(i + 2);
    return i + 3;
}

#if FU_SSSE3_DISPATCH
/* Bits of the bytes of the 16 at s that are not in class k: each byte's low
 * nibble picks an entry of fu_class_low[k], its high nibble a bit of it
 * (none for bytes >= 0x80). */
FU_TARGET_SSSE3 static inline unsigned fu_m_out16(const uint8_t *s, __m128i low)
{
    const __m128i bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i a = _mm_shuffle_epi8(low, _mm_and_si128(x, nibble));
    __m128i b = _mm_shuffle_epi8(bit, _mm_and_si128(_mm_srli_epi16(x, 4), nibble));
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(a, b), _mm_setzero_si128()));
}

/* Where class k's run from i ends (n >= 16), 16 bytes at a time, the last
 * partial block as the overlapping last 16. */
FU_TARGET_SSSE3 static ptrdiff_t fu_m_run16(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int k)
{
    const __m128i low = _mm_loadu_si128((const __m128i *)(const void *)fu_class_low[k]);
    unsigned out;
    for (; i + 16 <= n; i += 16)
        if ((out = fu_m_out16(s + i, low)) != 0)
            return i + (ptrdiff_t)fu_ctz(out);
    if (i < n) {
        out = fu_m_out16(s + n - 16, low) >> (i - (n - 16));
        return out ? i + (ptrdiff_t)fu_ctz(out) : n;
    }
    return i;
}
#endif

/* *( <mask> / pct-encoded / <ext> ), mask being one class bit.  A '%' that
 * does not start a pct-encoded fails where it breaks: no rule lets a '%'
 * follow such a run. */
static inline ptrdiff_t fu_m_run(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, uint32_t mask, int ext)
{
#if FU_SSSE3_DISPATCH
    /* long runs (paths, queries) 16 bytes at a time */
    int k = n >= 16 && (mask & (mask - 1)) == 0 && fu_has_ssse3() ? (int)fu_ctz(mask) : -1;
#endif
    for (;;) {
#if FU_SSSE3_DISPATCH
        if (k >= 0)
            i = fu_m_run16(s, i, n, k);
#endif
        /* four at a time: the bit is in all four masks or the loop ends */
        while (i + 4 <= n
               && (fu_char_class[s[i]] & fu_char_class[s[i + 1]] & fu_char_class[s[i + 2]]
                   & fu_char_class[s[i + 3]] & mask))
            i += 4;
        while (i < n && FU_IS(s[i], mask))
            i++;
        if (i >= n)
            return i;
        if (s[i] == '%') {
            i = fu_m_pct(s, i, n);
            if (i < 0)
                return i;
        } else if (ext && fu_m_ext_ok(s[i], ext)) {
            i++;
        } else {
            return i;
        }
    }
}

/* One character of mask (or ext), or one pct-encoded when pct is set. */
static inline ptrdiff_t fu_m_one(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, uint32_t mask, int ext,
                                 int pct)
{
    if (i >= n)
        return FU_M_FAIL(i);
    if (pct && s[i] == '%')
        return fu_m_pct(s, i, n);
    if (FU_IS(s[i], mask) || (ext && fu_m_ext_ok(s[i], ext)))
        return i + 1;
    return FU_M_FAIL(i);
}

/* ---- RFC 3986 (ext = 0) and RFC 3987 (ext = FU_M_EXT_UCS) -------------- */

/* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) */
static inline ptrdiff_t fu_m_scheme(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i >= n || !FU_IS(s[i], FU_ALPHA))
        return FU_M_FAIL(i);
    i++;
    while (i < n && FU_IS(s[i], FU_SCHEME))
        i++;
    return i;
}

/* port = *DIGIT */
static inline ptrdiff_t fu_m_port(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    while (i < n && FU_IS(s[i], FU_DIGIT))
        i++;
    return i;
}

/* The longest dec-octet at i (each prefix the scan accepts is itself a
 * dec-octet, so this is also the longest viable prefix):
 * dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT
 *           / "25" %x30-35 */
static inline ptrdiff_t fu_m_dec_octet(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    uint8_t d;
    if (i >= n || !FU_IS(s[i], FU_DIGIT))
        return FU_M_FAIL(i);
    d = s[i++];
    if (d == '0' || i >= n || !FU_IS(s[i], FU_DIGIT))
        return i; /* 0-9; no leading zero */
    if (d >= '3')
        return i + 1; /* 30-99 */
    if (d == '1') {
        i++; /* 10-19, 100-199 */
        return (i < n && FU_IS(s[i], FU_DIGIT)) ? i + 1 : i;
    }
    d = s[i++];   /* "2" then d */
    if (d <= '4') /* 20-24, 200-249 */
        return (i < n && FU_IS(s[i], FU_DIGIT)) ? i + 1 : i;
    if (d == '5') /* 25, 250-255 */
        return (i < n && s[i] >= '0' && s[i] <= '5') ? i + 1 : i;
    return i; /* 26-29 */
}

/* "." dec-octet "." dec-octet "." dec-octet: an IPv4address after its first
 * octet */
static inline ptrdiff_t fu_m_ipv4_tail(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (i >= n || s[i] != '.')
            return FU_M_FAIL(i);
        i = fu_m_dec_octet(s, i + 1, n);
        if (i < 0)
            return i;
    }
    return i;
}

/* IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet */
static inline ptrdiff_t fu_m_ipv4(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = fu_m_dec_octet(s, i, n);
    return i < 0 ? i : fu_m_ipv4_tail(s, i, n);
}

/* h16 = 1*4HEXDIG */
static inline ptrdiff_t fu_m_h16(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t g = i;
    while (i < n && i - g < 4 && fu_is_hex(s[i]))
        i++;
    return i == g ? FU_M_FAIL(i) : i;
}

/* ls32 = ( h16 ":" h16 ) / IPv4address.  Digits read as an h16 are taken as
 * the first dec-octet when a "." follows them. */
static inline ptrdiff_t fu_m_ls32(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t g = i;
    i = fu_m_h16(s, i, n);
    if (i < 0)
        return i;
    if (i < n && s[i] == '.')
        return fu_m_dec_octet(s, g, i) == i ? fu_m_ipv4_tail(s, i, n) : FU_M_FAIL(i);
    if (i >= n || s[i] != ':')
        return FU_M_FAIL(i);
    return fu_m_h16(s, i + 1, n);
}

/* IPv6address: the nine forms of Appendix A say, together, that an address
 * is h16 pieces separated by ":", the last two of which may be written as
 * one IPv4address, with exactly 8 pieces, or at most 7 when one "::" stands
 * for the missing ones.  The scan counts pieces, so a prefix is given up as
 * soon as no completion fits in those limits. */
static inline ptrdiff_t fu_m_ipv6(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    int pieces = 0, gap = 0;
    ptrdiff_t g;
    if (i < n && s[i] == ':') {
        if (i + 1 >= n)
            return FU_M_FAIL(n);
        if (s[i + 1] != ':')
            return FU_M_FAIL(i + 1);
        gap = 1;
        i += 2;
        if (i >= n || !fu_is_hex(s[i]))
            return i; /* "::" */
    }
    for (;;) {
        if (i >= n || !fu_is_hex(s[i]) || pieces + 1 > (gap ? 7 : 8))
            return FU_M_FAIL(i);
        g = i;
        while (i < n && i - g < 4 && fu_is_hex(s[i]))
            i++;
        if (i < n && s[i] == '.') {
            /* ls32 as an IPv4address: two pieces, and the last ones */
            if ((gap ? pieces + 2 > 7 : pieces != 6) || fu_m_dec_octet(s, g, i) != i)
                return FU_M_FAIL(i);
            return fu_m_ipv4_tail(s, i, n);
        }
        pieces++;
        if (i >= n || s[i] != ':')
            return (gap || pieces == 8) ? i : FU_M_FAIL(i);
        /* a ":" promises one more piece (or, with no gap yet, a "::") */
        if (pieces + 1 > (gap ? 7 : 8))
            return FU_M_FAIL(i);
        if (i + 1 < n && s[i + 1] == ':') {
            if (gap)
                return FU_M_FAIL(i + 1); /* a second "::" */
            gap = 1;
            i += 2;
            if (i >= n || !fu_is_hex(s[i]))
                return i; /* ends with "::" */
            continue;
        }
        i++;
    }
}

/* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
 * ("v" is case-insensitive, RFC 5234 §2.3) */
static inline ptrdiff_t fu_m_ipvfuture(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t j;
    if (i >= n || (s[i] | 0x20) != 'v')
        return FU_M_FAIL(i);
    j = ++i;
    while (i < n && fu_is_hex(s[i]))
        i++;
    if (i == j || i >= n || s[i] != '.')
        return FU_M_FAIL(i);
    j = ++i;
    while (i < n && FU_IS(s[i], FU_IPVFUTURE))
        i++;
    return i == j ? FU_M_FAIL(i) : i;
}

/* RFC 6874: ZoneID = 1*( unreserved / pct-encoded ) */
static inline ptrdiff_t fu_m_zone_id(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t e = fu_m_run(s, i, n, FU_UNRESERVED, 0);
    return e == i ? FU_M_FAIL(i) : e;
}

/* RFC 6874: "%25" ZoneID, the tail of IPv6addrz = IPv6address "%25" ZoneID */
static inline ptrdiff_t fu_m_zone(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i >= n || s[i] != '%')
        return FU_M_FAIL(i);
    if (i + 1 >= n || s[i + 1] != '2')
        return FU_M_FAIL(i + 1);
    if (i + 2 >= n || s[i + 2] != '5')
        return FU_M_FAIL(i + 2);
    return fu_m_zone_id(s, i + 3, n);
}

/* IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]" (RFC 6874) */
static inline ptrdiff_t fu_m_ip_literal(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i >= n || s[i] != '[')
        return FU_M_FAIL(i);
    i++;
    if (i < n && (s[i] | 0x20) == 'v') {
        i = fu_m_ipvfuture(s, i, n);
    } else {
        i = fu_m_ipv6(s, i, n);
        if (i >= 0 && i < n && s[i] == '%')
            i = fu_m_zone(s, i, n);
    }
    if (i < 0)
        return i;
    return (i < n && s[i] == ']') ? i + 1 : FU_M_FAIL(i);
}

/* host [ ":" port ], host = IP-literal / IPv4address / reg-name (the
 * characters of an IPv4address are reg-name characters: one run reads both) */
static inline ptrdiff_t fu_m_hostport(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    if (i < n && s[i] == '[')
        i = fu_m_ip_literal(s, i, n);
    else
        i = fu_m_run(s, i, n, FU_REGNAME, ext);
    if (i >= 0 && i < n && s[i] == ':')
        i = fu_m_port(s, i + 1, n);
    return i;
}

/* authority = [ userinfo "@" ] host [ ":" port ]
 * The userinfo characters are the reg-name ones and ":", so the text is
 * read as a host and port first; only an "@" after it (or a userinfo
 * character where the authority should end) makes it a userinfo.  When
 * there is no "@", the end of the userinfo reading is also where the text
 * stops being viable. */
static inline ptrdiff_t fu_m_authority(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    ptrdiff_t h = fu_m_run(s, i, n, FU_REGNAME, ext), p, r;
    if (h < 0)
        return h;
    if (h < n && s[h] == '@')
        return fu_m_hostport(s, h + 1, n, ext);
    if (h >= n || s[h] != ':') /* not a userinfo character */
        return h == i ? fu_m_hostport(s, i, n, ext) : h;
    p = fu_m_port(s, h + 1, n);
    r = fu_m_run(s, p, n, FU_USERINFO, ext);
    if (r < 0)
        return r;
    if (r < n && s[r] == '@')
        return fu_m_hostport(s, r + 1, n, ext);
    return r == p ? p : FU_M_FAIL(r);
}

/* path-abempty = *( "/" segment ) */
static inline ptrdiff_t fu_m_path_abempty(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    while (i < n && s[i] == '/') {
        i = fu_m_run(s, i + 1, n, FU_PCHAR, ext);
        if (i < 0)
            break;
    }
    return i;
}

/* path-absolute = "/" [ segment-nz *( "/" segment ) ] */
static inline ptrdiff_t fu_m_path_absolute(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    if (i >= n || s[i] != '/')
        return FU_M_FAIL(i);
    i++;
    if (i < n && s[i] == '/')
        return FU_M_FAIL(i);
    i = fu_m_run(s, i, n, FU_PCHAR, ext);
    return i < 0 ? i : fu_m_path_abempty(s, i, n, ext);
}

/* path-rootless = segment-nz *( "/" segment ), or with first = FU_SEGNC
 * path-noscheme = segment-nz-nc *( "/" segment ) */
static inline ptrdiff_t fu_m_path_rootless(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext,
                                           uint32_t first)
{
    ptrdiff_t j = fu_m_run(s, i, n, first, ext);
    if (j < 0)
        return j;
    return j == i ? FU_M_FAIL(i) : fu_m_path_abempty(s, j, n, ext);
}

/* path = path-abempty / path-absolute / path-noscheme / path-rootless
 *      / path-empty: together, any text of pchar and "/" */
static inline ptrdiff_t fu_m_path(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    i = fu_m_run(s, i, n, FU_PCHAR, ext);
    return i < 0 ? i : fu_m_path_abempty(s, i, n, ext);
}

/* hier-part = "//" authority path-abempty / path-absolute / path-rootless
 *           / path-empty, or with first = FU_SEGNC
 * relative-part = "//" authority path-abempty / path-absolute
 *               / path-noscheme / path-empty */
static inline ptrdiff_t fu_m_hier_part(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext,
                                       uint32_t first)
{
    if (i < n && s[i] == '/') {
        if (i + 1 < n && s[i + 1] == '/') {
            i = fu_m_authority(s, i + 2, n, ext);
            return i < 0 ? i : fu_m_path_abempty(s, i, n, ext);
        }
        return fu_m_path_absolute(s, i, n, ext);
    }
    /* a first segment, or path-empty when there is none */
    i = fu_m_run(s, i, n, first, ext);
    return i < 0 ? i : fu_m_path_abempty(s, i, n, ext);
}

/* [ "?" query ] [ "#" fragment ], the latter only when frag is set */
static inline ptrdiff_t fu_m_query_fragment(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext,
                                            int frag)
{
    if (i < n && s[i] == '?') {
        /* iquery = *( ipchar / iprivate / "/" / "?" ) */
        i = fu_m_run(s, i + 1, n, FU_QUERY, ext ? ext | FU_M_EXT_PRIVATE : 0);
        if (i < 0)
            return i;
    }
    if (frag && i < n && s[i] == '#')
        i = fu_m_run(s, i + 1, n, FU_QUERY, ext);
    return i;
}

/* path-abempty [ "?" query ] [ "#" fragment ]
 * In RFC 3986 the characters of a path and of a query differ only by "?",
 * which ends the path and starts the query: past the first "/" or "?",
 * one run of query characters reads both. */
static inline ptrdiff_t fu_m_abempty_tail(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext,
                                          int frag)
{
    if (ext) { /* an IRI's path takes no iprivate: segment by segment */
        i = fu_m_path_abempty(s, i, n, ext);
        return i < 0 ? i : fu_m_query_fragment(s, i, n, ext, frag);
    }
    if (i < n && (s[i] == '/' || s[i] == '?')) {
        i = fu_m_run(s, i + 1, n, FU_QUERY, 0);
        if (i < 0)
            return i;
    }
    if (frag && i < n && s[i] == '#')
        i = fu_m_run(s, i + 1, n, FU_QUERY, 0);
    return i;
}

/* hier-part (first = FU_PCHAR) or relative-part (first = FU_SEGNC), then
 * [ "?" query ] [ "#" fragment ] */
static inline ptrdiff_t fu_m_hier_tail(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext,
                                       uint32_t first, int frag)
{
    if (i < n && s[i] == '/') {
        if (i + 1 < n && s[i + 1] == '/') {
            i = fu_m_authority(s, i + 2, n, ext);
            if (i < 0)
                return i;
        }
        /* else path-absolute: a "/" not followed by another, then as
         * path-abempty */
        return fu_m_abempty_tail(s, i, n, ext, frag);
    }
    /* a first segment, or path-empty when there is none */
    i = fu_m_run(s, i, n, first, ext);
    return i < 0 ? i : fu_m_abempty_tail(s, i, n, ext, frag);
}

/* URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
 * absolute-URI = scheme ":" hier-part [ "?" query ]       (frag = 0) */
static inline ptrdiff_t fu_m_uri(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext, int frag)
{
    i = fu_m_scheme(s, i, n);
    if (i < 0)
        return i;
    if (i >= n || s[i] != ':')
        return FU_M_FAIL(i);
    return fu_m_hier_tail(s, i + 1, n, ext, FU_PCHAR, frag);
}

/* relative-ref = relative-part [ "?" query ] [ "#" fragment ] */
static inline ptrdiff_t fu_m_relative_ref(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    return fu_m_hier_tail(s, i, n, ext, FU_SEGNC, 1);
}

/* URI-reference = URI / relative-ref.  A scheme followed by ":" can only
 * be a URI (a relative-ref's first segment stops at the ":"); anything else
 * reads at least as far as a relative-ref as it does as a URI. */
static inline ptrdiff_t fu_m_uri_reference(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int ext)
{
    ptrdiff_t j = i;
    if (j < n && FU_IS(s[j], FU_ALPHA)) {
        j++;
        while (j < n && FU_IS(s[j], FU_SCHEME))
            j++;
        if (j < n && s[j] == ':')
            return fu_m_hier_tail(s, j + 1, n, ext, FU_PCHAR, 1);
    }
    return fu_m_relative_ref(s, i, n, ext);
}

/* ---- RFC 2396 ------------------------------------------------------------ */

#define FU_M_ALNUM (FU_ALPHA | FU_DIGIT)

/* *( <mask> / escaped / x1 / x2 ); -1 for "no such character" */
static inline ptrdiff_t fu_m2_run(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, uint32_t mask, int x1,
                                  int x2)
{
    for (;;) {
        i = fu_m_run(s, i, n, mask, 0);
        if (i < 0 || i >= n)
            return i;
        if (s[i] != x1 && s[i] != x2)
            return i;
        i++;
    }
}

/* abs_path = "/" path_segments, where path_segments = segment *( "/" segment )
 * and segment = *pchar *( ";" param ): any text of pchar, ";" and "/" */
static inline ptrdiff_t fu_m2_abs_path(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i >= n || s[i] != '/')
        return FU_M_FAIL(i);
    return fu_m2_run(s, i + 1, n, FU_PCHAR2396, ';', '/');
}

/* rel_segment = 1*( unreserved | escaped |
 *                   ";" | "@" | "&" | "=" | "+" | "$" | "," )
 * (the reg_name characters but ":") */
static inline ptrdiff_t fu_m2_rel_segment(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t j = i;
    for (;;) {
        while (j < n && s[j] != ':' && FU_IS(s[j], FU_REGNAME2396))
            j++;
        if (j >= n || s[j] != '%')
            break;
        j = fu_m_pct(s, j, n);
        if (j < 0)
            return j;
    }
    return j == i ? FU_M_FAIL(i) : j;
}

/* rel_path = rel_segment [ abs_path ] */
static inline ptrdiff_t fu_m2_rel_path(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = fu_m2_rel_segment(s, i, n);
    if (i >= 0 && i < n && s[i] == '/')
        i = fu_m2_abs_path(s, i, n);
    return i;
}

/* [ "?" query ], query = *uric */
static inline ptrdiff_t fu_m2_query(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i < n && s[i] == '?')
        i = fu_m_run(s, i + 1, n, FU_URIC2396, 0);
    return i;
}

/* opaque_part = uric_no_slash *uric */
static inline ptrdiff_t fu_m2_opaque_part(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = fu_m_one(s, i, n, FU_URICNS2396, 0, 1);
    return i < 0 ? i : fu_m_run(s, i, n, FU_URIC2396, 0);
}

/* hier_part = ( net_path | abs_path ) [ "?" query ]
 * net_path = "//" authority [ abs_path ] is itself an abs_path (an empty
 * segment, then the authority's characters, all pchar or ";"), so abs_path
 * alone decides. */
static inline ptrdiff_t fu_m2_hier_part(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = fu_m2_abs_path(s, i, n);
    return i < 0 ? i : fu_m2_query(s, i, n);
}

/* relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ] */
static inline ptrdiff_t fu_m2_relative_uri(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = (i < n && s[i] == '/') ? fu_m2_abs_path(s, i, n) : fu_m2_rel_path(s, i, n);
    return i < 0 ? i : fu_m2_query(s, i, n);
}

/* absoluteURI = scheme ":" ( hier_part | opaque_part ) */
static inline ptrdiff_t fu_m2_absolute_uri(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = fu_m_scheme(s, i, n);
    if (i < 0)
        return i;
    if (i >= n || s[i] != ':')
        return FU_M_FAIL(i);
    i++;
    return (i < n && s[i] == '/') ? fu_m2_hier_part(s, i, n) : fu_m2_opaque_part(s, i, n);
}

/* URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]
 * As for RFC 3986: a scheme and ":" make it an absoluteURI. */
static inline ptrdiff_t fu_m2_uri_reference(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t j = i;
    if (j < n && FU_IS(s[j], FU_ALPHA)) {
        j++;
        while (j < n && FU_IS(s[j], FU_SCHEME))
            j++;
    }
    if (j > i && j < n && s[j] == ':')
        i = fu_m2_absolute_uri(s, i, n);
    else if (i < n && s[i] != '#')
        i = fu_m2_relative_uri(s, i, n);
    if (i >= 0 && i < n && s[i] == '#')
        i = fu_m_run(s, i + 1, n, FU_URIC2396, 0);
    return i;
}

/* net_path = "//" authority [ abs_path ], authority = server | reg_name.
 * Every server is empty or a reg_name (its characters are all reg_name
 * characters), so the authority is any run of reg_name characters. */
static inline ptrdiff_t fu_m2_net_path(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i >= n || s[i] != '/')
        return FU_M_FAIL(i);
    if (i + 1 >= n || s[i + 1] != '/')
        return FU_M_FAIL(i + 1);
    i = fu_m_run(s, i + 2, n, FU_REGNAME2396, 0);
    if (i >= 0 && i < n && s[i] == '/')
        i = fu_m2_abs_path(s, i, n);
    return i;
}

/* domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum
 * toplabel    = alpha    | alpha    *( alphanum | "-" ) alphanum
 * (top: the first character must be alpha) */
static inline ptrdiff_t fu_m2_label(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int top)
{
    if (i >= n || !FU_IS(s[i], top ? FU_ALPHA : FU_M_ALNUM))
        return FU_M_FAIL(i);
    i++;
    while (i < n && (FU_IS(s[i], FU_M_ALNUM) || s[i] == '-'))
        i++;
    return s[i - 1] == '-' ? FU_M_FAIL(i) : i;
}

/* hostname = *( domainlabel "." ) toplabel [ "." ]
 * Labels are read one by one; the text is a hostname where its last label
 * (before an optional final ".") starts with a letter. */
static inline ptrdiff_t fu_m2_hostname(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    int top;
    for (;;) {
        top = i < n && FU_IS(s[i], FU_ALPHA);
        i = fu_m2_label(s, i, n, 0);
        if (i < 0)
            return i;
        if (i < n && s[i] == '.') {
            i++;
            if (i < n && FU_IS(s[i], FU_M_ALNUM))
                continue;
        }
        return top ? i : FU_M_FAIL(i);
    }
}

/* IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit */
static inline ptrdiff_t fu_m2_ipv4(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    int k;
    ptrdiff_t j;
    for (k = 0; k < 4; k++) {
        if (k > 0) {
            if (i >= n || s[i] != '.')
                return FU_M_FAIL(i);
            i++;
        }
        j = i;
        while (i < n && FU_IS(s[i], FU_DIGIT))
            i++;
        if (i == j)
            return FU_M_FAIL(i);
    }
    return i;
}

/* host = hostname | IPv4address, in a context where only ":" or the end may
 * follow.  An IPv4address is read the way a hostname is, so a hostname that
 * fails has read at least as far. */
static inline ptrdiff_t fu_m2_host(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t h = fu_m2_hostname(s, i, n), v;
    if (h >= 0)
        return h;
    v = fu_m2_ipv4(s, i, n);
    return (v >= 0 && (v >= n || s[v] == ':')) ? v : h;
}

/* hostport = host [ ":" port ] */
static inline ptrdiff_t fu_m2_hostport(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    i = fu_m2_host(s, i, n);
    if (i >= 0 && i < n && s[i] == ':')
        i = fu_m_port(s, i + 1, n);
    return i;
}

/* server = [ [ userinfo "@" ] hostport ]: as for RFC 3986's authority, the
 * userinfo run (which holds every hostport character) decides. */
static inline ptrdiff_t fu_m2_server(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    ptrdiff_t r = fu_m_run(s, i, n, FU_USERINFO2396, 0);
    if (r < 0)
        return r;
    if (r < n && s[r] == '@')
        return fu_m2_hostport(s, r + 1, n);
    if (r == i || fu_m2_hostport(s, i, r) == r)
        return r;
    return FU_M_FAIL(r);
}

/* path = [ abs_path | opaque_part ] */
static inline ptrdiff_t fu_m2_path(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i >= n)
        return i;
    return s[i] == '/' ? fu_m2_abs_path(s, i, n) : fu_m2_opaque_part(s, i, n);
}

/* ---- rules by number ------------------------------------------------------ */

/* clang-format off */
enum {
    /* RFC 3986 Appendix A */
    FU_R_URI, FU_R_HIER_PART, FU_R_URI_REFERENCE, FU_R_ABSOLUTE_URI,
    FU_R_RELATIVE_REF, FU_R_RELATIVE_PART, FU_R_SCHEME, FU_R_AUTHORITY,
    FU_R_USERINFO, FU_R_HOST, FU_R_PORT, FU_R_IP_LITERAL, FU_R_IPVFUTURE,
    FU_R_IPV6ADDRESS, FU_R_H16, FU_R_LS32, FU_R_IPV4ADDRESS, FU_R_DEC_OCTET,
    FU_R_REG_NAME, FU_R_PATH, FU_R_PATH_ABEMPTY, FU_R_PATH_ABSOLUTE,
    FU_R_PATH_NOSCHEME, FU_R_PATH_ROOTLESS, FU_R_PATH_EMPTY, FU_R_SEGMENT,
    FU_R_SEGMENT_NZ, FU_R_SEGMENT_NZ_NC, FU_R_PCHAR, FU_R_QUERY, FU_R_FRAGMENT,
    FU_R_PCT_ENCODED, FU_R_UNRESERVED, FU_R_RESERVED, FU_R_GEN_DELIMS,
    FU_R_SUB_DELIMS, FU_R_ALPHA, FU_R_DIGIT, FU_R_HEXDIG,
    /* RFC 6874 */
    FU_R_IPV6ADDRZ, FU_R_ZONEID,
    /* RFC 3987 */
    FU_R_IRI, FU_R_IHIER_PART, FU_R_IRI_REFERENCE, FU_R_ABSOLUTE_IRI,
    FU_R_IRELATIVE_REF, FU_R_IRELATIVE_PART, FU_R_IAUTHORITY, FU_R_IUSERINFO,
    FU_R_IHOST, FU_R_IREG_NAME, FU_R_IPATH, FU_R_IPATH_ABEMPTY,
    FU_R_IPATH_ABSOLUTE, FU_R_IPATH_NOSCHEME, FU_R_IPATH_ROOTLESS,
    FU_R_IPATH_EMPTY, FU_R_ISEGMENT, FU_R_ISEGMENT_NZ, FU_R_ISEGMENT_NZ_NC,
    FU_R_IPCHAR, FU_R_IQUERY, FU_R_IFRAGMENT, FU_R_IUNRESERVED, FU_R_UCSCHAR,
    FU_R_IPRIVATE,
    FU_R_3986_END, /* rules before this are looked up with rfc=3986 */
    /* RFC 2396 Appendix A */
    FU_R2_URI_REFERENCE = FU_R_3986_END, FU_R2_ABSOLUTEURI, FU_R2_RELATIVEURI,
    FU_R2_HIER_PART, FU_R2_NET_PATH, FU_R2_ABS_PATH, FU_R2_REL_PATH,
    FU_R2_REL_SEGMENT, FU_R2_SCHEME, FU_R2_AUTHORITY, FU_R2_REG_NAME,
    FU_R2_SERVER, FU_R2_USERINFO, FU_R2_HOSTPORT, FU_R2_HOST, FU_R2_HOSTNAME,
    FU_R2_DOMAINLABEL, FU_R2_TOPLABEL, FU_R2_IPV4ADDRESS, FU_R2_PORT,
    FU_R2_PATH, FU_R2_PATH_SEGMENTS, FU_R2_SEGMENT, FU_R2_PARAM, FU_R2_PCHAR,
    FU_R2_QUERY, FU_R2_FRAGMENT, FU_R2_URIC, FU_R2_URIC_NO_SLASH,
    FU_R2_OPAQUE_PART, FU_R2_RESERVED, FU_R2_UNRESERVED, FU_R2_MARK,
    FU_R2_ESCAPED, FU_R2_HEX, FU_R2_ALPHANUM, FU_R2_ALPHA, FU_R2_LOWALPHA,
    FU_R2_UPALPHA, FU_R2_DIGIT,
    FU_R_COUNT
};
/* clang-format on */

/* clang-format off */
static const char *const fu_rule_names[FU_R_COUNT] = {
    [FU_R_URI] = "URI", [FU_R_HIER_PART] = "hier-part",
    [FU_R_URI_REFERENCE] = "URI-reference", [FU_R_ABSOLUTE_URI] = "absolute-URI",
    [FU_R_RELATIVE_REF] = "relative-ref", [FU_R_RELATIVE_PART] = "relative-part",
    [FU_R_SCHEME] = "scheme", [FU_R_AUTHORITY] = "authority",
    [FU_R_USERINFO] = "userinfo", [FU_R_HOST] = "host", [FU_R_PORT] = "port",
    [FU_R_IP_LITERAL] = "IP-literal", [FU_R_IPVFUTURE] = "IPvFuture",
    [FU_R_IPV6ADDRESS] = "IPv6address", [FU_R_H16] = "h16", [FU_R_LS32] = "ls32",
    [FU_R_IPV4ADDRESS] = "IPv4address", [FU_R_DEC_OCTET] = "dec-octet",
    [FU_R_REG_NAME] = "reg-name", [FU_R_PATH] = "path",
    [FU_R_PATH_ABEMPTY] = "path-abempty", [FU_R_PATH_ABSOLUTE] = "path-absolute",
    [FU_R_PATH_NOSCHEME] = "path-noscheme", [FU_R_PATH_ROOTLESS] = "path-rootless",
    [FU_R_PATH_EMPTY] = "path-empty", [FU_R_SEGMENT] = "segment",
    [FU_R_SEGMENT_NZ] = "segment-nz", [FU_R_SEGMENT_NZ_NC] = "segment-nz-nc",
    [FU_R_PCHAR] = "pchar", [FU_R_QUERY] = "query", [FU_R_FRAGMENT] = "fragment",
    [FU_R_PCT_ENCODED] = "pct-encoded", [FU_R_UNRESERVED] = "unreserved",
    [FU_R_RESERVED] = "reserved", [FU_R_GEN_DELIMS] = "gen-delims",
    [FU_R_SUB_DELIMS] = "sub-delims", [FU_R_ALPHA] = "ALPHA",
    [FU_R_DIGIT] = "DIGIT", [FU_R_HEXDIG] = "HEXDIG",
    [FU_R_IPV6ADDRZ] = "IPv6addrz", [FU_R_ZONEID] = "ZoneID",
    [FU_R_IRI] = "IRI", [FU_R_IHIER_PART] = "ihier-part",
    [FU_R_IRI_REFERENCE] = "IRI-reference", [FU_R_ABSOLUTE_IRI] = "absolute-IRI",
    [FU_R_IRELATIVE_REF] = "irelative-ref", [FU_R_IRELATIVE_PART] = "irelative-part",
    [FU_R_IAUTHORITY] = "iauthority", [FU_R_IUSERINFO] = "iuserinfo",
    [FU_R_IHOST] = "ihost", [FU_R_IREG_NAME] = "ireg-name", [FU_R_IPATH] = "ipath",
    [FU_R_IPATH_ABEMPTY] = "ipath-abempty", [FU_R_IPATH_ABSOLUTE] = "ipath-absolute",
    [FU_R_IPATH_NOSCHEME] = "ipath-noscheme", [FU_R_IPATH_ROOTLESS] = "ipath-rootless",
    [FU_R_IPATH_EMPTY] = "ipath-empty", [FU_R_ISEGMENT] = "isegment",
    [FU_R_ISEGMENT_NZ] = "isegment-nz", [FU_R_ISEGMENT_NZ_NC] = "isegment-nz-nc",
    [FU_R_IPCHAR] = "ipchar", [FU_R_IQUERY] = "iquery", [FU_R_IFRAGMENT] = "ifragment",
    [FU_R_IUNRESERVED] = "iunreserved", [FU_R_UCSCHAR] = "ucschar",
    [FU_R_IPRIVATE] = "iprivate",
    [FU_R2_URI_REFERENCE] = "URI-reference", [FU_R2_ABSOLUTEURI] = "absoluteURI",
    [FU_R2_RELATIVEURI] = "relativeURI", [FU_R2_HIER_PART] = "hier_part",
    [FU_R2_NET_PATH] = "net_path", [FU_R2_ABS_PATH] = "abs_path",
    [FU_R2_REL_PATH] = "rel_path", [FU_R2_REL_SEGMENT] = "rel_segment",
    [FU_R2_SCHEME] = "scheme", [FU_R2_AUTHORITY] = "authority",
    [FU_R2_REG_NAME] = "reg_name", [FU_R2_SERVER] = "server",
    [FU_R2_USERINFO] = "userinfo", [FU_R2_HOSTPORT] = "hostport",
    [FU_R2_HOST] = "host", [FU_R2_HOSTNAME] = "hostname",
    [FU_R2_DOMAINLABEL] = "domainlabel", [FU_R2_TOPLABEL] = "toplabel",
    [FU_R2_IPV4ADDRESS] = "IPv4address", [FU_R2_PORT] = "port", [FU_R2_PATH] = "path",
    [FU_R2_PATH_SEGMENTS] = "path_segments", [FU_R2_SEGMENT] = "segment",
    [FU_R2_PARAM] = "param", [FU_R2_PCHAR] = "pchar", [FU_R2_QUERY] = "query",
    [FU_R2_FRAGMENT] = "fragment", [FU_R2_URIC] = "uric",
    [FU_R2_URIC_NO_SLASH] = "uric_no_slash", [FU_R2_OPAQUE_PART] = "opaque_part",
    [FU_R2_RESERVED] = "reserved", [FU_R2_UNRESERVED] = "unreserved",
    [FU_R2_MARK] = "mark", [FU_R2_ESCAPED] = "escaped", [FU_R2_HEX] = "hex",
    [FU_R2_ALPHANUM] = "alphanum", [FU_R2_ALPHA] = "alpha",
    [FU_R2_LOWALPHA] = "lowalpha", [FU_R2_UPALPHA] = "upalpha", [FU_R2_DIGIT] = "digit",
};

/* The rule named name[0, n) among RFC 3986's (with RFC 3987's) when rfc is
 * 3986, among RFC 2396's when it is 2396: its number, or -1 when there is
 * none (-2 when rfc is neither). */
static inline int fu_rule_named(const uint8_t *name, int64_t n, int rfc)
{
    int lo = rfc == 2396 ? FU_R_3986_END : 0, hi = rfc == 2396 ? FU_R_COUNT : FU_R_3986_END, k;
    if (rfc != 3986 && rfc != 2396)
        return -2;
    for (k = lo; k < hi; k++)
        if (fu_rule_names[k] != NULL && (int64_t)strlen(fu_rule_names[k]) == n
            && memcmp(fu_rule_names[k], name, (size_t)n) == 0)
            return k;
    return -1;
}
/* clang-format on */

/* The matcher of rule id from 0: end or FU_M_FAIL (see the top of the file). */
static inline ptrdiff_t fu_rule_scan(int id, const uint8_t *s, ptrdiff_t n)
{
    const int U = FU_M_EXT_UCS;
    ptrdiff_t i;
    switch (id) {
    case FU_R_URI_REFERENCE: return fu_m_uri_reference(s, 0, n, 0);
    case FU_R_URI: return fu_m_uri(s, 0, n, 0, 1);
    case FU_R_ABSOLUTE_URI: return fu_m_uri(s, 0, n, 0, 0);
    case FU_R_RELATIVE_REF: return fu_m_relative_ref(s, 0, n, 0);
    case FU_R_HIER_PART: return fu_m_hier_part(s, 0, n, 0, FU_PCHAR);
    case FU_R_RELATIVE_PART: return fu_m_hier_part(s, 0, n, 0, FU_SEGNC);
    case FU_R_SCHEME: return fu_m_scheme(s, 0, n);
    case FU_R_AUTHORITY: return fu_m_authority(s, 0, n, 0);
    case FU_R_USERINFO: return fu_m_run(s, 0, n, FU_USERINFO, 0);
    case FU_R_HOST:
        return (n > 0 && s[0] == '[') ? fu_m_ip_literal(s, 0, n) : fu_m_run(s, 0, n, FU_REGNAME, 0);
    case FU_R_PORT: return fu_m_port(s, 0, n);
    case FU_R_IP_LITERAL: return fu_m_ip_literal(s, 0, n);
    case FU_R_IPVFUTURE: return fu_m_ipvfuture(s, 0, n);
    case FU_R_IPV6ADDRESS: return fu_m_ipv6(s, 0, n);
    case FU_R_H16: return fu_m_h16(s, 0, n);
    case FU_R_LS32: return fu_m_ls32(s, 0, n);
    case FU_R_IPV4ADDRESS: return fu_m_ipv4(s, 0, n);
    case FU_R_DEC_OCTET: return fu_m_dec_octet(s, 0, n);
    case FU_R_REG_NAME: return fu_m_run(s, 0, n, FU_REGNAME, 0);
    case FU_R_PATH: return fu_m_path(s, 0, n, 0);
    case FU_R_PATH_ABEMPTY: return fu_m_path_abempty(s, 0, n, 0);
    case FU_R_PATH_ABSOLUTE: return fu_m_path_absolute(s, 0, n, 0);
    case FU_R_PATH_NOSCHEME: return fu_m_path_rootless(s, 0, n, 0, FU_SEGNC);
    case FU_R_PATH_ROOTLESS: return fu_m_path_rootless(s, 0, n, 0, FU_PCHAR);
    case FU_R_PATH_EMPTY: return 0;
    case FU_R_SEGMENT: return fu_m_run(s, 0, n, FU_PCHAR, 0);
    case FU_R_SEGMENT_NZ:
    case FU_R_SEGMENT_NZ_NC:
        i = fu_m_run(s, 0, n, id == FU_R_SEGMENT_NZ ? FU_PCHAR : FU_SEGNC, 0);
        return i == 0 ? FU_M_FAIL(0) : i;
    case FU_R_PCHAR: return fu_m_one(s, 0, n, FU_PCHAR, 0, 1);
    case FU_R_QUERY:
    case FU_R_FRAGMENT: return fu_m_run(s, 0, n, FU_QUERY, 0);
    case FU_R_PCT_ENCODED: return n > 0 && s[0] == '%' ? fu_m_pct(s, 0, n) : FU_M_FAIL(0);
    case FU_R_UNRESERVED: return fu_m_one(s, 0, n, FU_UNRESERVED, 0, 0);
    case FU_R_RESERVED: return fu_m_one(s, 0, n, FU_GEN_DELIM | FU_SUB_DELIM, 0, 0);
    case FU_R_GEN_DELIMS: return fu_m_one(s, 0, n, FU_GEN_DELIM, 0, 0);
    case FU_R_SUB_DELIMS: return fu_m_one(s, 0, n, FU_SUB_DELIM, 0, 0);
    case FU_R_ALPHA: return fu_m_one(s, 0, n, FU_ALPHA, 0, 0);
    case FU_R_DIGIT: return fu_m_one(s, 0, n, FU_DIGIT, 0, 0);
    case FU_R_HEXDIG: return fu_m_one(s, 0, n, FU_HEXDIG, 0, 0);
    case FU_R_IPV6ADDRZ: i = fu_m_ipv6(s, 0, n); return i < 0 ? i : fu_m_zone(s, i, n);
    case FU_R_ZONEID: return fu_m_zone_id(s, 0, n);

    case FU_R_IRI_REFERENCE: return fu_m_uri_reference(s, 0, n, U);
    case FU_R_IRI: return fu_m_uri(s, 0, n, U, 1);
    case FU_R_ABSOLUTE_IRI: return fu_m_uri(s, 0, n, U, 0);
    case FU_R_IRELATIVE_REF: return fu_m_relative_ref(s, 0, n, U);
    case FU_R_IHIER_PART: return fu_m_hier_part(s, 0, n, U, FU_PCHAR);
    case FU_R_IRELATIVE_PART: return fu_m_hier_part(s, 0, n, U, FU_SEGNC);
    case FU_R_IAUTHORITY: return fu_m_authority(s, 0, n, U);
    case FU_R_IUSERINFO: return fu_m_run(s, 0, n, FU_USERINFO, U);
    case FU_R_IHOST:
        return (n > 0 && s[0] == '[') ? fu_m_ip_literal(s, 0, n) : fu_m_run(s, 0, n, FU_REGNAME, U);
    case FU_R_IREG_NAME: return fu_m_run(s, 0, n, FU_REGNAME, U);
    case FU_R_IPATH: return fu_m_path(s, 0, n, U);
    case FU_R_IPATH_ABEMPTY: return fu_m_path_abempty(s, 0, n, U);
    case FU_R_IPATH_ABSOLUTE: return fu_m_path_absolute(s, 0, n, U);
    case FU_R_IPATH_NOSCHEME: return fu_m_path_rootless(s, 0, n, U, FU_SEGNC);
    case FU_R_IPATH_ROOTLESS: return fu_m_path_rootless(s, 0, n, U, FU_PCHAR);
    case FU_R_IPATH_EMPTY: return 0;
    case FU_R_ISEGMENT: return fu_m_run(s, 0, n, FU_PCHAR, U);
    case FU_R_ISEGMENT_NZ:
    case FU_R_ISEGMENT_NZ_NC:
        i = fu_m_run(s, 0, n, id == FU_R_ISEGMENT_NZ ? FU_PCHAR : FU_SEGNC, U);
        return i == 0 ? FU_M_FAIL(0) : i;
    case FU_R_IPCHAR: return fu_m_one(s, 0, n, FU_PCHAR, U, 1);
    case FU_R_IQUERY: return fu_m_run(s, 0, n, FU_QUERY, U | FU_M_EXT_PRIVATE);
    case FU_R_IFRAGMENT: return fu_m_run(s, 0, n, FU_QUERY, U);
    case FU_R_IUNRESERVED: return fu_m_one(s, 0, n, FU_UNRESERVED, U, 0);
    case FU_R_UCSCHAR: return fu_m_one(s, 0, n, 0, U, 0);
    case FU_R_IPRIVATE: return fu_m_one(s, 0, n, 0, FU_M_EXT_PRIVATE, 0);

    case FU_R2_URI_REFERENCE: return fu_m2_uri_reference(s, 0, n);
    case FU_R2_ABSOLUTEURI: return fu_m2_absolute_uri(s, 0, n);
    case FU_R2_RELATIVEURI: return fu_m2_relative_uri(s, 0, n);
    case FU_R2_HIER_PART: return fu_m2_hier_part(s, 0, n);
    case FU_R2_NET_PATH: return fu_m2_net_path(s, 0, n);
    case FU_R2_ABS_PATH: return fu_m2_abs_path(s, 0, n);
    case FU_R2_REL_PATH: return fu_m2_rel_path(s, 0, n);
    case FU_R2_REL_SEGMENT: return fu_m2_rel_segment(s, 0, n);
    case FU_R2_SCHEME: return fu_m_scheme(s, 0, n);
    case FU_R2_AUTHORITY: return fu_m_run(s, 0, n, FU_REGNAME2396, 0);
    case FU_R2_REG_NAME: i = fu_m_run(s, 0, n, FU_REGNAME2396, 0); return i == 0 ? FU_M_FAIL(0) : i;
    case FU_R2_SERVER: return fu_m2_server(s, 0, n);
    case FU_R2_USERINFO: return fu_m_run(s, 0, n, FU_USERINFO2396, 0);
    case FU_R2_HOSTPORT: return fu_m2_hostport(s, 0, n);
    case FU_R2_HOST: return fu_m2_host(s, 0, n);
    case FU_R2_HOSTNAME: return fu_m2_hostname(s, 0, n);
    case FU_R2_DOMAINLABEL: return fu_m2_label(s, 0, n, 0);
    case FU_R2_TOPLABEL: return fu_m2_label(s, 0, n, 1);
    case FU_R2_IPV4ADDRESS: return fu_m2_ipv4(s, 0, n);
    case FU_R2_PORT: return fu_m_port(s, 0, n);
    case FU_R2_PATH: return fu_m2_path(s, 0, n);
    case FU_R2_PATH_SEGMENTS: return fu_m2_run(s, 0, n, FU_PCHAR2396, ';', '/');
    case FU_R2_SEGMENT: return fu_m2_run(s, 0, n, FU_PCHAR2396, ';', -1);
    case FU_R2_PARAM: return fu_m_run(s, 0, n, FU_PCHAR2396, 0);
    case FU_R2_PCHAR: return fu_m_one(s, 0, n, FU_PCHAR2396, 0, 1);
    case FU_R2_QUERY:
    case FU_R2_FRAGMENT: return fu_m_run(s, 0, n, FU_URIC2396, 0);
    case FU_R2_URIC: return fu_m_one(s, 0, n, FU_URIC2396, 0, 1);
    case FU_R2_URIC_NO_SLASH: return fu_m_one(s, 0, n, FU_URICNS2396, 0, 1);
    case FU_R2_OPAQUE_PART: return fu_m2_opaque_part(s, 0, n);
    case FU_R2_RESERVED: return fu_m_one(s, 0, n, FU_R2396, 0, 0);
    case FU_R2_UNRESERVED: return fu_m_one(s, 0, n, FU_U2396, 0, 0);
    case FU_R2_MARK:
        return (n > 0 && FU_IS(s[0], FU_U2396) && !FU_IS(s[0], FU_M_ALNUM)) ? 1 : FU_M_FAIL(0);
    case FU_R2_ESCAPED: return n > 0 && s[0] == '%' ? fu_m_pct(s, 0, n) : FU_M_FAIL(0);
    case FU_R2_HEX: return fu_m_one(s, 0, n, FU_HEXDIG, 0, 0);
    case FU_R2_ALPHANUM: return fu_m_one(s, 0, n, FU_M_ALNUM, 0, 0);
    case FU_R2_ALPHA: return fu_m_one(s, 0, n, FU_ALPHA, 0, 0);
    case FU_R2_LOWALPHA: return (n > 0 && s[0] >= 'a' && s[0] <= 'z') ? 1 : FU_M_FAIL(0);
    case FU_R2_UPALPHA: return (n > 0 && s[0] >= 'A' && s[0] <= 'Z') ? 1 : FU_M_FAIL(0);
    case FU_R2_DIGIT: return fu_m_one(s, 0, n, FU_DIGIT, 0, 0);
    }
    return FU_M_FAIL(0);
}

/* -1 when s[0, n) matches rule id, else the error position. */
static inline ptrdiff_t fu_rule_check(int id, const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t r = fu_rule_scan(id, s, n);
    if (r == n)
        return -1;
    return r >= 0 ? r : FU_M_FAILPOS(r);
}

/* host_type: 0 none, else what RFC 3986 §3.2.2 calls the host. */
enum { FU_HOST_NONE, FU_HOST_IPV6, FU_HOST_IPVFUTURE, FU_HOST_IPV4, FU_HOST_REG_NAME };

static inline int fu_host_type(const uint8_t *s, ptrdiff_t n)
{
    if (n > 0 && s[0] == '[')
        return fu_m_ip_literal(s, 0, n) != n ? FU_HOST_NONE
               : (s[1] | 0x20) == 'v'        ? FU_HOST_IPVFUTURE
                                             : FU_HOST_IPV6;
    if (fu_m_ipv4(s, 0, n) == n)
        return FU_HOST_IPV4;
    return fu_m_run(s, 0, n, FU_REGNAME, 0) == n ? FU_HOST_REG_NAME : FU_HOST_NONE;
}

#endif /* FASTURI_RULES_H */
