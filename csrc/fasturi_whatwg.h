/* fasturi_whatwg.h: the WHATWG URL Standard's basic URL parser for the
   common case, which it parses exactly; the caller hands every other input
   to the reference (_whatwg_py), so results are exact by construction.

   Taken (anything else returns 0, "not mine"; or -1 where the C path
   knows the input fails, see fu_ww_parse):
   - UTF-8 without C0 controls after the leading and trailing C0-control-
     or-space trim (no tab or newline to remove) and without backslash;
     non-ASCII only where it is percent-encoded (not in a host);
   - a scheme: http, https, ws, wss, ftp after any number of slashes (two
     or more when the base has the same scheme: fewer is a relative
     reference); file with "//" and a host, none, or localhost, or with a
     path (a Windows drive letter as the first segment), no base of file; another scheme but blob
     with an authority, a path or an opaque path;
   - no scheme, against a base with a special scheme but file (parsed here
     first): "//authority...", "/path", "?query", "#fragment", "", or a
     relative path;
   - an authority (userinfo percent-encoded), a non-empty host: an IPv6
     address (parsed and serialized here); for a special scheme
     the host holds no forbidden domain code point (so no "%": no percent-
     decoding), no label starting "xn--", and is a domain whose last label
     does not start with a digit or a plain dotted-decimal IPv4 address
     (four parts, no leading zero, each at most 255: it serializes as
     written); for another scheme no forbidden host code point (opaque host,
     kept as written); a port of digits at most 65535;
   - a path without "%2e" (so "." and ".." are the only dot segments).

   Input: (pointer, length), no NUL termination.  out has room for
   fu_ww_room(n, base length) bytes.  The URL is serialized into out and
   its parts' offsets into *u.

   Before all that, fu_ww_parse tries fu_ww_same: most URLs in the wild
   are http or https URLs already written as the serializer writes them,
   and it proves that in one pass over the input, copying it (see
   "URLs that serialize to themselves" below). */
#ifndef FASTURI_WHATWG_H
#define FASTURI_WHATWG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

/* The parser's steps, inlined into it whatever the compiler's size limits
   say: each is called from one or two places, and a call costs a URL's
   worth of register saves. */
#if defined(__GNUC__) || defined(__clang__)
#define FU_WW_STEP static inline __attribute__((always_inline))
#else
#define FU_WW_STEP static inline
#endif

enum { FU_WW_OTHER = 0, FU_WW_HTTP, FU_WW_HTTPS, FU_WW_WS, FU_WW_WSS, FU_WW_FTP, FU_WW_FILE };

typedef struct {
    ptrdiff_t len;                  /* the href's length */
    ptrdiff_t scheme_end;           /* the ":" after the scheme */
    ptrdiff_t user_start, user_end; /* the username (empty: 0, 0) */
    ptrdiff_t pass_start, pass_end; /* the password (empty: 0, 0) */
    ptrdiff_t host_start, host_end; /* the host serialized; -1, -1: null */
    ptrdiff_t path_start, path_end; /* the path serialized */
    ptrdiff_t query_start;          /* the "?", or -1 (null query) */
    ptrdiff_t frag_start;           /* the "#", or -1 (null fragment) */
    int32_t port;                   /* -1: null */
    int scheme;                     /* FU_WW_* */
    /* fu_ww_parse_host's: the host serialized by the caller (NULL: none),
       and where fu_ww_parse found a host it leaves to the caller (the
       input's bytes [need_start, need_end)) */
    const uint8_t *given;
    ptrdiff_t given_len;
    ptrdiff_t need_start, need_end;
} fu_ww_url;

/* The percent-encode sets (URL Standard §1.3): one bit each. */
#define FU_WW_FRAG 1u
#define FU_WW_QUERY 2u
#define FU_WW_SQUERY 4u
#define FU_WW_PATH 8u
#define FU_WW_USERINFO 16u

/* Bytes the parser never takes (C0 controls: no tab or newline removal;
   backslash: no special-scheme slash), and the bytes that end a path
   segment or need a look ("%").  DEL and the bytes of UTF-8 beyond ASCII
   are taken outside hosts: every percent-encode set has them. */
#define FU_WW_BAD 32u
#define FU_WW_PSTOP 64u

/* Per byte: the percent-encode sets it is in, FU_WW_BAD, FU_WW_PSTOP
   (fu_ww_init fills it). */
static uint8_t fu_ww_enc[256];

/* Per byte, for a special host: what the host loop does with it. */
enum {
    FU_WW_H_COPY = 0, /* a lowercase letter, digit, or other plain code point */
    FU_WW_H_UPPER,    /* an uppercase letter: lowercased */
    FU_WW_H_DOT,      /* a label ends */
    FU_WW_H_HYPHEN,   /* might be the end of "xn--" */
    FU_WW_H_END,      /* "/", "?", "#": the authority ends */
    FU_WW_H_COLON,    /* the port follows */
    FU_WW_H_OTHER     /* "@", "[", "%", a forbidden, bad or non-ASCII byte: the slow path */
};
static uint8_t fu_ww_hostc[256];

/* Whether the CPU has SSSE3 (fu_ww_init asks): fu_ww_same's scan uses it. */
static int fu_ww_ssse3;

/* The tables above; call once before fu_ww_parse. */
static inline void fu_ww_init(void)
{
#if FU_SSSE3_DISPATCH
    fu_ww_ssse3 = fu_has_ssse3();
#endif
    static const char frag[] = " \"<>`";
    static const char query[] = " \"#<>";
    static const char path_extra[] = "?^`{}";
    static const char userinfo_extra[] = "/:;=@[\\]|";
    static const char forbidden[] = " #/:<>?@[\\]^|%";
    for (int c = 0; c < 256; c++) {
        uint8_t e = 0;
        if (c < 0x20 || c > 0x7E)
            e |= FU_WW_FRAG | FU_WW_QUERY | FU_WW_SQUERY | FU_WW_PATH | FU_WW_USERINFO;
        if (c < 0x20 || c == '\\')
            e |= FU_WW_BAD;
        if (c == '/' || c == '?' || c == '#' || c == '%')
            e |= FU_WW_PSTOP;
        if (c && strchr(frag, c))
            e |= FU_WW_FRAG;
        if (c && strchr(query, c))
            e |= FU_WW_QUERY | FU_WW_SQUERY | FU_WW_PATH | FU_WW_USERINFO;
        if (c == '\'')
            e |= FU_WW_SQUERY;
        if (c && strchr(path_extra, c))
            e |= FU_WW_PATH | FU_WW_USERINFO;
        if (c && strchr(userinfo_extra, c))
            e |= FU_WW_USERINFO;
        fu_ww_enc[c] = e;
        uint8_t h = FU_WW_H_COPY;
        if (c >= 'A' && c <= 'Z')
            h = FU_WW_H_UPPER;
        else if (c == '.')
            h = FU_WW_H_DOT;
        else if (c == '-')
            h = FU_WW_H_HYPHEN;
        else if (c == '/' || c == '?' || c == '#')
            h = FU_WW_H_END;
        else if (c == ':')
            h = FU_WW_H_COLON;
        else if ((e & FU_WW_BAD) || c > 0x7E || (c && strchr(forbidden, c)))
            h = FU_WW_H_OTHER;
        fu_ww_hostc[c] = h;
    }
}

static inline ptrdiff_t fu_ww_room(ptrdiff_t n, ptrdiff_t base_len)
{
    /* percent-encoding triples a byte; a "/" before the first segment and
       one after a final dot segment, "://" that the input may lack, a port
       written shorter than read, an IPv6 address written longer than read
       ("[::]", 4 bytes, is at most 41): 64 covers them. */
    return 3 * n + base_len + 64;
}

static inline int fu_ww_alpha(uint8_t c) { return (uint8_t)((c | 0x20) - 'a') < 26; }
static inline int fu_ww_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }

/* A forbidden host code point (0x20..0x7E, the only bytes taken). */
static inline int fu_ww_forbidden_host(uint8_t c)
{
    switch (c) {
    case ' ':
    case '#':
    case '/':
    case ':':
    case '<':
    case '>':
    case '?':
    case '@':
    case '[':
    case '\\':
    case ']':
    case '^':
    case '|': return 1;
    default: return 0;
    }
}

/* s[a..b) percent-encoded with set into o; NULL at a byte never taken. */
static inline uint8_t *fu_ww_encode(const uint8_t *s, ptrdiff_t a, ptrdiff_t b, unsigned set,
                                    uint8_t *o)
{
    static const char hex[] = "0123456789ABCDEF";
    for (ptrdiff_t i = a; i < b; i++) {
        uint8_t c = s[i];
        uint8_t e = fu_ww_enc[c];
        if (!(e & (set | FU_WW_BAD))) {
            *o++ = c;
        } else if (e & FU_WW_BAD) {
            return NULL;
        } else {
            o[0] = '%';
            o[1] = (uint8_t)hex[c >> 4];
            o[2] = (uint8_t)hex[c & 15];
            o += 3;
        }
    }
    return o;
}

/* A special scheme's number, from the scheme lowercased. */
static inline int fu_ww_special(const uint8_t *p, ptrdiff_t n)
{
    if (n == 4 && memcmp(p, "http", 4) == 0)
        return FU_WW_HTTP;
    if (n == 5 && memcmp(p, "https", 5) == 0)
        return FU_WW_HTTPS;
    if (n == 2 && memcmp(p, "ws", 2) == 0)
        return FU_WW_WS;
    if (n == 3 && memcmp(p, "wss", 3) == 0)
        return FU_WW_WSS;
    if (n == 3 && memcmp(p, "ftp", 3) == 0)
        return FU_WW_FTP;
    if (n == 4 && memcmp(p, "file", 4) == 0)
        return FU_WW_FILE;
    return FU_WW_OTHER;
}

static inline int32_t fu_ww_default_port(int scheme)
{
    switch (scheme) {
    case FU_WW_HTTP:
    case FU_WW_WS: return 80;
    case FU_WW_HTTPS:
    case FU_WW_WSS: return 443;
    case FU_WW_FTP: return 21;
    default: return -1;
    }
}

/* Whether a special host (lowercased, in o[a..b)) is a domain that the
   host parser keeps as written: its last label (a trailing empty one left
   out) does not start with a digit, so the "ends in a number" checker says
   no; or it is four dotted-decimal parts without leading zeros, each at
   most 255, which the IPv4 parser and serializer give back unchanged. */
static inline int fu_ww_plain_host(const uint8_t *o, ptrdiff_t a, ptrdiff_t b)
{
    ptrdiff_t e = b;
    if (e - a > 1 && o[e - 1] == '.')
        e--;
    ptrdiff_t l = e;
    while (l > a && o[l - 1] != '.')
        l--;
    if (l == e || !fu_ww_digit(o[l])) {
        /* a label starting "xn--" would need UTS #46's verification */
        for (ptrdiff_t i = a; i + 4 <= b; i++) {
            if ((i == a || o[i - 1] == '.') && o[i] == 'x' && o[i + 1] == 'n' && o[i + 2] == '-'
                && o[i + 3] == '-')
                return 0;
        }
        return 1;
    }
    if (e != b)
        return 0; /* a trailing dot: the serializer drops it */
    int parts = 0;
    ptrdiff_t i = a;
    for (;;) {
        ptrdiff_t j = i;
        unsigned v = 0;
        while (j < b && fu_ww_digit(o[j]) && j - i < 4)
            v = v * 10 + (unsigned)(o[j++] - '0');
        if (j == i || j - i > 3 || v > 255 || (o[i] == '0' && j - i > 1))
            return 0;
        parts++;
        if (j == b)
            break;
        if (o[j] != '.' || parts == 4)
            return 0;
        i = j + 1;
    }
    return parts == 4;
}

/* The IPv6 parser over s[0..n) (between the brackets); 0 on failure (the
   reference then names it). */
static inline int fu_ww_ipv6_parse(const uint8_t *s, ptrdiff_t n, uint16_t *address)
{
    int piece = 0, compress = -1;
    ptrdiff_t p = 0;
    memset(address, 0, 8 * sizeof *address);
    if (p < n && s[p] == ':') {
        if (p + 1 >= n || s[p + 1] != ':')
            return 0;
        p += 2;
        compress = ++piece;
    }
    while (p < n) {
        if (piece == 8)
            return 0;
        if (s[p] == ':') {
            if (compress != -1)
                return 0;
            p++;
            compress = ++piece;
            continue;
        }
        unsigned value = 0;
        int length = 0;
        while (length < 4 && p < n && fu_hexval(s[p]) >= 0) {
            value = value * 16 + (unsigned)fu_hexval(s[p]);
            p++;
            length++;
        }
        if (p < n && s[p] == '.') {
            /* an IPv4 address in the last two pieces */
            if (length == 0)
                return 0;
            p -= length;
            if (piece > 6)
                return 0;
            int seen = 0;
            while (p < n) {
                int v = -1;
                if (seen > 0) {
                    if (s[p] == '.' && seen < 4)
                        p++;
                    else
                        return 0;
                }
                if (p >= n || !fu_ww_digit(s[p]))
                    return 0;
                while (p < n && fu_ww_digit(s[p])) {
                    int d = s[p] - '0';
                    if (v == -1)
                        v = d;
                    else if (v == 0)
                        return 0;
                    else
                        v = v * 10 + d;
                    if (v > 255)
                        return 0;
                    p++;
                }
                address[piece] = (uint16_t)(address[piece] * 0x100 + v);
                seen++;
                if (seen == 2 || seen == 4)
                    piece++;
            }
            if (seen != 4)
                return 0;
            break;
        } else if (p < n && s[p] == ':') {
            p++;
            if (p >= n)
                return 0;
        } else if (p < n) {
            return 0;
        }
        address[piece++] = (uint16_t)value;
    }
    if (compress != -1) {
        int swaps = piece - compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            uint16_t x = address[piece];
            address[piece] = address[compress + swaps - 1];
            address[compress + swaps - 1] = x;
            piece--;
            swaps--;
        }
    } else if (piece != 8) {
        return 0;
    }
    return 1;
}

/* The IPv6 serializer: the first longest run of two or more zero pieces is
   "::", the pieces lowercase hex without leading zeros.  Returns the end. */
static inline uint8_t *fu_ww_ipv6_write(const uint16_t *a, uint8_t *o)
{
    static const char hex[] = "0123456789abcdef";
    int compress = -1, best = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && a[j] == 0)
            j++;
        if (j - i > best) {
            best = j - i;
            compress = i;
        }
        i = j > i ? j : i + 1;
    }
    int ignore0 = 0;
    for (int i = 0; i < 8; i++) {
        if (ignore0 && a[i] == 0)
            continue;
        ignore0 = 0;
        if (compress == i) {
            *o++ = ':';
            if (i == 0)
                *o++ = ':';
            ignore0 = 1;
            continue;
        }
        int shift = 12;
        while (shift > 0 && ((a[i] >> shift) & 15) == 0)
            shift -= 4;
        for (; shift >= 0; shift -= 4)
            *o++ = (uint8_t)hex[(a[i] >> shift) & 15];
        if (i != 7)
            *o++ = ':';
    }
    return o;
}

/* The port state over s[c+1..q) (c: the ":"), written at out[*po].  0: a
   byte that is not a digit, or a number past 65535 (port-invalid,
   port-out-of-range: failure where s[c+1..q) is the port as the parser
   sees it, no tab or newline to remove and q the authority's end). */
static inline int fu_ww_port(const uint8_t *s, ptrdiff_t c, ptrdiff_t q, int scheme, uint8_t *out,
                             ptrdiff_t *po, fu_ww_url *u)
{
    u->port = -1;
    if (c < 0 || c + 1 == q)
        return 1;
    int32_t v = 0;
    for (ptrdiff_t i = c + 1; i < q; i++) {
        if (!fu_ww_digit(s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
        if (v > 65535)
            return 0;
    }
    if (v != fu_ww_default_port(scheme)) {
        ptrdiff_t o = *po;
        u->port = v;
        char digits[8];
        int k = 0;
        do {
            digits[k++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        out[o++] = ':';
        while (k)
            out[o++] = (uint8_t)digits[--k];
        *po = o;
    }
    return 1;
}

/* What the authority functions return where the input fails to parse,
   the C path knows (the reference says why); and where the host is one
   the C path leaves to the caller's host parser (u->need_start, need_end). */
#define FU_WW_FAILS (-2)
#define FU_WW_NEEDS_HOST (-3)

/* The authority state, host state and port state over s[p..n), the
   general way: userinfo, opaque hosts.  Writes the userinfo, host and port
   serialized at out[*po], returns the end of the authority, -1 (not
   mine), or FU_WW_FAILS: no byte to remove or never taken (C0 controls,
   backslash) is in the authority, so its port is the port state's, and an
   empty special host is host-missing. */
static inline ptrdiff_t fu_ww_authority_general(const uint8_t *s, ptrdiff_t p, ptrdiff_t n,
                                                int scheme, uint8_t *out, ptrdiff_t *po,
                                                fu_ww_url *u)
{
    ptrdiff_t q = p, at = -1, colon = -1;
    while (q < n && s[q] != '/' && s[q] != '?' && s[q] != '#') {
        if (fu_ww_enc[s[q]] & FU_WW_BAD)
            return -1;
        if (s[q] == '@')
            at = q;
        q++;
    }
    ptrdiff_t o = *po;
    if (at >= 0) {
        /* the userinfo: up to the last "@" (an earlier one is "%40"), the
           password after its first ":" */
        ptrdiff_t sep = p;
        while (sep < at && s[sep] != ':')
            sep++;
        if (sep > p || sep + 1 < at) {
            u->user_start = o;
            o = fu_ww_encode(s, p, sep, FU_WW_USERINFO, out + o) - out;
            u->user_end = o;
            if (sep + 1 < at) {
                out[o++] = ':';
                u->pass_start = o;
                o = fu_ww_encode(s, sep + 1, at, FU_WW_USERINFO, out + o) - out;
                u->pass_end = o;
            }
            out[o++] = '@';
        }
        p = at + 1;
    }
    if (p < q && s[p] == '[') {
        /* an IPv6 address: "[" to the first "]", then the port or nothing */
        ptrdiff_t r = p + 1;
        while (r < q && s[r] != ']')
            r++;
        if (r == q || (r + 1 < q && s[r + 1] != ':'))
            return -1;
        /* the host is "[" to "]" here, so that the IPv6 parser fails is
           that the host parser does (the reference names why) */
        uint16_t address[8];
        if (!fu_ww_ipv6_parse(s + p + 1, r - p - 1, address))
            return FU_WW_FAILS;
        u->host_start = o;
        out[o++] = '[';
        o = fu_ww_ipv6_write(address, out + o) - out;
        out[o++] = ']';
        u->host_end = o;
        if (!fu_ww_port(s, r + 1 < q ? r + 1 : -1, q, scheme, out, &o, u))
            return FU_WW_FAILS;
        *po = o;
        return q;
    }
    for (ptrdiff_t i = p; i < q; i++) {
        if (s[i] == '[')
            return -1;
        if (s[i] == ':') {
            colon = i;
            break;
        }
    }
    ptrdiff_t h = colon < 0 ? q : colon;
    if (h == p) /* host-missing, or an empty opaque host */
        return scheme != FU_WW_OTHER ? FU_WW_FAILS : -1;
    u->host_start = o;
    if (u->given != NULL) {
        memcpy(out + o, u->given, (size_t)u->given_len);
        o += u->given_len;
        u->host_end = o;
    } else {
        /* a host beyond ASCII (IDNA, the C0 control percent-encode set),
           with a "%" to decode, a forbidden code point, a number or "xn--"
           label is the host parser's, whole */
        u->need_start = p;
        u->need_end = h;
        for (ptrdiff_t i = p; i < h; i++) {
            uint8_t c = s[i];
            if (fu_ww_forbidden_host(c) || c > 0x7E)
                return FU_WW_NEEDS_HOST;
            if (scheme != FU_WW_OTHER) {
                if (c == '%')
                    return FU_WW_NEEDS_HOST;
                if ((uint8_t)(c - 'A') < 26)
                    c |= 0x20;
            }
            out[o++] = c;
        }
        u->host_end = o;
        if (scheme != FU_WW_OTHER && !fu_ww_plain_host(out, u->host_start, o))
            return FU_WW_NEEDS_HOST;
    }
    if (!fu_ww_port(s, colon, q, scheme, out, &o, u))
        return FU_WW_FAILS;
    *po = o;
    return q;
}

/* The authority of s[p..n): a special scheme's host of plain code points
   in one pass (lowercased as copied), anything else the general way. */
FU_WW_STEP ptrdiff_t fu_ww_authority(const uint8_t *s, ptrdiff_t p, ptrdiff_t n, int scheme,
                                     uint8_t *out, ptrdiff_t *po, fu_ww_url *u)
{
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    if (scheme == FU_WW_OTHER || u->given != NULL)
        return fu_ww_authority_general(s, p, n, scheme, out, po, u);
    ptrdiff_t o = *po, hs = o, label = o, q = p;
    uint8_t k = FU_WW_H_END;
#if FU_SSE2
    /* 16 bytes at a time while 16 remain: letters (lowercased), digits,
       "." and "-" copied, up to the first other byte, where the byte loop
       goes on (its label found again).  A "--" in them might be a label's
       "xn--": the byte loop's check, over what was copied. */
    if (n - q >= 16) {
        unsigned pairs = 0, carry = 0;
        ptrdiff_t dot = -1; /* the last "." copied */
        while (n - q >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + q));
            __m128i up = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
                                       _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
            __m128i lv = _mm_or_si128(v, _mm_and_si128(up, _mm_set1_epi8(0x20)));
            __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lv, _mm_set1_epi8('a' - 1)),
                                           _mm_cmplt_epi8(lv, _mm_set1_epi8('z' + 1)));
            __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                          _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
            __m128i hy = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
            __m128i plain = _mm_or_si128(_mm_or_si128(letter, digit),
                                         _mm_or_si128(hy, _mm_cmpeq_epi8(v, _mm_set1_epi8('.'))));
            unsigned good = (unsigned)_mm_movemask_epi8(plain);
            unsigned h = (unsigned)_mm_movemask_epi8(hy);
            _mm_storeu_si128((__m128i *)(void *)(out + o), lv);
            unsigned take = fu_ctz(~good | 0x10000u);
            unsigned below = (1u << take) - 1;
            unsigned dots =
                (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.'))) & below;
            ptrdiff_t last = o + (ptrdiff_t)fu_top(dots | 1u);
            dot = dots != 0 ? last : dot; /* (a select, not a branch) */
            h &= below;
            pairs |= (h & ((h << 1) | carry));
            q += take;
            o += take;
            if (take < 16)
                break;
            carry = h >> 15;
        }
        label = dot < 0 ? hs : dot + 1;
        if (pairs != 0) {
            for (ptrdiff_t i = hs; i + 4 <= o; i++)
                if ((i == hs || out[i - 1] == '.') && memcmp(out + i, "xn--", 4) == 0)
                    goto general;
        }
    }
#endif
    for (; q < n; q++) {
        uint8_t c = s[q];
        k = fu_ww_hostc[c];
        if (k == FU_WW_H_COPY) {
            out[o++] = c;
        } else if (k == FU_WW_H_UPPER) {
            out[o++] = c | 0x20;
        } else if (k == FU_WW_H_DOT) {
            out[o++] = c;
            label = o;
        } else if (k == FU_WW_H_HYPHEN) {
            /* a label starting "xn--" would need UTS #46's verification */
            if (o - label == 3 && out[label] == 'x' && out[label + 1] == 'n'
                && out[label + 2] == '-')
                goto general;
            out[o++] = c;
        } else {
            break;
        }
    }
    if ((q < n && k == FU_WW_H_OTHER) || o == hs)
        goto general;
    u->host_start = hs;
    u->host_end = o;
    /* the last label, or the one before a trailing dot, starting with a
       digit: the "ends in a number" checker's question */
    if ((label == o || fu_ww_digit(out[label])) && !fu_ww_plain_host(out, hs, o))
        goto general;
    ptrdiff_t colon = -1;
    if (q < n && k == FU_WW_H_COLON) {
        colon = q;
        while (q < n && s[q] != '/' && s[q] != '?' && s[q] != '#')
            q++;
    }
    if (!fu_ww_port(s, colon, q, scheme, out, &o, u))
        goto general;
    *po = o;
    return q;
general:
    /* an "@" after a ":" is userinfo, not a port; the general way decides
       every case that is not a plain host (and fails those that fail) */
    return fu_ww_authority_general(s, p, n, scheme, out, po, u);
}

#if FU_SSE2
/* The bytes of p[0..16) a path segment (stops: "/", "?", "#", "%") or a
   query (special or not: "'" counted for both) cannot copy as they are,
   one bit each: C0 controls, space, DEL and beyond (signed: below 0x21),
   the percent-encode sets' others, backslash. */
static inline unsigned fu_ww_attention16(const uint8_t *p, int path)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
#define FU_WW_EQ(c) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c)))
    FU_WW_EQ('"');
    FU_WW_EQ('#');
    FU_WW_EQ('<');
    FU_WW_EQ('>');
    FU_WW_EQ('\\');
    if (path) {
        FU_WW_EQ('%');
        FU_WW_EQ('/');
        FU_WW_EQ('?');
        FU_WW_EQ('^');
        FU_WW_EQ('`');
        FU_WW_EQ('{');
        FU_WW_EQ('}');
    } else {
        FU_WW_EQ('\'');
    }
#undef FU_WW_EQ
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* The path state over the plain run of s[*pq..): 16-byte blocks with no
   byte a segment needs a look at (fu_ww_attention16's, less "/", which
   only ends a segment) and no segment starting with "." (a dot segment,
   or not), copied as they are, "/" written first at out[*po].  Returns 1
   where the path ends in the run (at "?", "#" or the end: *pq there, *po
   the path's end); else 0, *pq and *po at the start of the last segment
   not known to be plain (at its "/" in out), where the segment loop goes
   on, writing what the copy wrote up to there.  The last block is the
   input's last 16 bytes, the bits of those already read dropped. */
FU_WW_STEP int fu_ww_path_plain(const uint8_t *s, ptrdiff_t *pq, ptrdiff_t n, uint8_t *out,
                                ptrdiff_t *po)
{
#if FU_SSE2
    ptrdiff_t q0 = *pq, r = q0, d = *po + 1 - r; /* out index of an input byte copied */
    ptrdiff_t segq = r, sego = *po;
    unsigned start = 1; /* the block's first byte starts a segment */
    out[sego] = '/';
    for (;;) {
        ptrdiff_t left = n - r;
        if (left == 0) {
            *pq = n;
            *po = n + d;
            return 1;
        }
        if (n < 16) /* (and so left too) */
            break;
        /* (selects, not branches: the block being the last is what a
           branch predictor cannot guess) */
        ptrdiff_t over = 16 - left; /* max(over, 0), in arithmetic */
        unsigned shift = (unsigned)(over & ~(over >> (8 * sizeof over - 1)));
        unsigned live = 0xFFFFu >> shift;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + r - shift));
        __m128i end = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('#')));
        __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
#define FU_WW_EQ(c) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c)))
        FU_WW_EQ('"');
        FU_WW_EQ('%');
        FU_WW_EQ('<');
        FU_WW_EQ('>');
        FU_WW_EQ('\\');
        FU_WW_EQ('^');
        FU_WW_EQ('`');
        FU_WW_EQ('{');
        FU_WW_EQ('}');
#undef FU_WW_EQ
        unsigned ends = (unsigned)_mm_movemask_epi8(end) >> shift;
        unsigned look = (unsigned)_mm_movemask_epi8(m) >> shift;
        unsigned slashes =
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('/'))) >> shift;
        unsigned dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.'))) >> shift;
        unsigned stop = (look | ends | (dots & ((slashes << 1) | start))) & live;
        if (r - (ptrdiff_t)shift >= q0) /* (what goes before r is a copy too) */
            _mm_storeu_si128((__m128i *)(void *)(out + r + d - (ptrdiff_t)shift), v);
        else
            memcpy(out + r + d, s + r, (size_t)left);
        if ((stop == 0) & (left > 16)) {
            start = (slashes >> 15) & 1u;
            r += 16;
            continue;
        }
        /* the first byte to look at, or (none) the end: a "?", "#" or the
           end ends the path */
        unsigned k = fu_ctz(stop | (live + 1));
        if (((ends | (live + 1)) >> k) & 1u) {
            *pq = r + k;
            *po = r + k + d;
            return 1;
        }
        slashes &= (1u << k) - 1;
        if (slashes != 0) {
            unsigned j = fu_top(slashes);
            segq = r + (ptrdiff_t)j + 1;
            sego = r + (ptrdiff_t)j + d;
        }
        break;
    }
    *pq = segq;
    *po = sego;
    return 0;
#else
    (void)s;
    (void)pq;
    (void)n;
    (void)out;
    (void)po;
    return 0;
#endif
}

/* The path state from s[q], appending segments to the path in
   out[path_start..*po); stops at "?", "#" or the end, returned (-1: not
   mine). */
FU_WW_STEP ptrdiff_t fu_ww_path(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                ptrdiff_t path_start, ptrdiff_t *po, int file)
{
    static const char hex[] = "0123456789ABCDEF";
    ptrdiff_t o = *po;
    /* (a file URL's first segment may be a Windows drive letter) */
    if (!file && fu_ww_path_plain(s, &q, n, out, &o)) {
        *po = o;
        return q;
    }
    for (;;) {
        ptrdiff_t seg = o, r = q;
        out[o++] = '/';
        for (; r < n; r++) {
#if FU_SSE2
            /* 16 bytes at a time while 16 remain: copied whole, and the
               output moves on to the first that needs a look.  Writing 16
               bytes is in room: 16 input bytes remain, each with room for
               3 (fu_ww_room). */
            while (n - r >= 16) {
                unsigned m = fu_ww_attention16(s + r, 1);
                memcpy(out + o, s + r, 16);
                if (m == 0) {
                    o += 16;
                    r += 16;
                    continue;
                }
                unsigned k = fu_ctz(m);
                o += k;
                r += k;
                break;
            }
            if (r >= n)
                break;
#endif
            uint8_t c = s[r];
            uint8_t e = fu_ww_enc[c];
            if (!(e & (FU_WW_PATH | FU_WW_BAD | FU_WW_PSTOP))) {
                out[o++] = c;
                continue;
            }
            if (e & FU_WW_BAD)
                return -1;
            if (e & FU_WW_PSTOP) {
                if (c != '%')
                    break;
                if (r + 2 < n && s[r + 1] == '2' && (s[r + 2] | 0x20) == 'e')
                    return -1; /* a percent-encoded dot segment */
                out[o++] = c;
                continue;
            }
            out[o] = '%';
            out[o + 1] = (uint8_t)hex[c >> 4];
            out[o + 2] = (uint8_t)hex[c & 15];
            o += 3;
        }
        int slash = r < n && s[r] == '/';
        ptrdiff_t len = r - q;
        if (len <= 2) {
            /* a file URL's first segment that is a Windows drive letter is
               normalized ("C|" is "C:") */
            if (file && len == 2 && seg == path_start && fu_ww_alpha(s[q])
                && (s[q + 1] == ':' || s[q + 1] == '|'))
                out[seg + 2] = ':';
            if (len == 2 && s[q] == '.' && s[q + 1] == '.') {
                /* shorten the path: its last item goes, if any, but a file
                   URL's path of one normalized Windows drive letter stays */
                o = seg;
                if (!(file && o - path_start == 3 && fu_ww_alpha(out[path_start + 1])
                      && out[path_start + 2] == ':')) {
                    while (o > path_start && out[o - 1] != '/')
                        o--;
                    if (o > path_start)
                        o--;
                }
                if (!slash)
                    out[o++] = '/';
            } else if (len == 1 && s[q] == '.') {
                o = seg;
                if (!slash)
                    out[o++] = '/';
            }
        }
        if (!slash) {
            *po = o;
            return r;
        }
        q = r + 1;
    }
}

/* The query state and fragment state from s[q]; 0 at a byte never taken. */
/* The plain run of a query (frag 0) or fragment (frag 1) from s[q]: the
   bytes up to the first its loop must look at (fu_ww_attention16's for a
   query; a fragment's: C0 controls, space, '"', "<", ">", "`", DEL and
   beyond, and backslash, never taken) or the end, copied to out[q + d...) 16 at a time, the last block
   the input's last 16 bytes.  Returns where the run ends. */
FU_WW_STEP ptrdiff_t fu_ww_plain_run(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                     ptrdiff_t d, int frag)
{
#if FU_SSE2
    ptrdiff_t q0 = q;
    if (n < 16)
        return q;
    for (;;) {
        ptrdiff_t left = n - q;
        if (left == 0)
            return n;
        ptrdiff_t over = 16 - left; /* max(over, 0), in arithmetic */
        unsigned shift = (unsigned)(over & ~(over >> (8 * sizeof over - 1)));
        unsigned live = 0xFFFFu >> shift;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + q - shift));
        unsigned look;
        if (frag) {
            __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                                     _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('`')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
            look = (unsigned)_mm_movemask_epi8(m);
        } else {
            look = fu_ww_attention16(s + q - shift, 0);
        }
        look = (look >> shift) & live;
        if (q - (ptrdiff_t)shift >= q0) /* (what goes before q is a copy too) */
            _mm_storeu_si128((__m128i *)(void *)(out + q + d - (ptrdiff_t)shift), v);
        else
            memcpy(out + q + d, s + q, (size_t)left);
        if ((look == 0) & (left > 16)) {
            q += 16;
            continue;
        }
        return q + (ptrdiff_t)fu_ctz(look | (live + 1));
    }
#else
    (void)s;
    (void)n;
    (void)out;
    (void)d;
    (void)frag;
    return q;
#endif
}

/* The query state and fragment state from s[q]; 0 at a byte never taken. */
FU_WW_STEP int fu_ww_tail(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, int scheme, uint8_t *out,
                          ptrdiff_t o, fu_ww_url *u)
{
    static const char hex[] = "0123456789ABCDEF";
    u->query_start = u->frag_start = -1;
    if (q < n && s[q] == '?') {
        unsigned set = (scheme != FU_WW_OTHER ? FU_WW_SQUERY : FU_WW_QUERY) | FU_WW_BAD;
        u->query_start = o;
        out[o++] = '?';
        q++;
        for (;;) {
            ptrdiff_t r = fu_ww_plain_run(s, q, n, out, o - q, 0);
            o += r - q;
            q = r;
            if (q >= n)
                break;
            uint8_t c = s[q];
            uint8_t e = fu_ww_enc[c];
            q++;
            if (!(e & set)) {
                out[o++] = c;
                continue;
            }
            if ((e & FU_WW_BAD))
                return 0;
            if (c == '#') {
                q--;
                break;
            }
            out[o] = '%';
            out[o + 1] = (uint8_t)hex[c >> 4];
            out[o + 2] = (uint8_t)hex[c & 15];
            o += 3;
        }
    }
    if (q < n) { /* s[q] == '#' */
        u->frag_start = o;
        out[o++] = '#';
        q++;
        for (;;) {
            ptrdiff_t r = fu_ww_plain_run(s, q, n, out, o - q, 1);
            o += r - q;
            q = r;
            if (q >= n)
                break;
            uint8_t *e = fu_ww_encode(s, q, q + 1, FU_WW_FRAG, out + o);
            if (e == NULL)
                return 0;
            o = e - out;
            q++;
        }
    }
    u->len = o;
    return 1;
}

/* "http://" and "https://" as the first 7 and 8 bytes of a 64-bit load,
   little-endian, and those of the first 7 (the first 4 or 5 bytes a scheme's
   letters, which | 0x20 lowercases and takes nothing else to). */
#define FU_WW_HEAD_HTTP 0x002F2F3A70747468ull
#define FU_WW_HEAD_HTTPS 0x2F2F3A7370747468ull
#define FU_WW_HEAD_7 0x00FFFFFFFFFFFFFFull

/* ---- URLs that serialize to themselves ----------------------------------

   Most URLs met in the wild are already in the URL Standard's serialized
   form: parsing them gives back their own bytes as href.  fu_ww_same
   proves that for one common shape in a single pass, without writing the
   URL piece by piece, and leaves everything else to the parser above
   (which gives the same answer for every input fu_ww_same takes; the
   tests compare the two).  An input is taken when all of these hold:

   - it is 17 bytes or more (the scan's blocks are whole 16-byte loads);
   - it starts "http://" or "https://" exactly (a lowercase scheme, two
     slashes: no other number of them, no backslash);
   - its host is one or more of a-z, 0-9, "-", "." (lowercase: domain to
     ASCII keeps an ASCII domain as written where no label starts "xn--",
     and "--" appears in none of it here; no "%", no userinfo, no
     uppercase), not ending in "." and whose last label does not start
     with a digit (so the IPv4 "ends in a number" checker says no);
   - the host is followed by "/" (the path), or by ":", one to five
     digits without a leading zero, at most 65535 and not the scheme's
     default port, then "/" or the end; or by the end (the path is empty
     and the serializer writes "/" after the input);
   - no byte anywhere is a C0 control, space, DEL or beyond ASCII (so
     nothing to trim or remove), nor any of " < > \ ^ ` { } ' (the union
     of the path, special-query and fragment percent-encode sets beyond
     those, and backslash): nothing is percent-encoded;
   - no path segment starts with "." and the path holds no "%2e" or
     "%2E" (no single- or double-dot segment, spelt either way), the path
     ending at the first "?" or "#".

   Then the href is the input (and "/"), copied to out, and the parts are
   where the input has them.

   The scan is written for a branch predictor as much as for instruction
   counts: URLs differ in length, scheme and which of "?", "#", "%" they
   hold, and a branch on any of those is mispredicted often.  So the host
   is read 32 bytes at a time and the path 64 bytes at a time as straight
   code, the blocks past the end loaded as the input's last 16 bytes with
   their bits shifted out, and the parts found from bit masks by selects.
   Needs SSE2 (elsewhere nothing is taken); uses SSSE3 where the CPU has
   it. */

/* One 16-byte block of the path's scan, one bit per byte: bytes never
   taken (bad), "?", "#", and the bytes that may start a dot segment (sus:
   "." after "/", and "%", which may begin "%2e"). */
typedef struct {
    unsigned e, sus;
#if FU_SSE2
    __m128i bad; /* (not 0 in the bytes never taken) */
#endif
} fu_ww_m16;

/* The "%"s and "."s after "/" of s at r + the bits of m (all before the
   path's end): 0 where one starts a dot segment, as far as fu_ww_same
   cares ("/." or "%2e" anywhere in the path). */
static inline int fu_ww_same_sus(const uint8_t *s, ptrdiff_t n, ptrdiff_t r, uint64_t m)
{
    for (; m != 0; m &= m - 1) {
        ptrdiff_t i = r + (ptrdiff_t)fu_ctz64(m);
        if (s[i] == '.')
            return 0;
        if (i + 2 < n && s[i + 1] == '2' && (s[i + 2] | 0x20) == 'e')
            return 0;
    }
    return 1;
}

#if FU_SSE2
/* The bytes of v fu_ww_same never takes (see above), 0xFF each; the
   compares are signed, so bytes from 0x80 are below 0x21. */
static inline __m128i fu_ww_same_bad16(__m128i v)
{
    /* (v | 2) meets "<" and ">" at 0x3E, "\" and "^" at 0x5E, "}" and DEL
       at 0x7F; (v | 4) meets "{" at 0x7F */
    __m128i v2 = _mm_or_si128(v, _mm_set1_epi8(2));
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x21));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v2, _mm_set1_epi8(0x3E)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v2, _mm_set1_epi8(0x5E)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v2, _mm_set1_epi8(0x7F)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(4)), _mm_set1_epi8(0x7F)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('`')));
    return m;
}

/* The path block s[b..b+16) (b > 0), copied to out. */
static inline fu_ww_m16 fu_ww_same16_sse2(const uint8_t *s, ptrdiff_t b, uint8_t *out)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    __m128i w =
        _mm_loadu_si128((const __m128i *)(const void *)(s + b - 1)); /* each one's previous */
    _mm_storeu_si128((__m128i *)(void *)(out + b), v);
    fu_ww_m16 m;
    m.bad = fu_ww_same_bad16(v);
    m.e = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))));
    m.sus = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')),
                     _mm_and_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('/')),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('.')))));
    return m;
}

/* The host block s[b..b+16), copied to out: bits of its bytes of a-z,
   0-9, "-", "." (ok), of "-" (hy) and of "." (dt). */
static inline void fu_ww_host16(const uint8_t *s, ptrdiff_t b, uint8_t *out, unsigned *ok,
                                unsigned *hy, unsigned *dt)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    _mm_storeu_si128((__m128i *)(void *)(out + b), v);
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(v, _mm_set1_epi8('z' + 1)));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    __m128i h = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
    __m128i d = _mm_cmpeq_epi8(v, _mm_set1_epi8('.'));
    *ok =
        (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(h, d)));
    *hy = (unsigned)_mm_movemask_epi8(h);
    *dt = (unsigned)_mm_movemask_epi8(d);
}
#endif

#if FU_SSSE3_DISPATCH
/* fu_ww_same16_sse2 with SSSE3: each byte's classes by two 16-entry table
   lookups (pshufb), one by its low nibble, one by its high, ANDed; so a
   bit is a class that is a product of a set of low and a set of high
   nibbles:
     0x01 C0 controls and beyond ASCII (high 0, 1, 8..F; any low)
     0x02 space, '"', "'"  (high 2; low 0, 2, 7)
     0x04 "<", ">", "\", "^"  (high 3, 5; low C, E)
     0x08 "`"  (high 6; low 0)
     0x10 "{", "}", DEL  (high 7; low B, D, F)
     0x80 "."  (high 2; low E)
   the first five together fu_ww_same_bad16's bytes. */
FU_TARGET_SSSE3 static inline fu_ww_m16 fu_ww_same16_ssse3(const uint8_t *s, ptrdiff_t b,
                                                           uint8_t *out)
{
    const __m128i lo_table = _mm_setr_epi8(0x0B, 0x01, 0x03, 0x01, 0x01, 0x01, 0x01, 0x03, 0x01,
                                           0x01, 0x01, 0x11, 0x05, 0x11, (char)0x85, 0x11);
    const __m128i hi_table = _mm_setr_epi8(0x01, 0x01, (char)0x82, 0x04, 0x00, 0x04, 0x08, 0x10,
                                           0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01);
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + b));
    __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(s + b - 1));
    _mm_storeu_si128((__m128i *)(void *)(out + b), v);
    __m128i nib = _mm_set1_epi8(0x0F);
    __m128i cls =
        _mm_and_si128(_mm_shuffle_epi8(lo_table, _mm_and_si128(v, nib)),
                      _mm_shuffle_epi8(hi_table, _mm_and_si128(_mm_srli_epi16(v, 4), nib)));
    fu_ww_m16 m;
    m.bad = _mm_and_si128(cls, _mm_set1_epi8(0x1F));
    m.e = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))));
    /* "." after "/": the high bit of cls where w is "/" */
    m.sus = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')),
                     _mm_and_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('/')), cls)));
    return m;
}
#endif

#if FU_SSE2
/* The path block at b, by SSSE3 where ssse3 (a constant where this is
   inlined: see fu_ww_same). */
static inline fu_ww_m16 fu_ww_same16(const uint8_t *s, ptrdiff_t b, uint8_t *out, int ssse3)
{
#if FU_SSSE3_DISPATCH
    if (ssse3)
        return fu_ww_same16_ssse3(s, b, out);
#endif
    (void)ssse3;
    return fu_ww_same16_sse2(s, b, out);
}

/* Where the block of the bytes from s[r] (a whole 16, or the rest when
   fewer) is loaded: at r, or, near the end, at n - 16 with the first
   *shift bits not r's (16 or more: none is; the callers' r is less than
   n + 48, so a 64-bit mask shifted by it is defined). */
static inline ptrdiff_t fu_ww_same_at(ptrdiff_t r, ptrdiff_t n, unsigned *shift)
{
    ptrdiff_t b = r <= n - 16 ? r : n - 16; /* (a select, not a branch) */
    *shift = (unsigned)(r - b);
    return b;
}

static inline int fu_ww_same_impl(const uint8_t *s, ptrdiff_t n, uint8_t *out, fu_ww_url *u,
                                  int ssse3)
{
    if (n < 17)
        return 0;
    uint64_t head;
    memcpy(&head, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    head = __builtin_bswap64(head);
#endif
    int is_http = (head & FU_WW_HEAD_7) == FU_WW_HEAD_HTTP;
    int is_https = head == FU_WW_HEAD_HTTPS;
    if (!(is_http | is_https))
        return 0;
    ptrdiff_t a = 7 + is_https; /* the host's start */
    memcpy(out, s, 8);

    /* the host: bytes of a-z, 0-9, "-", "." up to he, 32 at a time; a
       "--" (pairs) and the last "." */
    ptrdiff_t r = a, dot = a - 1, he;
    uint32_t pairs = 0, carry = 0; /* (carry: a "-" ending the window before) */
    for (;;) {
        unsigned sh0, sh1, ok0, ok1, hy0, hy1, dt0, dt1;
        ptrdiff_t b0 = fu_ww_same_at(r, n, &sh0), b1 = fu_ww_same_at(r + 16, n, &sh1);
        fu_ww_host16(s, b0, out, &ok0, &hy0, &dt0);
        fu_ww_host16(s, b1, out, &ok1, &hy1, &dt1);
        uint64_t ok = ((uint64_t)ok0 >> sh0) | (((uint64_t)ok1 >> sh1) << 16);
        uint32_t hy = (uint32_t)(((uint64_t)hy0 >> sh0) | (((uint64_t)hy1 >> sh1) << 16));
        uint32_t dt = (uint32_t)(((uint64_t)dt0 >> sh0) | (((uint64_t)dt1 >> sh1) << 16));
        /* the host's bytes in the window (all 32: it goes on) */
        unsigned take = fu_ctz64(~ok); /* (bit 32 is set in ~ok) */
        uint32_t below = (uint32_t)((1ull << take) - 1);
        hy &= below;
        dt &= below;
        pairs |= hy & ((hy << 1) | carry);
        carry = hy >> 31;
        ptrdiff_t last = r + (ptrdiff_t)fu_top(dt | 1u);
        dot = dt != 0 ? last : dot;
        if (take < 32 || r + 32 >= n) {
            he = r + (ptrdiff_t)take < n ? r + (ptrdiff_t)take : n;
            break;
        }
        r += 32;
    }
    if (he == a || pairs != 0 || s[he - 1] == '.' || fu_ww_digit(s[dot + 1]))
        return 0;
    ptrdiff_t ps = he; /* the path's start, a "/", or n */
    int32_t port = -1;
    if (he < n && s[he] == ':') {
        /* a port written as the serializer writes it */
        ptrdiff_t k = he + 1;
        int32_t v = 0;
        while (k < n && k - he <= 5 && fu_ww_digit(s[k]))
            v = v * 10 + (s[k++] - '0');
        if (k == he + 1 || (k < n && s[k] != '/') || s[he + 1] == '0' || v > 65535
            || v == (is_https ? 443 : 80))
            return 0;
        port = v;
        memcpy(out + he, s + he, (size_t)(k - he)); /* (past the host's window maybe) */
        ps = k;
    } else if (he < n && s[he] != '/') {
        return 0;
    }
    u->len = n;
    u->scheme = FU_WW_HTTP + is_https;
    u->scheme_end = a - 3;
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    u->host_start = a;
    u->host_end = he;
    u->port = port;
    u->path_start = ps;
    if (ps == n) {
        /* no path: the serializer writes a special URL's empty path as
           "/", after the input */
        out[n] = '/';
        u->len = n + 1;
        u->path_end = n + 1;
        u->query_start = u->frag_start = -1;
        return 1;
    }

    /* the path, query and fragment: 64 bytes from ps as straight code;
       the path ends at the first "?" or "#" (pe; e: their bits) */
    uint64_t e = 0, sus = 0;
    /* (the bytes never taken wanted nowhere: every block's, the bytes of
       a last block before ps too, which are the host's or port's) */
    __m128i bad = _mm_setzero_si128();
    for (int j = 0; j < 4; j++) {
        unsigned sh;
        ptrdiff_t b = fu_ww_same_at(ps + 16 * j, n, &sh);
        fu_ww_m16 m = fu_ww_same16(s, b, out, ssse3);
        bad = _mm_or_si128(bad, m.bad);
        e |= ((uint64_t)m.e >> sh) << (16 * j);
        sus |= ((uint64_t)m.sus >> sh) << (16 * j);
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF)
        return 0;
    /* the bits before the first "?" or "#": the path's */
    uint64_t in_path = (e & (0 - e)) - 1;
    if ((sus & in_path) != 0 && !fu_ww_same_sus(s, n, ps, sus & in_path))
        return 0;
    /* (a select: bit 63 stands in for none, the first bit found then not
       set) */
    unsigned ke = fu_ctz64(e | (1ull << 63));
    ptrdiff_t pe = (e >> ke) & 1u ? ps + (ptrdiff_t)ke : n;
    /* past 64 bytes, 16 at a time, the same way */
    for (r = ps + 64; r < n; r += 16) {
        unsigned sh;
        ptrdiff_t b = fu_ww_same_at(r, n, &sh);
        fu_ww_m16 m = fu_ww_same16(s, b, out, ssse3);
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(m.bad, _mm_setzero_si128())) != 0xFFFF)
            return 0;
        if (pe < n || ((m.e | m.sus) >> sh) == 0)
            continue;
        unsigned eb = m.e >> sh;
        if (!fu_ww_same_sus(s, n, r, (m.sus >> sh) & ((eb & (0u - eb)) - 1)))
            return 0;
        if (eb != 0)
            pe = r + (ptrdiff_t)fu_ctz(eb);
    }
    u->path_end = pe;
    u->query_start = u->frag_start = -1;
    if (pe < n) {
        if (s[pe] == '#') {
            u->frag_start = pe;
        } else {
            /* a query (in a tenth of URLs or so), and a fragment maybe */
            const uint8_t *h = (const uint8_t *)memchr(s + pe + 1, '#', (size_t)(n - pe - 1));
            u->query_start = pe;
            u->frag_start = h != NULL ? h - s : -1;
        }
    }
    return 1;
}
#endif

#if FU_SSE2
/* fu_ww_same's href of each row of a column of strings, one after another
   (a column kernel's loop, here so that fu_ww_same is inlined into it):
   row i's bytes data[off[i]..off[i + 1]), null where its bit in validity
   (if any; bit vbase + i) is 0.  The hrefs are appended to out at *len
   (room for cap bytes), row i's end written at ends[i + 1] and its bit
   set in valid.  Goes from row i to row end, and stops at the first row
   fu_ww_same does not take, a null, offsets that cannot be right, or a
   row that would not fit (or end past INT32_MAX): returns its index (end:
   every row taken).  The caller does that row its own way. */
static inline int64_t fu_ww_same_rows_impl(const uint8_t *data, const int32_t *off,
                                           const uint8_t *validity, int64_t vbase, int64_t i,
                                           int64_t end, uint8_t *out, int64_t *len, int64_t cap,
                                           int32_t *ends, uint8_t *valid, int ssse3)
{
    int64_t o = *len;
    /* (no href ends past INT32_MAX, as the int32 ends cannot say) */
    int64_t room = cap < 0x7FFFFFFF ? cap : 0x7FFFFFFF;
    fu_ww_url u;
    if (data == NULL)
        return i;
    for (; i < end; i++) {
        int64_t a = off[i], k = off[i + 1] - a, j = vbase + i;
        if (validity != NULL && !((validity[j >> 3] >> (j & 7)) & 1))
            break;
        if ((a | k) < 0 || o + k + 1 > room) /* (offsets that cannot be right; no room) */
            break;
        if (!fu_ww_same_impl(data + a, k, out + o, &u, ssse3))
            break;
        o += u.len;
        ends[i + 1] = (int32_t)o;
        valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    *len = o;
    return i;
}
#endif

/* fu_ww_same_impl compiled twice, SSSE3 or not, each with its blocks
   inlined (flatten: the SSSE3 block may only be inlined into the SSSE3
   copy). */
#if FU_SSSE3_DISPATCH
FU_TARGET_SSSE3 __attribute__((flatten)) static int fu_ww_same_ssse3(const uint8_t *s, ptrdiff_t n,
                                                                     uint8_t *out, fu_ww_url *u)
{
    return fu_ww_same_impl(s, n, out, u, 1);
}

__attribute__((flatten)) static int fu_ww_same_sse2(const uint8_t *s, ptrdiff_t n, uint8_t *out,
                                                    fu_ww_url *u)
{
    return fu_ww_same_impl(s, n, out, u, 0);
}
#endif

/* Whether s[0..n) serializes to itself (see above): 1, its href in out
   and its parts in *u; else 0 (out written over). */
static inline int fu_ww_same(const uint8_t *s, ptrdiff_t n, uint8_t *out, fu_ww_url *u)
{
#if FU_SSSE3_DISPATCH
    return fu_ww_ssse3 ? fu_ww_same_ssse3(s, n, out, u) : fu_ww_same_sse2(s, n, out, u);
#elif FU_SSE2
    return fu_ww_same_impl(s, n, out, u, 0);
#else
    (void)s;
    (void)n;
    (void)out;
    (void)u;
    return 0;
#endif
}

/* fu_ww_same_rows_impl, compiled twice as fu_ww_same_impl is, by SSSE3
   where the CPU has it; i where there is no SSE2 (fu_ww_same takes
   nothing there). */
#if FU_SSSE3_DISPATCH
FU_TARGET_SSSE3 __attribute__((flatten)) static int64_t
fu_ww_same_rows_ssse3(const uint8_t *data, const int32_t *off, const uint8_t *validity,
                      int64_t vbase, int64_t i, int64_t end, uint8_t *out, int64_t *len,
                      int64_t cap, int32_t *ends, uint8_t *valid)
{
    return fu_ww_same_rows_impl(data, off, validity, vbase, i, end, out, len, cap, ends, valid, 1);
}

__attribute__((flatten)) static int64_t
fu_ww_same_rows_sse2(const uint8_t *data, const int32_t *off, const uint8_t *validity,
                     int64_t vbase, int64_t i, int64_t end, uint8_t *out, int64_t *len, int64_t cap,
                     int32_t *ends, uint8_t *valid)
{
    return fu_ww_same_rows_impl(data, off, validity, vbase, i, end, out, len, cap, ends, valid, 0);
}
#endif

static inline int64_t fu_ww_same_rows(const uint8_t *data, const int32_t *off,
                                      const uint8_t *validity, int64_t vbase, int64_t i,
                                      int64_t end, uint8_t *out, int64_t *len, int64_t cap,
                                      int32_t *ends, uint8_t *valid)
{
#if FU_SSSE3_DISPATCH
    if (fu_ww_ssse3)
        return fu_ww_same_rows_ssse3(data, off, validity, vbase, i, end, out, len, cap, ends,
                                     valid);
    return fu_ww_same_rows_sse2(data, off, validity, vbase, i, end, out, len, cap, ends, valid);
#elif FU_SSE2
    return fu_ww_same_rows_impl(data, off, validity, vbase, i, end, out, len, cap, ends, valid, 0);
#else
    (void)data;
    (void)off;
    (void)validity;
    (void)vbase;
    (void)end;
    (void)out;
    (void)len;
    (void)cap;
    (void)ends;
    (void)valid;
    return i;
#endif
}

/* The basic URL parser on s[0..n) against the base b (serialized in base,
   as this function wrote it), or none (b NULL).  1: parsed, 0: not mine,
   -1: the input fails to parse (some of the inputs that do: a port that
   is not one, a special URL's empty host); 2: see fu_ww_parse_host. */
static inline int fu_ww_parse_host(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                   const fu_ww_url *b, const uint8_t *host, ptrdiff_t host_len,
                                   uint8_t *out, fu_ww_url *u);

static inline int fu_ww_parse(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                              const fu_ww_url *b, uint8_t *out, fu_ww_url *u)
{
    /* most URLs are written as the serializer writes them (whatever the
       base: fu_ww_same takes absolute URLs with "//" only) */
    u->given = NULL;
    u->given_len = 0;
    u->need_start = u->need_end = 0;
    if (fu_ww_same(s, n, out, u))
        return 1;
    return fu_ww_parse_host(s, n, base, b, NULL, 0, out, u);
}

/* fu_ww_parse, and 2 where the input is one it takes but for its host
   (in the authority, not a file URL's), the input's bytes u->need_start
   to u->need_end: the caller's host parser serializes it, or fails the
   input; parsed again with that serialization as host (out has room for
   fu_ww_room(n, base length) + host_len bytes), the input is then the
   C path's (1, or -1 where it fails for its port). */
static inline int fu_ww_parse_trimmed(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                      const fu_ww_url *b, uint8_t *out, fu_ww_url *u);

static inline int fu_ww_parse_host(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                   const fu_ww_url *b, const uint8_t *host, ptrdiff_t host_len,
                                   uint8_t *out, fu_ww_url *u)
{
    u->given = host;
    u->given_len = host_len;
    u->need_start = u->need_end = 0;
    /* leading and trailing C0 control or space */
    ptrdiff_t lead = 0;
    while (n > 0 && s[0] <= 0x20) {
        s++;
        n--;
        lead++;
    }
    while (n > 0 && s[n - 1] <= 0x20)
        n--;
    int rc = fu_ww_parse_trimmed(s, n, base, b, out, u);
    if (rc == 2) { /* (offsets into the input as given) */
        u->need_start += lead;
        u->need_end += lead;
    }
    return rc;
}

static inline int fu_ww_parse_trimmed(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                      const fu_ww_url *b, uint8_t *out, fu_ww_url *u)
{
    /* every byte is read once by one of the loops below, each of which
       gives up at a byte never taken (FU_WW_BAD) */
    ptrdiff_t i = 0, o = 0, q;
    int known = FU_WW_OTHER; /* the scheme, where the head says it */
    uint64_t head = 0;
    if (n >= 8)
        memcpy(&head, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    head = __builtin_bswap64(head);
#endif
    /* "http://" and "https://", any case, as most URLs start: their scheme
       lowercased and known without the scheme state's loop */
    /* (head is 0 where n < 8, which neither is) */
    int is_http = ((head | 0x20202020u) & FU_WW_HEAD_7) == FU_WW_HEAD_HTTP;
    int is_https = (head | 0x2020202020u) == FU_WW_HEAD_HTTPS;
    if (is_http | is_https) {
        /* (one branch, not one per scheme: which of the two a URL has is
           what a branch predictor cannot guess) */
        memcpy(out, "https", 5); /* (an "http" scheme's ":" goes over the "s") */
        i = 4 + is_https;
        known = FU_WW_HTTP + is_https;
    } else if (n > 0 && fu_ww_alpha(s[0])) {
        i = 1;
        while (i < n
               && (fu_ww_alpha(s[i]) || fu_ww_digit(s[i]) || s[i] == '+' || s[i] == '-'
                   || s[i] == '.'))
            i++;
        if (i == n || s[i] != ':')
            i = 0;
    }
    if (i > 0) {
        int scheme;
        if (known != FU_WW_OTHER) {
            scheme = known;
        } else {
            for (ptrdiff_t k = 0; k < i; k++)
                out[k] = (uint8_t)(s[k] | (fu_ww_alpha(s[k]) ? 0x20 : 0));
            scheme = fu_ww_special(out, i);
        }
        u->scheme = scheme;
        u->scheme_end = i;
        q = i + 1;
        u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
        u->port = -1;
        if (scheme == FU_WW_FILE) {
            /* "file://host/path": the file host state ends at "/", "?", "#"
               only (no port, no userinfo), "localhost" is the empty host.
               "file:/path" and "file:path": the host is empty, the path
               state starts after the slash (unless the base is a file URL,
               whose host and drive letter it would take) */
            int slashes = q < n && s[q] == '/' ? (q + 1 < n && s[q + 1] == '/' ? 2 : 1) : 0;
            memcpy(out + i, "://", 3);
            o = i + 3;
            u->host_start = o;
            if (slashes < 2) {
                if (b != NULL && b->scheme == FU_WW_FILE)
                    return 0;
                u->host_end = u->path_start = o;
                q = fu_ww_path(s, q + slashes, n, out, o, &o, 1);
                if (q < 0)
                    return 0;
                u->path_end = o;
                return fu_ww_tail(s, q, n, scheme, out, o, u);
            }
            q += 2;
            while (q < n && s[q] != '/' && s[q] != '?' && s[q] != '#') {
                uint8_t c = s[q++];
                if (fu_ww_hostc[c] >= FU_WW_H_END)
                    return 0; /* incl. ":", "%", bad */
                out[o++] = (uint8_t)((uint8_t)(c - 'A') < 26 ? c | 0x20 : c);
            }
            u->host_end = o;
            if (o > u->host_start) {
                if (!fu_ww_plain_host(out, u->host_start, o))
                    return 0;
                if (o - u->host_start == 9 && memcmp(out + u->host_start, "localhost", 9) == 0)
                    o = u->host_start; /* the empty host */
            }
            u->host_end = o;
            u->path_start = o;
            q = fu_ww_path(s, q < n && s[q] == '/' ? q + 1 : q, n, out, o, &o, 1);
            if (q < 0)
                return 0;
            u->path_end = o;
            return fu_ww_tail(s, q, n, scheme, out, o, u);
        }
        if (scheme != FU_WW_OTHER) {
            ptrdiff_t k = q;
            while (k < n && s[k] == '/')
                k++;
            if (b != NULL && b->scheme == scheme && k - q < 2)
                return 0; /* relative */
            q = k;
        } else {
            if (i == 4 && memcmp(out, "blob", 4) == 0)
                return 0; /* its origin */
            if (n - q < 2 || s[q] != '/' || s[q + 1] != '/') {
                /* no authority: the host is null */
                out[i] = ':';
                o = i + 1;
                u->host_start = u->host_end = -1;
                u->path_start = o;
                if (q < n && s[q] == '/') {
                    /* a path; one that starts "//" would be written "/." first */
                    q = fu_ww_path(s, q + 1, n, out, o, &o, 0);
                    if (q < 0 || (o - u->path_start > 1 && out[u->path_start + 1] == '/'))
                        return 0;
                } else {
                    /* an opaque path: only a space is changed at this
                       range, to "%20" where "?" or "#" follows it */
                    while (q < n && s[q] != '?' && s[q] != '#') {
                        uint8_t c = s[q++];
                        if (fu_ww_enc[c] & FU_WW_BAD)
                            return 0;
                        if (c > 0x7E) { /* the C0 control percent-encode set */
                            static const char hex[] = "0123456789ABCDEF";
                            out[o++] = '%';
                            out[o++] = (uint8_t)hex[c >> 4];
                            out[o++] = (uint8_t)hex[c & 15];
                        } else {
                            out[o++] = c;
                        }
                    }
                    if (q < n && o > u->path_start && out[o - 1] == ' ') {
                        memcpy(out + o - 1, "%20", 3);
                        o += 2;
                    }
                }
                u->path_end = o;
                return fu_ww_tail(s, q, n, scheme, out, o, u);
            }
            q += 2;
        }
        memcpy(out + i, "://", 3);
        o = i + 3;
        q = fu_ww_authority(s, q, n, scheme, out, &o, u);
        if (q < 0)
            return q == FU_WW_FAILS ? -1 : q == FU_WW_NEEDS_HOST ? 2 : 0;
        u->path_start = o;
        if (q < n && s[q] == '/') {
            q = fu_ww_path(s, q + 1, n, out, o, &o, 0);
        } else if (scheme != FU_WW_OTHER) {
            q = fu_ww_path(s, q, n, out, o, &o, 0);
        }
        if (q < 0)
            return 0;
        u->path_end = o;
        return fu_ww_tail(s, q, n, scheme, out, o, u);
    }
    /* no scheme: a relative reference against a special base */
    if (b == NULL || b->scheme == FU_WW_OTHER || b->scheme == FU_WW_FILE)
        return 0;
    u->scheme = b->scheme;
    u->scheme_end = b->scheme_end;
    if (n >= 2 && s[0] == '/' && s[1] == '/') {
        memcpy(out, base, (size_t)b->scheme_end + 3);
        o = b->scheme_end + 3;
        q = 2;
        while (q < n && s[q] == '/')
            q++;
        q = fu_ww_authority(s, q, n, u->scheme, out, &o, u);
        if (q < 0)
            return q == FU_WW_FAILS ? -1 : q == FU_WW_NEEDS_HOST ? 2 : 0;
        u->path_start = o;
        q = fu_ww_path(s, q < n && s[q] == '/' ? q + 1 : q, n, out, o, &o, 0);
        if (q < 0)
            return 0;
        u->path_end = o;
        return fu_ww_tail(s, q, n, u->scheme, out, o, u);
    }
    u->user_start = b->user_start;
    u->user_end = b->user_end;
    u->pass_start = b->pass_start;
    u->pass_end = b->pass_end;
    u->host_start = b->host_start;
    u->host_end = b->host_end;
    u->port = b->port;
    u->path_start = b->path_start;
    if (n == 0 || s[0] == '?' || s[0] == '#') {
        /* the base's path (and, for "#" or nothing, its query) */
        ptrdiff_t keep = n > 0 && s[0] == '?' ? b->path_end
                         : b->frag_start >= 0 ? b->frag_start
                                              : b->len;
        memcpy(out, base, (size_t)keep);
        u->path_end = b->path_end;
        if (!fu_ww_tail(s, 0, n, u->scheme, out, keep, u))
            return 0;
        if (n == 0 || s[0] == '#')
            u->query_start = b->query_start;
        return 1;
    }
    memcpy(out, base, (size_t)b->path_end);
    o = b->path_end;
    if (s[0] == '/') {
        o = b->path_start;
        q = fu_ww_path(s, 1, n, out, o, &o, 0);
    } else {
        /* the base's path shortened: its last item goes */
        while (o > b->path_start && out[o - 1] != '/')
            o--;
        if (o > b->path_start)
            o--;
        q = fu_ww_path(s, 0, n, out, b->path_start, &o, 0);
    }
    if (q < 0)
        return 0;
    u->path_end = o;
    return fu_ww_tail(s, q, n, u->scheme, out, o, u);
}

#endif /* FASTURI_WHATWG_H */
