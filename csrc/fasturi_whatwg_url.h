/* fasturi_whatwg_url.h: what the URL Standard's C headers share (the
   parser fasturi_whatwg_parse.h, the host parser fasturi_whatwg_host.h,
   the setters fasturi_whatwg_set.h, fu_ww_same in fasturi_whatwg_same.h):

   - fu_ww_url, a parsed URL: its href (the URL serializer's output, ASCII)
     lives in the caller's buffer, and the record holds where each part of
     it lies, so a getter is a slice of the href;
   - the schemes (FU_WW_*), the failures by the standard's names for the
     validation errors that end a parse (FU_WW_E_*), and what a parse
     returns (FU_WW_OK, FU_WW_FAIL, FU_WW_HOST);
   - the percent-encode sets, one bit each in fu_ww_enc, and the special
     host loop's byte classes (fu_ww_hostc); fu_ww_init fills both;
   - scalar value strings as UTF-8: a str's code units with lone
     surrogates as U+FFFD (fu_ww_usv_N), bytes with what is not UTF-8 as
     U+FFFD (fu_ww_utf8_fix), as Web IDL and the Encoding Standard make
     them.

   Expects C99 and fasturi_base.h; no Python.h.  No function relies on NUL
   termination: URLs contain NUL. */
#ifndef FASTURI_WHATWG_URL_H
#define FASTURI_WHATWG_URL_H

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

/* The special schemes (URL Standard §4.2), then blob (not special: only
   its origin is), then every other scheme. */
enum {
    FU_WW_OTHER = 0,
    FU_WW_HTTP,
    FU_WW_HTTPS,
    FU_WW_WS,
    FU_WW_WSS,
    FU_WW_FTP,
    FU_WW_FILE,
    FU_WW_BLOB
};
#define FU_WW_SPECIAL(scheme)                                                                      \
    ((unsigned)((scheme)-FU_WW_HTTP) <= (unsigned)(FU_WW_FILE - FU_WW_HTTP))

/* The validation errors that are failures, by the standard's names (the
   reference's InvalidURL.reason; fasturi_whatwg's callers map them), and
   the three ways domain-to-ASCII fails. */
enum {
    FU_WW_E_NONE = 0,
    FU_WW_E_MISSING_SCHEME_NON_RELATIVE_URL,
    FU_WW_E_HOST_MISSING,
    FU_WW_E_HOST_INVALID_CODE_POINT,
    FU_WW_E_PORT_OUT_OF_RANGE,
    FU_WW_E_PORT_INVALID,
    FU_WW_E_IPV4_TOO_MANY_PARTS,
    FU_WW_E_IPV4_NON_NUMERIC_PART,
    FU_WW_E_IPV4_OUT_OF_RANGE_PART,
    FU_WW_E_IPV6_UNCLOSED,
    FU_WW_E_IPV6_INVALID_COMPRESSION,
    FU_WW_E_IPV6_TOO_MANY_PIECES,
    FU_WW_E_IPV6_MULTIPLE_COMPRESSION,
    FU_WW_E_IPV6_INVALID_CODE_POINT,
    FU_WW_E_IPV6_TOO_FEW_PIECES,
    FU_WW_E_IPV4_IN_IPV6_TOO_MANY_PIECES,
    FU_WW_E_IPV4_IN_IPV6_INVALID_CODE_POINT,
    FU_WW_E_IPV4_IN_IPV6_OUT_OF_RANGE_PART,
    FU_WW_E_IPV4_IN_IPV6_TOO_FEW_PARTS,
    FU_WW_E_DOMAIN_EMPTY,     /* domain-to-ASCII: nothing left */
    FU_WW_E_DOMAIN_FORBIDDEN, /* domain-to-ASCII: a forbidden domain code point */
    FU_WW_E_DOMAIN_IDNA,      /* domain-to-ASCII: Unicode ToASCII records an error */
    FU_WW_E_COUNT
};

/* The standard's name for each failure, and where the words for it are
   not the standard's own (InvalidURL.detail), the detail: by FU_WW_E_*. */
static const char *const fu_ww_error_names[FU_WW_E_COUNT] = {
    "",
    "missing-scheme-non-relative-URL",
    "host-missing",
    "host-invalid-code-point",
    "port-out-of-range",
    "port-invalid",
    "IPv4-too-many-parts",
    "IPv4-non-numeric-part",
    "IPv4-out-of-range-part",
    "IPv6-unclosed",
    "IPv6-invalid-compression",
    "IPv6-too-many-pieces",
    "IPv6-multiple-compression",
    "IPv6-invalid-code-point",
    "IPv6-too-few-pieces",
    "IPv4-in-IPv6-too-many-pieces",
    "IPv4-in-IPv6-invalid-code-point",
    "IPv4-in-IPv6-out-of-range-part",
    "IPv4-in-IPv6-too-few-parts",
    "domain-to-ASCII",
    "domain-to-ASCII",
    "domain-to-ASCII",
};
static inline const char *fu_ww_error_name(int e)
{
    return e > 0 && e < FU_WW_E_COUNT ? fu_ww_error_names[e] : "";
}
static inline const char *fu_ww_error_detail(int e)
{
    (void)e;
    return NULL; /* (every failure in the standard's words) */
}

/* What a parse returns: the URL; failure (fu_ww_url.error says why); or a
   host whose serialization does not fit the room the parse had for it (a
   domain beyond ASCII: fu_ww_url.need, need_len, the host state's buffer),
   after which the caller parses again with that host's serialization
   (fu_ww_host_alone's) as fu_ww_url.given. */
#define FU_WW_OK 1
#define FU_WW_FAIL (-1)
#define FU_WW_HOST 2

typedef struct {
    ptrdiff_t len;                  /* the href's length */
    ptrdiff_t scheme_end;           /* the ":" after the scheme */
    ptrdiff_t user_start, user_end; /* the username (empty: 0, 0) */
    ptrdiff_t pass_start, pass_end; /* the password (empty: 0, 0) */
    ptrdiff_t host_start, host_end; /* the host serialized; -1, -1: null */
    ptrdiff_t path_start, path_end; /* the path serialized (after any "/.") */
    ptrdiff_t query_start;          /* the "?", or -1 (null query) */
    ptrdiff_t frag_start;           /* the "#", or -1 (null fragment) */
    int32_t port;                   /* -1: null */
    int scheme;                     /* FU_WW_* */
    int error;                      /* FU_WW_E_*, where the parse failed */
    /* FU_WW_HOST: the host the caller serializes (its bytes, valid while
       the input and out are); given, given_len: its serialization, which
       the next parse of the same input takes as that host's */
    const uint8_t *need;
    ptrdiff_t need_len;
    const uint8_t *given;
    ptrdiff_t given_len;
} fu_ww_url;

/* The percent-encode sets (URL Standard §1.3): one bit each.  Every byte
   from 0x7F is in all of them. */
#define FU_WW_FRAG 1u
#define FU_WW_QUERY 2u
#define FU_WW_SQUERY 4u
#define FU_WW_PATH 8u
#define FU_WW_USERINFO 16u
#define FU_WW_C0 128u /* the C0 control percent-encode set */

/* The bytes the copying loops stop at for a look: C0 controls and
   backslash (a special URL's slash) are FU_WW_LOOK; "/", "?", "#" and
   "%" end a path segment or may begin a dot segment (FU_WW_PSTOP). */
#define FU_WW_LOOK 32u
#define FU_WW_PSTOP 64u

/* Per byte: the percent-encode sets it is in, FU_WW_LOOK, FU_WW_PSTOP
   (fu_ww_init fills it). */
static uint8_t fu_ww_enc[256];

/* Per byte, for a special host: what the fast host loop does with it. */
enum {
    FU_WW_H_COPY = 0, /* a lowercase letter, digit, or other plain code point */
    FU_WW_H_UPPER,    /* an uppercase letter: lowercased */
    FU_WW_H_DOT,      /* a label ends */
    FU_WW_H_HYPHEN,   /* (a plain code point the SIMD loop copies too) */
    FU_WW_H_END,      /* "/", "?", "#": the authority ends */
    FU_WW_H_COLON,    /* the port follows */
    FU_WW_H_OTHER     /* "@", "[", "%", "\", a forbidden or non-ASCII byte: the host parser's */
};
static uint8_t fu_ww_hostc[256];

/* Whether the CPU has SSSE3 (fu_ww_init asks): fu_ww_same's scan uses it. */
static int fu_ww_ssse3;

/* The tables above; call once before any parse. */
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
            e |= FU_WW_FRAG | FU_WW_QUERY | FU_WW_SQUERY | FU_WW_PATH | FU_WW_USERINFO | FU_WW_C0;
        if (c < 0x20 || c == '\\')
            e |= FU_WW_LOOK;
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
        else if (c < 0x20 || c > 0x7E || strchr(forbidden, c))
            h = FU_WW_H_OTHER;
        fu_ww_hostc[c] = h;
    }
}

/* The room out needs to parse n bytes against a base whose href is
   base_len bytes: the href (percent-encoding triples a byte; a "/" before
   the first segment and one after a final dot segment, "//" and "/." that
   the input may lack, a port written shorter than read, an IPv4 or IPv6
   address written longer than read: 64 covers them), and behind it n for
   the input without its tabs and newlines. */
static inline ptrdiff_t fu_ww_room(ptrdiff_t n, ptrdiff_t base_len)
{
    return 4 * n + base_len + 64;
}

static inline int fu_ww_alpha(uint8_t c) { return (uint8_t)((c | 0x20) - 'a') < 26; }
static inline int fu_ww_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }
static inline uint8_t fu_ww_lower(uint8_t c) { return (uint8_t)(c - 'A') < 26 ? c | 0x20 : c; }

/* A forbidden host code point (URL Standard §3.2). */
static inline int fu_ww_forbidden_host(uint8_t c)
{
    switch (c) {
    case 0x00:
    case '\t':
    case '\n':
    case '\r':
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

/* A forbidden domain code point: a forbidden host code point, a C0
   control, "%" or DEL. */
static inline int fu_ww_forbidden_domain(uint8_t c)
{
    return c < 0x20 || c == '%' || c == 0x7F || fu_ww_forbidden_host(c);
}

/* "%" and the byte's two uppercase hex digits at o; returns the end. */
static inline uint8_t *fu_ww_pct(uint8_t c, uint8_t *o)
{
    o[0] = '%';
    o[1] = (uint8_t)fu_hex_upper[c >> 4];
    o[2] = (uint8_t)fu_hex_upper[c & 15];
    return o + 3;
}

/* s[a..b) UTF-8 percent-encoded with the set (FU_WW_* bits) into o;
   returns the end. */
static inline uint8_t *fu_ww_encode(const uint8_t *s, ptrdiff_t a, ptrdiff_t b, unsigned set,
                                    uint8_t *o)
{
    for (ptrdiff_t i = a; i < b; i++) {
        uint8_t c = s[i];
        if (fu_ww_enc[c] & set)
            o = fu_ww_pct(c, o);
        else
            *o++ = c;
    }
    return o;
}

/* A special scheme's number (or FU_WW_BLOB, FU_WW_OTHER), from the scheme
   lowercased. */
static inline int fu_ww_scheme_id(const uint8_t *p, ptrdiff_t n)
{
    switch (n) {
    case 2: return memcmp(p, "ws", 2) == 0 ? FU_WW_WS : FU_WW_OTHER;
    case 3:
        if (memcmp(p, "wss", 3) == 0)
            return FU_WW_WSS;
        return memcmp(p, "ftp", 3) == 0 ? FU_WW_FTP : FU_WW_OTHER;
    case 4:
        if (memcmp(p, "http", 4) == 0)
            return FU_WW_HTTP;
        if (memcmp(p, "file", 4) == 0)
            return FU_WW_FILE;
        return memcmp(p, "blob", 4) == 0 ? FU_WW_BLOB : FU_WW_OTHER;
    case 5: return memcmp(p, "https", 5) == 0 ? FU_WW_HTTPS : FU_WW_OTHER;
    default: return FU_WW_OTHER;
    }
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

/* The port's decimal digits at o; returns the end. */
static inline uint8_t *fu_ww_put_port(int32_t v, uint8_t *o)
{
    char digits[8];
    int k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        *o++ = (uint8_t)digits[--k];
    return o;
}

/* ---- scalar value strings as UTF-8 ---------------------------------------

   The parser reads UTF-8.  A str's code units (a Python str's kind: 1, 2
   or 4 bytes each) are written as UTF-8 by fu_ww_usv_N, a lone surrogate
   as U+FFFD (Web IDL's USVString conversion); out has room for
   fu_ww_usv_room(n) bytes.  Returns the length written. */
static inline ptrdiff_t fu_ww_usv_room(ptrdiff_t n) { return 4 * n; }

static inline uint8_t *fu_ww_put_utf8(uint32_t c, uint8_t *o)
{
    if (c < 0x80) {
        *o++ = (uint8_t)c;
    } else if (c < 0x800) {
        *o++ = (uint8_t)(0xC0 | (c >> 6));
        *o++ = (uint8_t)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        if ((c & 0xF800) == 0xD800)
            c = 0xFFFD; /* a lone surrogate (a str holds no pairs) */
        *o++ = (uint8_t)(0xE0 | (c >> 12));
        *o++ = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (uint8_t)(0x80 | (c & 0x3F));
    } else {
        *o++ = (uint8_t)(0xF0 | (c >> 18));
        *o++ = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (uint8_t)(0x80 | (c & 0x3F));
    }
    return o;
}

#define FU_WW_DEFINE_USV(N, T)                                                                     \
    static inline ptrdiff_t fu_ww_usv_##N(const T *s, ptrdiff_t n, uint8_t *out)                   \
    {                                                                                              \
        uint8_t *o = out;                                                                          \
        for (ptrdiff_t i = 0; i < n; i++)                                                          \
            o = fu_ww_put_utf8((uint32_t)s[i], o);                                                 \
        return o - out;                                                                            \
    }
FU_WW_DEFINE_USV(1, uint8_t)
FU_WW_DEFINE_USV(2, uint16_t)
FU_WW_DEFINE_USV(4, uint32_t)
#undef FU_WW_DEFINE_USV

/* The length of the well-formed UTF-8 sequence at s[i..n) (*whole 1), or
   of its maximal subpart where it is ill-formed (*whole 0; 0: its first
   byte starts none), by the Unicode Standard's table of well-formed byte
   sequences (§3.9, Table 3-7). */
static inline int fu_ww_utf8_seq(const uint8_t *s, ptrdiff_t i, ptrdiff_t n, int *whole)
{
    uint8_t b = s[i];
    int need;
    uint8_t lo = 0x80, hi = 0xBF;
    *whole = 0;
    if (b < 0x80) {
        *whole = 1;
        return 1;
    }
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        if (b == 0xE0)
            lo = 0xA0;
        else if (b == 0xED)
            hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        if (b == 0xF0)
            lo = 0x90;
        else if (b == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    int k = 1;
    for (; k <= need; k++) {
        if (i + k >= n)
            return k; /* a truncated sequence: its maximal subpart */
        uint8_t c = s[i + k];
        if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF))
            return k;
    }
    *whole = 1;
    return need + 1;
}

/* Whether s[0..n) is UTF-8. */
static inline int fu_ww_utf8_ok(const uint8_t *s, ptrdiff_t n)
{
    int whole;
    for (ptrdiff_t i = 0; i < n;) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        i += fu_ww_utf8_seq(s, i, n, &whole);
        if (!whole)
            return 0;
    }
    return 1;
}

/* s[0..n) as UTF-8 with each maximal subpart of an ill-formed sequence (a
   byte that starts none: itself) replaced by U+FFFD, as the Encoding
   Standard's UTF-8 decode and Python's "replace" do; out has room for 3n
   bytes.  Returns the length written. */
static inline ptrdiff_t fu_ww_utf8_fix(const uint8_t *s, ptrdiff_t n, uint8_t *out)
{
    uint8_t *o = out;
    int whole;
    for (ptrdiff_t i = 0; i < n;) {
        int k = fu_ww_utf8_seq(s, i, n, &whole);
        if (whole) {
            memcpy(o, s + i, (size_t)k);
            o += k;
            i += k;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            i += k > 0 ? k : 1;
        }
    }
    return o - out;
}

#endif /* FASTURI_WHATWG_URL_H */
